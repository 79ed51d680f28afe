/* The sheet is the adventure (stocking.md, "The room key, as printed"):
 * read from the page model, every one-page sheet carries the hook, the
 * roster, the wandering table, every room's dressing, its monsters' doing,
 * every trap's trigger and effect, every special, and every trapped,
 * soft-locked, obstructed or locked way's note, told once; and its text
 * keeps booklet.md's typography (no colon chains, no doubled punctuation,
 * no sentence starting in lower case, "(HD 1/2)" and "(60 ft)" never broken,
 * table rows "1: 4 giant bats"), and so does the booklet's key (a
 * seed in eight). 200 seeds a generator, on A4 portrait and
 * on Letter landscape; under AddressSanitizer 25 (it runs ten times slower). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/sheet.h"
#include "layout/template.h"
#include "registry/registry.h"
#include "render/backend.h"
#include "stock/stock.h"
#include "testlib.h"

#if defined(__SANITIZE_ADDRESS__)
enum { SEEDS = 25 };
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
enum { SEEDS = 25 };
#else
enum { SEEDS = 200 };
#endif
#else
enum { SEEDS = 200 };
#endif

typedef struct sheet_case {
  const char *generator;
  double page_w, page_h;
} sheet_case;

static const sheet_case CASES[] = {
    {"dropdice", 595.2756, 841.8898},
    {"cards", 595.2756, 841.8898},
    {"leximorph", 595.2756, 841.8898},
    {"preconnect", 595.2756, 841.8898},
    {"battleships", 595.2756, 841.8898},
    {"dropdice", 792, 612},
    {"cards", 792, 612},
    {"leximorph", 792, 612},
    {"preconnect", 792, 612},
    {"battleships", 792, 612},
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

/* text with every space (and no-break space) taken out, and the colons and
 * commas (a chain of colons is broken with a comma), in lower case: what a
 * line break or a change of font cannot change */
static char *squeeze(const char *s) {
  char *out = malloc(strlen(s) + 1), *o = out;
  assert_non_null(out);
  for (; *s; s++) {
    if (s[0] == '\xc2' && s[1] == '\xa0') {
      s++;
      continue;
    }
    if (!isspace((unsigned char)*s) && *s != ':' && *s != ',') *o++ = (char)tolower((unsigned char)*s);
  }
  *o = '\0';
  return out;
}

/* The sheet's words: its text items in the order drawn, joined by spaces. */
static char *sheet_text(const cb_document *doc) {
  size_t n = 1;
  for (int p = 0; p < doc->npages; p++)
    for (int i = 0; i < doc->pages[p]->nitems; i++)
      if (doc->pages[p]->items[i].kind == CB_ITEM_TEXT) n += strlen(doc->pages[p]->items[i].text) + 1;
  char *t = malloc(n), *o = t;
  assert_non_null(t);
  for (int p = 0; p < doc->npages; p++)
    for (int i = 0; i < doc->pages[p]->nitems; i++)
      if (doc->pages[p]->items[i].kind == CB_ITEM_TEXT) o += sprintf(o, "%s ", doc->pages[p]->items[i].text);
  *o = '\0';
  return t;
}

static int count_in(const char *hay, const char *needle) {
  int n = 0;
  for (const char *s = hay; (s = strstr(s, needle)); s++)
    n++;
  return n;
}

/* How many times text (its final full stop aside) is on the sheet. */
static int times_on(const char *flat, const char *text) {
  char *t = squeeze(text);
  size_t n = strlen(t);
  if (n && t[n - 1] == '.') t[n - 1] = '\0';
  int k = t[0] ? count_in(flat, t) : 1;
  free(t);
  return k;
}

static void must_carry(const char *flat, const char *what, const char *text, const char *where, int seed) {
  if (text && !times_on(flat, text))
    fail_msg("%s seed %d: the sheet leaves off %s \"%s\"", where, seed, what, text);
}

#define SHORT(x, y) ((y) ? (y) : (x))

/* A way's note less a leading "Trap: ", as the key prints it after "Trap to 5: ". */
static const char *note_rest(const char *note) {
  size_t lead = strcspn(note, ": ");
  return lead > 0 && lead < 12 && note[lead] == ':' && note[lead + 1] == ' ' ? note + lead + 2 : note;
}

