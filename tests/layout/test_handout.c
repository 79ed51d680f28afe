/* The booklet's handout page is the same map as --player-map (issue 22,
 * booklet.md "Player map"): the same drawing, numbering, symbols and
 * legend, whatever the page furniture; and it shows no secret. The booklet
 * is A5 (templates/booklet.cfg), --player-map A4 by default, so the handout
 * is compared with --player-map at A5 item for item, and with A4's by what
 * does not scale: its words, its legend and which numbers stand in rings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/layout/fake_measure.h"
#include "layout/sheet.h"
#include "layout/template.h"
#include "model/view.h"
#include "registry/registry.h"
#include "stock/stock.h"
#include "testlib.h"

static const double A4_W = 595.2756, A4_H = 841.8898, A5_W = 419.5276, A5_H = 595.2756;

/* The dungeons compared: each generator at seeds 11, 23 and 91, cards at
 * two levels and battleships at three too. */
typedef struct handout_case {
  const char *gen;
  int levels;
} handout_case;

static const handout_case CASES[] = {{"cards", 0},      {"cards", 2},       {"leximorph", 0},
                                     {"preconnect", 0}, {"battleships", 0}, {"battleships", 3},
                                     {"dropdice", 0}};
static const int SEEDS[] = {11, 23, 91};

static cb_dungeon *stocked(const char *gen, int seed, int levels) {
  cb_gen_options o = {.seed = (uint64_t)seed, .levels = levels};
  cb_stock_options sto = {0};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(cb_generator_find(gen), &o, &d, &err) != CB_OK || cb_stock_run(d, &sto, &err) != CB_OK)
    fail_msg("%s seed %d: %s", gen, seed, err.msg);
  return d;
}

/* The page options crawlbook lays d out with: the one-page template's margin, or the booklet's (A5,
 * 10 mm, its sections padded to four pages: templates/booklet.cfg). */
static cb_sheet_options options_for(const cb_dungeon *d, double w, double h, bool booklet) {
  cb_template t;
  cb_template_default(&t);
  cb_sheet_options so = {.page_w = w, .page_h = h, .margin = t.margin_mm * CB_PT_PER_MM, .version = "9.9.9"};
  if (booklet)
    so.margin = 10 * CB_PT_PER_MM, so.pad_to = 4,
    so.sections =
        CB_SECTION_COVER | CB_SECTION_MAPS | CB_SECTION_KEY | CB_SECTION_EXTRAS | CB_SECTION_PLAYER_MAP;
  else
    so.player = true;
  cb_proc_sheet(d, &so);
  return so;
}

/* --player-map of d on a w x h page, into doc. */
static void player_map(const cb_dungeon *d, const cb_dungeon *view, double w, double h, cb_document *doc) {
  cb_sheet_options so = options_for(d, w, h, false);
  cb_error err = {0};
  if (cb_sheet_layout(view, &fake_measure, &so, doc, &err) != CB_OK) fail_msg("%s", err.msg);
}

/* The booklet of d into doc; the index of its handout's first page. */
static int booklet(const cb_dungeon *d, const cb_dungeon *view, cb_document *doc) {
  cb_sheet_options so = options_for(d, A5_W, A5_H, true);
  cb_error err = {0};
  if (cb_booklet_layout(d, view, &fake_measure, &so, doc, &err) != CB_OK) fail_msg("%s", err.msg);
  for (int i = 0; i < doc->npages; i++)
    if (doc->pages[i]->label && strcmp(doc->pages[i]->label, "Players' map") == 0) return i;
  fail_msg("%s seed %" PRIu64 ": the booklet has no players' map", d->generator, d->seed);
  return -1;
}

/* How many items of page p are the map's and its legend's: those before its "Notes" heading. */
static int map_items(const cb_page *p) {
  for (int i = 0; i < p->nitems; i++)
    if (p->items[i].kind == CB_ITEM_TEXT && strcmp(p->items[i].text, "Notes") == 0) return i;
  return p->nitems;
}

