/* One page means one page (booklet.md): the one-page sheet of every case the
 * spec lists fits one side of one sheet, measured with the cairo backend's own
 * text metrics (the fonts we ship), over many seeds. Pages are laid out, not
 * drawn. Counts of sheets that needed more are printed for every case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/parts.h"
#include "layout/sheet.h"
#include "layout/symbols.h"
#include "layout/template.h"
#include "proc/cards/proc.h"
#include "registry/registry.h"
#include "render/backend.h"
#include "stock/stock.h"
#include "testlib.h"

static const double A4_W = 595.2756, A4_H = 841.8898, LETTER_W = 612, LETTER_H = 792;

typedef struct one_case {
  const char *name, *generator;
  int seeds;
  double page_w, page_h;
  void (*options)(cb_gen_options *o);
  /* the sheet carries everything (stocking.md) and these do not always fit:
   * a sheet that runs on must say so and take two pages at most */
  bool may_spill;
} one_case;

static void rooms30(cb_gen_options *o) { o->rooms = 30; }
static void rooms15(cb_gen_options *o) { o->rooms = 15; }
static void grid7(cb_gen_options *o) {
  static const cb_cards_options seven = {.grid = {7, 7}};
  o->own = &seven;
}
static void levels2(cb_gen_options *o) { o->levels = 2; }

static const one_case CASES[] = {
    {"dropdice", "dropdice", 200, A4_W, A4_H, NULL, false},
    {"cards", "cards", 200, A4_W, A4_H, NULL, false},
    {"leximorph", "leximorph", 200, A4_W, A4_H, NULL, true},
    {"preconnect", "preconnect", 200, A4_W, A4_H, NULL, false},
    {"battleships", "battleships", 200, A4_W, A4_H, NULL, false},
    {"dropdice --rooms 30", "dropdice", 200, A4_W, A4_H, rooms30, true},
    {"cards --grid 7x7", "cards", 200, A4_W, A4_H, grid7, true},
    {"cards --levels 2", "cards", 200, A4_W, A4_H, levels2, true},
    {"preconnect --rooms 15", "preconnect", 200, A4_W, A4_H, rooms15, false},
    {"dropdice on letter", "dropdice", 60, LETTER_W, LETTER_H, NULL, false},
    {"cards on letter", "cards", 60, LETTER_W, LETTER_H, NULL, false},
    {"preconnect on letter", "preconnect", 60, LETTER_W, LETTER_H, NULL, false},
    {"battleships on letter", "battleships", 60, LETTER_W, LETTER_H, NULL, false},
    {"dropdice landscape", "dropdice", 60, A4_H, A4_W, NULL, false},
    {"cards landscape", "cards", 60, A4_H, A4_W, NULL, false},
    {"preconnect landscape", "preconnect", 60, A4_H, A4_W, NULL, false},
    {"battleships landscape", "battleships", 60, A4_H, A4_W, NULL, false},
    {"leximorph landscape", "leximorph", 60, A4_H, A4_W, NULL, true},
    {"cards landscape letter", "cards", 60, LETTER_H, LETTER_W, NULL, false},
    /* booklet.md: cards up to 7x7 or two levels on A4 and Letter, portrait and landscape (measured) */
    {"cards --grid 7x7 on letter", "cards", 60, LETTER_W, LETTER_H, grid7, true},
    {"cards --grid 7x7 landscape", "cards", 60, A4_H, A4_W, grid7, true},
    {"cards --levels 2 on letter", "cards", 60, LETTER_W, LETTER_H, levels2, true},
    {"cards --levels 2 landscape", "cards", 60, A4_H, A4_W, levels2, true},
};

static cb_backend *backend;

static int setup(void **state) {
  (void)state;
  backend = cb_test_cairo();
  return backend ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  cb_backend_destroy(backend);
  return 0;
}

/* Every word of the sheet but the footer's (grey) stands above the footer:
 * a legend sized for fewer rows than it takes ran into it on wide pages. */
static void clear_of_footer(const cb_document *doc, const cb_measure *m, const cb_dungeon *d,
                            const cb_sheet_options *so, const char *name, int seed) {
  double fh = 0;
  cb_error err = {0};
  if (cb_part_footer_height(m, d, so, so->page_w - 2 * so->margin, &fh, &err) != CB_OK)
    fail_msg("%s", err.msg);
  const cb_rgb grey = CB_QUIET_GREY;
  double top = so->page_h - so->margin - fh;
  for (int i = 0; i < doc->npages; i++)
    for (int k = 0; k < doc->pages[i]->nitems; k++) {
      const cb_item *it = &doc->pages[i]->items[k];
      if (it->kind != CB_ITEM_TEXT || memcmp(&it->color, &grey, sizeof grey) == 0) continue;
      if (it->y + it->size * 0.25 > top + 0.5)
        fail_msg("%s seed %d page %d: \"%.30s\" runs into the footer (%.1f pt below its top)", name, seed,
                 i + 1, it->text, it->y + it->size * 0.25 - top);
    }
}

static void a_sheet_is_one_page(void **state) {
  const one_case *c = *state;
  const cb_measure *m = cb_backend_find("cairo")->measure(backend);
  int more = 0, first = 0;
  for (int seed = 1; seed <= c->seeds; seed++) {
    cb_gen_options o = {.seed = (uint64_t)seed};
    if (c->options) c->options(&o);
    cb_dungeon *d = NULL;
    cb_error err = {0};
    if (cb_generator_run(cb_generator_find(c->generator), &o, &d, &err) != CB_OK)
      fail_msg("%s: %s", c->name, err.msg);
    /* stocked as crawlbook stocks it: the key's length is what a game master prints */
    cb_stock_options sto = {0};
    if (cb_stock_run(d, &sto, &err) != CB_OK) fail_msg("%s seed %d: %s", c->name, seed, err.msg);
    /* the margins crawlbook prints the sheet with: the built-in one-page template's */
    cb_template t;
    cb_template_default(&t);
    cb_sheet_options so = {
        .page_w = c->page_w, .page_h = c->page_h, .margin = t.margin_mm * CB_PT_PER_MM, .version = "9.9.9"};
    cb_proc_sheet(d, &so);
    cb_document doc = {0};
    if (cb_sheet_layout(d, m, &so, &doc, &err) != CB_OK) fail_msg("%s seed %d: %s", c->name, seed, err.msg);
    clear_of_footer(&doc, m, d, &so, c->name, seed);
    if (doc.npages > 1 && (!doc.spilled || doc.npages > 2))
      fail_msg("%s seed %d: %d pages, %s", c->name, seed, doc.npages,
               doc.spilled ? "more than two" : "no note");
    if (doc.npages > 1) {
      if (!more++) first = seed;
      printf("  %s seed %d: %d pages\n", c->name, seed, doc.npages);
    }
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  printf("%-24s %d of %d sheets need more than one page\n", c->name, more, c->seeds);
  if (more && !c->may_spill)
    fail_msg("%s: %d of %d sheets need more than one page (seed %d first)", c->name, more, c->seeds, first);
}

int main(void) {
  enum { N = sizeof CASES / sizeof *CASES };
  struct CMUnitTest tests[N];
  for (int i = 0; i < N; i++)
    tests[i] = (struct CMUnitTest){CASES[i].name, a_sheet_is_one_page, NULL, NULL, (void *)&CASES[i]};
  return cmocka_run_group_tests(tests, setup, teardown);
}