static void rooms_carried(const cb_dungeon *d, const char *flat, const char *g, int seed) {
  for (int i = 0; i < d->nrooms; i++) {
    const cb_contents *c = d->rooms[i].contents;
    if (!c) continue;
    must_carry(flat, "a dressing", SHORT(c->dressing, c->dressing_short), g, seed);
    for (int k = 0; k < c->nmonsters; k++)
      must_carry(flat, "a doing", SHORT(c->monsters[k].doing, c->monsters[k].doing_short), g, seed);
    if (c->trap) {
      must_carry(flat, "a trigger", SHORT(c->trap->trigger, c->trap->trigger_short), g, seed);
      must_carry(flat, "an effect", SHORT(c->trap->effect, c->trap->effect_short), g, seed);
    }
    must_carry(flat, "a special", SHORT(c->special, c->special_short), g, seed);
  }
}

static void ways_carried(const cb_dungeon *d, const char *flat, const char *g, int seed) {
  const unsigned passed = CB_FLAG_TRAPPED | CB_FLAG_SOFT_LOCKED | CB_FLAG_OBSTRUCTED | CB_FLAG_LOCKED;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (!ps->note || !(ps->flags & passed)) continue;
    const char *note = note_rest(SHORT(ps->note, ps->note_short));
    int told = times_on(flat, note), ways = 0;
    for (int j = 0; j < d->npassages; j++) {
      const cb_passage *q = &d->passages[j];
      if (!q->note || !(q->flags & passed)) continue;
      char *other = squeeze(note_rest(SHORT(q->note, q->note_short)));
      ways += times_on(other, note);
      free(other);
    }
    bool repeated_lock = false;
    for (int j = 0; ps->lock && j < i; j++)
      repeated_lock |= d->passages[j].lock && d->passages[j].note && !strcmp(d->passages[j].lock, ps->lock) &&
                       !strcmp(d->passages[j].note, ps->note);
    if (!told && !repeated_lock)
      fail_msg("%s seed %d: the way %d-%d is not told: \"%s\"", g, seed, ps->from, ps->to, note);
    /* told once for the way: not in both rooms' entries */
    if (told > ways) fail_msg("%s seed %d: \"%s\" told %d times for %d ways", g, seed, note, told, ways);
  }
}

static void extras_carried(const cb_dungeon *d, const char *flat, const char *g, int seed) {
  for (int h = 0; h < 2; h++)
    must_carry(flat, "the hook", d->hook[h] ? SHORT(d->hook[h], d->hook_short[h]) : NULL, g, seed);
  for (int k = 0; k < d->nroster; k++)
    must_carry(flat, "a roster kind", d->roster[k].name, g, seed);
  char row[256];
  for (int k = 0; k < d->nwandering; k++) {
    const cb_monster *m = &d->wandering[k];
    if (m->count == 1)
      snprintf(row, sizeof row, "%d: %s (HD", k + 1, m->name);
    else
      snprintf(row, sizeof row, "%d: %d %s (HD", k + 1, m->count, m->name);
    must_carry(flat, "a wandering row", row, g, seed);
  }
}

/* booklet.md's typography over the sheet's words as they run */
static void typography(const char *text, const char *g, int seed) {
  static const char *const never[] = {"..", ",,", ";;", ".;", ";.", ",.", ":.", "?\".", "!\".", " ;", " ,"};
  for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
    const char *at = strstr(text, never[i]);
    if (at && strncmp(at - (at > text), "...", 3))
      fail_msg("%s seed %d: doubled punctuation \"%.40s\"", g, seed, at > text + 20 ? at - 20 : text);
  }
  for (const char *s = text; (s = strstr(s, ". ")); s++) {
    const char *w = s + 2;
    while (*w == ' ')
      w++;
    if (*w >= 'a' && *w <= 'z')
      fail_msg("%s seed %d: a sentence in lower case \"%.50s\"", g, seed, s > text + 20 ? s - 20 : text);
  }
  /* no chain of colons: a sentence has one at most ("Trap: threshold: pit" is a chain) */
  int colons = 0;
  for (const char *s = text; *s; s++) {
    if (*s == ':') colons++;
    if (*s == '.' || *s == ';' || *s == '\n') colons = 0;
    if (colons > 1)
      fail_msg("%s seed %d: a chain of colons \"%.60s\"", g, seed, s > text + 50 ? s - 50 : text);
  }
}