/* Whether items a and b (of pages pa and pb) are drawn the same. */
static bool same_item(const cb_page *pa, const cb_item *a, const cb_page *pb, const cb_item *b) {
  if (a->kind != b->kind || memcmp(&a->role, &b->role, sizeof a->role) != 0) return false;
  if (a->kind == CB_ITEM_TEXT)
    return strcmp(a->text, b->text) == 0 && fabs(a->x - b->x) < 0.01 && fabs(a->y - b->y) < 0.01 &&
           fabs(a->size - b->size) < 0.01;
  if (a->nops != b->nops) return false;
  for (int k = 0; k < a->nops; k++) {
    const cb_op *oa = &pa->ops[a->op0 + k], *ob = &pb->ops[b->op0 + k];
    if (oa->kind != ob->kind) return false;
    for (int j = 0; j < 3; j++)
      if (fabs(oa->x[j] - ob->x[j]) > 0.01 || fabs(oa->y[j] - ob->y[j]) > 0.01) return false;
  }
  return true;
}

/* A page's words, sorted, from item `from` to item `to`, those of the map's own roles or the others. */
typedef struct words {
  const char *w[4096];
  int n;
} words;

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void collect(const cb_page *p, int from, int to, bool map_roles, words *out) {
  out->n = 0;
  for (int i = from; i < to && out->n < 4096; i++)
    if (p->items[i].kind == CB_ITEM_TEXT && (p->items[i].role.kind != CB_ROLE_NONE) == map_roles)
      out->w[out->n++] = p->items[i].text;
  qsort(out->w, (size_t)out->n, sizeof *out->w, by_text);
}

/* The first word of a that b has not (or b of a), NULL when they are the same words. */
static const char *words_differ(const words *a, const words *b) {
  for (int i = 0; i < a->n || i < b->n; i++) {
    if (i >= a->n) return b->w[i];
    if (i >= b->n || strcmp(a->w[i], b->w[i]) != 0) return a->w[i];
  }
  return NULL;
}

/* The first item after the map's (its legend's), up to `to`. */
static int legend_from(const cb_page *p, int to) {
  int last = 0;
  for (int i = 0; i < to; i++)
    if (p->items[i].role.kind != CB_ROLE_NONE) last = i + 1;
  return last;
}

/* Whether room id's number stands in a ring: a round outline of the room's (a cards number's
 * ring, a room's circle) on page p. A room with marks may drop its ring where they need its room. */
static bool ringed(const cb_page *p, int to, int id) {
  for (int i = 0; i < to; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_ROOM || it->role.a != id || !it->ink.stroke)
      continue;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    bool curved = false;
    for (int k = it->op0; k < it->op0 + it->nops; k++) {
      const cb_op *o = &p->ops[k];
      int last = o->kind == CB_OP_CURVE ? 2 : 0; /* a curve ends at its third point */
      curved |= o->kind == CB_OP_CURVE;
      if (o->kind != CB_OP_CLOSE)
        x0 = fmin(x0, o->x[last]), x1 = fmax(x1, o->x[last]), y0 = fmin(y0, o->y[last]),
        y1 = fmax(y1, o->y[last]);
    }
    if (curved && fabs((x1 - x0) - (y1 - y0)) < 0.05 * (x1 - x0)) return true;
  }
  return false;
}

/* Whether room id has marks on page p (items before `to`). */
static bool has_marks(const cb_page *p, int to, int id) {
  for (int i = 0; i < to; i++)
    if (p->items[i].role.kind == CB_ROLE_ROOM_MARK && p->items[i].role.a == id) return true;
  return false;
}

/* What the handout of one dungeon shows against --player-map's. */
typedef struct tally {
  int cases, unlike_a5, words_a4, legend_a4, rings_a4, secrets;
  char first[256];
} tally;

#define fault(t, count, ...) cb_test_tally((t)->first, sizeof(t)->first, count, __VA_ARGS__)

/* The handout's map, item for item, is --player-map's at the booklet's page size. */
static void check_a5(const cb_page *h, const cb_page *p, tally *t, const char *what) {
  int nh = map_items(h), np = map_items(p);
  int i = 0;
  while (i < nh && i < np && same_item(h, &h->items[i], p, &p->items[i]))
    i++;
  if (i < nh || i < np)
    fault(t, &t->unlike_a5, "%s: the handout's item %d of %d is not --player-map's (A5, %d items)", what, i,
          nh, np);
}

/* The handout shows the words, the legend and the rings of --player-map's A4 map. */
static void check_a4(const cb_page *h, const cb_page *p, tally *t, const char *what) {
  int nh = map_items(h), np = map_items(p);
  static words wh, wp;
  collect(h, 0, nh, true, &wh);
  collect(p, 0, np, true, &wp);
  const char *w = words_differ(&wh, &wp);
  if (w) fault(t, &t->words_a4, "%s: the handout's map and --player-map's differ at \"%s\"", what, w);
  collect(h, legend_from(h, nh), nh, false, &wh);
  collect(p, legend_from(p, np), np, false, &wp);
  if ((w = words_differ(&wh, &wp)))
    fault(t, &t->legend_a4, "%s: the handout's legend and --player-map's differ at \"%s\"", what, w);
  for (int i = 0; i < np; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_ROOM || !ringed(p, i + 1, it->role.a) ||
        ringed(p, i, it->role.a) || ringed(h, nh, it->role.a) || has_marks(h, nh, it->role.a))
      continue;
    fault(t, &t->rings_a4, "%s: room %d's number is ringed on --player-map, not on the handout", what,
          it->role.a);
  }
}

/* No secret on the handout's pages (from..to): no encounter, treasure, key, goal, boss or secret
 * badge, no padlock, and no legend entry for any of them. */
static void check_secrets(const cb_document *doc, int from, int to, tally *t, const char *what) {
  static const char *const told[] = {"?",       "$",         "G",       "B",      "S",
                                     "goal",    "boss",      "key",     "secret", "locked (key)",
                                     "trapped", "encounter", "treasure"};
  for (int k = from; k < to; k++) {
    const cb_page *p = doc->pages[k];
    for (int i = 0; i < p->nitems; i++) {
      const cb_item *it = &p->items[i];
      if (it->kind != CB_ITEM_TEXT) continue;
      bool key_id = it->text[0] == 'K' && it->text[1] >= '0' && it->text[1] <= '9';
      for (size_t j = 0; j < sizeof told / sizeof *told && !key_id; j++)
        key_id = strcmp(it->text, told[j]) == 0;
      if (key_id) fault(t, &t->secrets, "%s: the handout shows \"%s\" (page %d)", what, it->text, k + 1);
    }
  }
}

static void handout_is_player_map(void **state) {
  (void)state;
  tally t = {0};
  for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++)
    for (size_t s = 0; s < sizeof SEEDS / sizeof *SEEDS; s++) {
      cb_dungeon *d = stocked(CASES[c].gen, SEEDS[s], CASES[c].levels);
      cb_dungeon *view = cb_player_view(d);
      assert_non_null(view);
      char what[96];
      snprintf(what, sizeof what, "%s%s seed %d", CASES[c].gen,
               CASES[c].levels ? (CASES[c].levels == 2 ? " --levels 2" : " --levels 3") : "", SEEDS[s]);
      cb_document b = {0}, a5 = {0}, a4 = {0};
      int h = booklet(d, view, &b);
      player_map(d, view, A5_W, A5_H, &a5);
      player_map(d, view, A4_W, A4_H, &a4);
      check_a5(b.pages[h], a5.pages[0], &t, what);
      check_a4(b.pages[h], a4.pages[0], &t, what);
      check_secrets(&b, h, h + a5.npages, &t, what);
      t.cases++;
      cb_document_free(&b), cb_document_free(&a5), cb_document_free(&a4);
      cb_dungeon_free(view);
      cb_dungeon_free(d);
    }
  printf("handout      %d dungeons: %d handouts unlike --player-map at A5; against A4's, %d maps with other "
         "words, %d legends with other words, %d bare cards' rings dropped; %d secrets shown%s%s\n",
         t.cases, t.unlike_a5, t.words_a4, t.legend_a4, t.rings_a4, t.secrets, t.first[0] ? "; first: " : "",
         t.first);
  if (t.unlike_a5 + t.words_a4 + t.legend_a4 + t.rings_a4 + t.secrets) fail_msg("%s", t.first);
}

int main(void) {
  struct CMUnitTest tests[] = {cmocka_unit_test(handout_is_player_map)};
  return cb_test_run("test_handout", tests, sizeof tests / sizeof *tests, NULL, NULL);
}