/* no line ends inside "(HD 1/2)" or "(60 ft)" */
static void unbroken(const cb_document *doc, const char *g, int seed) {
  for (int p = 0; p < doc->npages; p++)
    for (int i = 0; i < doc->pages[p]->nitems; i++) {
      const cb_item *it = &doc->pages[p]->items[i];
      if (it->kind != CB_ITEM_TEXT) continue;
      size_t n = strlen(it->text);
      bool hd = n >= 3 && !strcmp(it->text + n - 3, "(HD");
      if (hd || !strncmp(it->text, "ft)", 3) || !strncmp(it->text, "ft,", 3))
        fail_msg("%s seed %d: a line breaks inside a stat or a length: \"%s\"", g, seed, it->text);
    }
}

/* The booklet's key (hook, roster, wandering table and rooms, long forms)
 * keeps the same typography; its pages' footers are left out. */
static void booklet_typography(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *so,
                               const char *g, int seed) {
  cb_sheet_options bo = *so;
  bo.sections = CB_SECTION_KEY;
  cb_document doc = {0};
  cb_error err = {0};
  if (cb_booklet_layout(d, NULL, m, &bo, &doc, &err) != CB_OK) fail_msg("%s seed %d: %s", g, seed, err.msg);
  for (int p = 0; p < doc.npages; p++) {
    cb_document one = {.pages = &doc.pages[p], .npages = 1};
    char *text = sheet_text(&one), *foot = strstr(text, "To make it again");
    if (foot) *foot = '\0';
    typography(text, g, seed);
    unbroken(&one, g, seed);
    free(text);
  }
  cb_document_free(&doc);
}

static void the_sheet_carries_it_all(void **state) {
  const sheet_case *c = *state;
  const cb_measure *m = cb_backend_find("cairo")->measure(backend);
  int spilled = 0;
  for (int seed = 1; seed <= SEEDS; seed++) {
    cb_gen_options o = {.seed = (uint64_t)seed};
    cb_dungeon *d = NULL;
    cb_error err = {0};
    if (cb_generator_run(cb_generator_find(c->generator), &o, &d, &err) != CB_OK)
      fail_msg("%s: %s", c->generator, err.msg);
    cb_stock_options sto = {0};
    if (cb_stock_run(d, &sto, &err) != CB_OK) fail_msg("%s seed %d: %s", c->generator, seed, err.msg);
    assert_true(d->nroster > 0 && d->hook[0] && d->nwandering == 6);
    cb_template t;
    cb_template_default(&t);
    cb_sheet_options so = {
        .page_w = c->page_w, .page_h = c->page_h, .margin = t.margin_mm * CB_PT_PER_MM, .version = "9.9.9"};
    cb_proc_sheet(d, &so);
    cb_document doc = {0};
    if (cb_sheet_layout(d, m, &so, &doc, &err) != CB_OK)
      fail_msg("%s seed %d: %s", c->generator, seed, err.msg);
    /* a sheet that runs on says so */
    if (doc.npages > 1 && !doc.spilled)
      fail_msg("%s seed %d: %d pages and no note", c->generator, seed, doc.npages);
    spilled += doc.npages > 1;
    char *text = sheet_text(&doc), *flat = squeeze(text);
    unbroken(&doc, c->generator, seed);
    extras_carried(d, flat, c->generator, seed);
    rooms_carried(d, flat, c->generator, seed);
    ways_carried(d, flat, c->generator, seed);
    /* the key's words: from its heading to the footer (the map's captions are the procedure's) */
    char *key = strstr(text, "Room key"), *foot = key ? strstr(key, "To make it again") : NULL;
    assert_non_null(foot);
    *foot = '\0';
    typography(key, c->generator, seed);
    free(flat);
    free(text);
    cb_document_free(&doc);
    if (seed <= SEEDS / 8) booklet_typography(d, m, &so, c->generator, seed);
    cb_dungeon_free(d);
  }
  printf("%-12s %s: all carried over %d seeds; %d ran onto a second page\n", c->generator,
         c->page_w > c->page_h ? "letter landscape" : "a4 portrait", SEEDS, spilled);
}

int main(void) {
  enum { N = sizeof CASES / sizeof *CASES };
  struct CMUnitTest tests[N];
  static char names[N][64];
  for (int i = 0; i < N; i++) {
    snprintf(names[i], sizeof names[i], "%s %s", CASES[i].generator,
             CASES[i].page_w > CASES[i].page_h ? "letter landscape" : "a4 portrait");
    tests[i] = (struct CMUnitTest){names[i], the_sheet_carries_it_all, NULL, NULL, (void *)&CASES[i]};
  }
  return cmocka_run_group_tests(tests, setup, teardown);
}
