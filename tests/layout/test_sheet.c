/* The sheet with a fake measurer: every text item and every path point lies
 * inside the page margins for dropdice dungeons of 1 to 200 rooms, every
 * room gets its key entry, and a key too long for page 1 continues on later
 * pages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/layout/fake_measure.h"
#include "base/text.h"
#include "layout/sheet.h"
#include "layout/template.h"
#include "model/view.h"
#include "proc/dropdice/proc.h"
#include "registry/registry.h"
#include "testlib.h"

static const double A4_W = 595.2756, A4_H = 841.8898, MARGIN = 12 * CB_PT_PER_MM, EPS = 1e-6;

static void check_inside(const cb_document *doc, const char *what) {
  for (int pi = 0; pi < doc->npages; pi++) {
    const cb_page *p = doc->pages[pi];
    assert_true(p->w == A4_W && p->h == A4_H);
    assert_false(p->oom);
    double x0 = MARGIN - EPS, x1 = p->w - MARGIN + EPS, y0 = MARGIN - EPS, y1 = p->h - MARGIN + EPS;
    for (int i = 0; i < p->nitems; i++) {
      const cb_item *it = &p->items[i];
      if (it->kind == CB_ITEM_TEXT) {
        double w = fake_width(NULL, it->font, it->size, it->text);
        if (it->x < x0 || it->x + w > x1 || it->y - it->size < y0 || it->y > y1)
          fail_msg("%s page %d: text '%.40s' at %.1f,%.1f (%.1f wide, %.1f pt) leaves the margins", what,
                   pi + 1, it->text, it->x, it->y, w, it->size);
        continue;
      }
      double half = 0; /* the points themselves; a stroke may spill half its width */
      for (int o = it->op0; o < it->op0 + it->nops; o++) {
        const cb_op *op = &p->ops[o];
        int npts = op->kind == CB_OP_CURVE ? 3 : op->kind == CB_OP_CLOSE ? 0 : 1;
        for (int k = 0; k < npts; k++)
          if (op->x[k] - half < x0 || op->x[k] + half > x1 || op->y[k] - half < y0 || op->y[k] + half > y1)
            fail_msg("%s page %d: path point %.2f,%.2f leaves the margins", what, pi + 1, op->x[k], op->y[k]);
      }
    }
  }
}

static int count_text(const cb_document *doc, int from_page, const char *text, cb_font font) {
  int n = 0;
  for (int pi = from_page; pi < doc->npages; pi++)
    for (int i = 0; i < doc->pages[pi]->nitems; i++) {
      const cb_item *it = &doc->pages[pi]->items[i];
      /* a run followed by more on its line ends with the space between them */
      size_t len = strlen(text);
      if (it->kind == CB_ITEM_TEXT && it->font == font && strncmp(it->text, text, len) == 0 &&
          (it->text[len] == '\0' || strcmp(it->text + len, " ") == 0))
        n++;
    }
  return n;
}

static int has_text_containing(const cb_document *doc, int page, const char *needle) {
  for (int i = 0; i < doc->pages[page]->nitems; i++) {
    const cb_item *it = &doc->pages[page]->items[i];
    if (it->kind == CB_ITEM_TEXT && strstr(it->text, needle)) return 1;
  }
  return 0;
}

static void lay_out(const cb_dungeon *d, cb_document *doc) {
  cb_sheet_options so = {.page_w = A4_W, .page_h = A4_H, .margin = MARGIN, .version = "9.9.9"};
  cb_proc_sheet(d, &so);
  cb_error err = {0};
  if (cb_sheet_layout(d, &fake_measure, &so, doc, &err) != CB_OK) fail_msg("layout: %s", err.msg);
}

static void rooms_1_to_200_stay_inside(void **state) {
  (void)state;
  /* every size to 60 (the legible range), then every third (the suite's time) */
  for (int n = 1; n <= 200; n += n < 60 ? 1 : 3) {
    cb_dropdice_options own = {.extra_by = n % 2 ? CB_EXTRA_BY_TREE : CB_EXTRA_BY_LENGTH};
    cb_gen_options o = {.own = &own};
    o.seed = 1000 + (uint64_t)n;
    o.rooms = n;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
    cb_document doc = {0};
    lay_out(d, &doc);
    char what[32];
    snprintf(what, sizeof what, "%d rooms", n);
    check_inside(&doc, what);
    assert_true(doc.npages >= 1);
    /* every room's key entry starts with its number in bold (the map's numbers are bold too) */
    for (int i = 0; i < n; i++) {
      char num[16];
      snprintf(num, sizeof num, "%d", d->rooms[i].number);
      if (count_text(&doc, 0, num, CB_FONT_BOLD) < 2) fail_msg("%d rooms: room %s has no key entry", n, num);
    }
    /* every page has the footer that makes it again */
    for (int pi = 0; pi < doc.npages; pi++) {
      char pageof[32];
      snprintf(pageof, sizeof pageof, "page %d of %d", pi + 1, doc.npages);
      assert_true(has_text_containing(&doc, pi, pageof));
      assert_true(has_text_containing(&doc, pi, "--seed"));
    }
    if (n == 200) assert_true(doc.npages > 1);
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
}

/* A hand-made dungeon whose key cannot fit on one page. */
static void a_long_key_continues(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 5);
  cb_dungeon_add_level(d, 1, "Level 1");
  cb_dungeon_set_title(d, "A Long Key");
  enum { N = 40 };
  for (int i = 0; i < N; i++) {
    cb_room *r = cb_dungeon_add_room(d, 1, (i % 8) * 20.0, (i / 8) * 20.0);
    r->value = 1 + i % 6;
    char text[2000];
    int n = snprintf(text, sizeof text, "Marker%03d", i + 1);
    for (int w = 0; w < 90; w++)
      n += snprintf(text + n, sizeof text - (size_t)n, " word%d", w);
    r->text = cb_arena_strdup(d->arena, text);
  }
  for (int i = 1; i < N; i++)
    cb_dungeon_add_passage(d, i, i + 1, CB_PASSAGE_CORRIDOR);
  cb_document doc = {0};
  lay_out(d, &doc);
  check_inside(&doc, "long key");
  assert_true(doc.npages >= 3);
  for (int pi = 1; pi < doc.npages; pi++)
    assert_true(has_text_containing(&doc, pi, "Room key (continued)"));
  /* each entry once, in order, none lost between pages */
  int last_page = 0;
  for (int i = 0; i < N; i++) {
    char marker[32];
    snprintf(marker, sizeof marker, "Marker%03d", i + 1);
    int found = -1, times = 0;
    for (int pi = 0; pi < doc.npages; pi++)
      for (int k = 0; k < doc.pages[pi]->nitems; k++) {
        const cb_item *it = &doc.pages[pi]->items[k];
        if (it->kind == CB_ITEM_TEXT && strstr(it->text, marker)) found = pi, times++;
      }
    if (times != 1) fail_msg("%s drawn %d times", marker, times);
    assert_true(found >= last_page);
    last_page = found;
  }
  assert_int_equal(last_page, doc.npages - 1);
  cb_document_free(&doc);
  cb_dungeon_free(d);
}

/* The longest titles --title takes (200 bytes), with and without spaces. */
static void long_titles_stay_inside(void **state) {
  (void)state;
  char words[201], one[201];
  for (int i = 0; i < 200; i++)
    words[i] = i % 9 == 8 ? ' ' : 'W', one[i] = 'W';
  words[200] = one[200] = '\0';
  const char *titles[] = {words, one};
  for (int t = 0; t < 2; t++) {
    cb_gen_options o = {0};
    o.seed = 3;
    o.rooms = 30;
    o.title = titles[t];
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
    cb_dungeon_set_option(d, "title", titles[t], false);
    cb_document doc = {0};
    lay_out(d, &doc);
    check_inside(&doc, t ? "a 200-byte title without spaces" : "a 200-byte title");
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
}

/* Issue 25, item 4: a title longer than any --title (a theme's, 600 bytes of
 * e acutes) reaches the footer whole, never cut inside a character (a 512-byte
 * buffer once did), and no text on the page is invalid UTF-8. */
static void a_long_accented_title_stays_whole(void **state) {
  (void)state;
  char title[601];
  for (int i = 0; i < 300; i++)
    memcpy(title + 2 * i, "\xc3\xa9", 2);
  title[600] = '\0';
  cb_gen_options o = {0};
  o.seed = 3;
  o.rooms = 12;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
  assert_int_equal(cb_dungeon_set_title(d, title), 0);
  cb_document doc = {0};
  lay_out(d, &doc);
  for (int pi = 0; pi < doc.npages; pi++)
    for (int i = 0; i < doc.pages[pi]->nitems; i++) {
      const cb_item *it = &doc.pages[pi]->items[i];
      if (it->kind == CB_ITEM_TEXT && !cb_utf8_valid(it->text)) fail_msg("invalid UTF-8: '%.60s'", it->text);
    }
  char head[700];
  snprintf(head, sizeof head, "%s \xc2\xb7 crawlbook 9.9.9 \xc2\xb7 dropdice \xc2\xb7 seed 3", title);
  assert_true(has_text_containing(&doc, 0, head));
  cb_document_free(&doc);
  cb_dungeon_free(d);
}

static void the_command_line(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 18446744073709551615ull);
  cb_dungeon_set_option(d, "rooms", "12", true);
  cb_dungeon_set_option(d, "title", "It's a \"trap\"", false);
  cb_dungeon_set_flag(d, "faithful");
  char buf[512];
  cb_sheet_command(d, d->seed, buf, sizeof buf);
  assert_string_equal(buf, "crawlbook --generator dropdice --seed 18446744073709551615 --rooms 12 --title "
                           "'It'\\''s a \"trap\"' --faithful");
  char tiny[20];
  cb_sheet_command(d, d->seed, tiny, sizeof tiny); /* cut short, still a string */
  assert_int_equal(strlen(tiny), sizeof tiny - 1);
  cb_dungeon_free(d);
}

/* A batch counts its dungeons' pages with count_only (a booklet's maps
 * skipped) before it draws them: every layout must come to the same number of
 * pages both ways. */
static int pages_of(const cb_dungeon *d, const cb_dungeon *view, int layout, bool count_only) {
  cb_sheet_options so = {.page_w = A4_W,
                         .page_h = A4_H,
                         .margin = MARGIN,
                         .version = "9.9.9",
                         .pad_to = 4,
                         .sections = ~0u,
                         .appendix = layout == 1,
                         .count_only = count_only};
  cb_proc_sheet(d, &so);
  cb_document doc = {0};
  cb_error err = {0};
  cb_status st;
  if (layout == 0)
    st = cb_sheet_layout(d, &fake_measure, &so, &doc, &err);
  else if (layout == 1)
    st = cb_booklet_layout(d, view, &fake_measure, &so, &doc, &err);
  else if (layout == 2)
    so.page_w = A4_H, so.page_h = A4_W, st = cb_zine_layout(d, &fake_measure, &so, &doc, &err);
  else
    so.player = true, st = cb_sheet_layout(view, &fake_measure, &so, &doc, &err);
  int n = st == CB_OK ? doc.npages : -1; /* a zine refuses a key too long for it: both ways */
  cb_document_free(&doc);
  return n;
}

static void counting_pages_skips_nothing_that_counts(void **state) {
  (void)state;
  const char *gens[] = {"dropdice", "cards", "leximorph", "preconnect", "battleships"};
  int fitted = 0;
  for (size_t g = 0; g < sizeof gens / sizeof *gens; g++)
    for (int seed = 1; seed <= 20; seed++) { /* 100 layouts: the suite's time (12 min) holds it to 20 seeds */
      cb_gen_options o = {0};
      o.seed = (uint64_t)seed;
      if (strcmp(gens[g], "dropdice") == 0 || strcmp(gens[g], "preconnect") == 0) o.rooms = 5 + seed * 2;
      if (strcmp(gens[g], "battleships") == 0) o.levels = 1 + seed % 4;
      cb_dungeon *d = NULL;
      cb_error err = {0};
      if (cb_generator_run(cb_generator_find(gens[g]), &o, &d, &err) != CB_OK)
        fail_msg("%s: %s", gens[g], err.msg);
      cb_dungeon *view = cb_player_view(d);
      assert_non_null(view);
      /* one of the four layouts a seed, in turn: each layout gets 5 seeds of every generator */
      int layout = seed % 4;
      int full = pages_of(d, view, layout, false), counted = pages_of(d, view, layout, true);
      fitted += full > 0;
      if (full != counted)
        fail_msg("%s seed %d layout %d: %d pages drawn, %d counted", gens[g], seed, layout, full, counted);
      cb_dungeon_free(view);
      cb_dungeon_free(d);
    }
  assert_true(fitted > 87); /* most of the 100 layouts are laid out, not refused */
}

/* Two documents with the same pages: every item where the other has it. */
static void same_pages(const cb_document *a, const cb_document *b, const char *what) {
  if (a->npages != b->npages) fail_msg("%s: %d pages, then %d", what, a->npages, b->npages);
  for (int i = 0; i < a->npages; i++) {
    const cb_page *p = a->pages[i], *q = b->pages[i];
    if (p->nitems != q->nitems || p->nops != q->nops)
      fail_msg("%s: page %d differs in its items", what, i + 1);
    for (int k = 0; k < p->nitems; k++) {
      const cb_item *x = &p->items[k], *y = &q->items[k];
      if (x->kind != y->kind || x->x != y->x || x->y != y->y || x->size != y->size ||
          (x->text && strcmp(x->text, y->text)))
        fail_msg("%s: page %d, item %d differs", what, i + 1, k);
    }
    for (int k = 0; k < p->nops; k++) {
      const cb_op *x = &p->ops[k], *y = &q->ops[k];
      if (x->kind != y->kind || memcmp(x->x, y->x, sizeof x->x) || memcmp(x->y, y->y, sizeof x->y))
        fail_msg("%s: page %d, op %d differs", what, i + 1, k);
    }
  }
}

static cb_dungeon *made(const char *gen, uint64_t seed) {
  cb_gen_options o = {0};
  o.seed = seed;
  if (strcmp(gen, "dropdice") == 0 || strcmp(gen, "preconnect") == 0) o.rooms = 20 + (int)seed % 15;
  if (strcmp(gen, "battleships") == 0) o.levels = 1 + (int)seed % 3;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(cb_generator_find(gen), &o, &d, &err) != CB_OK) fail_msg("%s: %s", gen, err.msg);
  return d;
}

/* A batch counts a dungeon's pages, makes it again and draws it, the second
 * layout taking over what fitting found in the first (cb_sheet_options.again):
 * the pages are those of a layout on its own, for maps that shrink (rooms
 * enough to crowd the sheet) and maps that do not. */
static void a_second_layout_reuses_the_first(void **state) {
  (void)state;
  const char *gens[] = {"dropdice", "cards", "leximorph", "preconnect", "battleships"};
  for (size_t g = 0; g < sizeof gens / sizeof *gens; g++)
    for (uint64_t seed = 1; seed <= 8; seed++) {
      cb_sheet_options so = {.page_w = A4_W, .page_h = A4_H, .margin = MARGIN, .version = "9.9.9"};
      cb_dungeon *d = made(gens[g], seed), *again = made(gens[g], seed);
      cb_proc_sheet(d, &so);
      cb_document alone = {0}, counted = {0}, drawn = {0};
      cb_error err = {0};
      assert_int_equal(cb_sheet_layout(d, &fake_measure, &so, &alone, &err), CB_OK);
      cb_sheet_memo *memo = cb_sheet_memo_new();
      assert_non_null(memo);
      cb_sheet_options count = so, draw = so;
      count.count_only = true, count.again = memo, draw.again = memo;
      assert_int_equal(cb_sheet_layout(d, &fake_measure, &count, &counted, &err), CB_OK);
      cb_dungeon_free(d); /* the drawing's dungeon is another, made again */
      assert_int_equal(cb_sheet_layout(again, &fake_measure, &draw, &drawn, &err), CB_OK);
      char what[64];
      snprintf(what, sizeof what, "%s seed %d", gens[g], (int)seed);
      same_pages(&alone, &drawn, what);
      assert_int_equal(counted.npages, alone.npages);
      cb_sheet_memo_free(memo);
      cb_document_free(&alone);
      cb_document_free(&counted);
      cb_document_free(&drawn);
      cb_dungeon_free(again);
    }
}

/* A room whose text is taller than a whole column (a hand-edited JSON can
 * hold 4,096 bytes): it runs on into the next column and page, every word
 * drawn once, in order, inside the margins. */
static void an_entry_taller_than_a_column_runs_on(void **state) {
  (void)state;
  for (int run = 0; run < 4; run++) {
    /* portrait and landscape (whose first key column is narrower than the
     * pages after it), the long room first or third */
    int layout = run % 2, longest = run < 2 ? 2 : 0;
    cb_dungeon *d = cb_dungeon_new("dropdice", 9);
    cb_dungeon_add_level(d, 1, "Level 1");
    cb_dungeon_set_title(d, "A Very Long Room");
    enum { N = 6, WORDS = 640 }; /* 3,839 bytes: the most JSON allows is 4,096 */
    for (int i = 0; i < N; i++)
      cb_dungeon_add_room(d, 1, i * 30.0, (i % 2) * 30.0);
    for (int i = 1; i < N; i++)
      cb_dungeon_add_passage(d, i, i + 1, CB_PASSAGE_CORRIDOR);
    static char text[WORDS * 6 + 1];
    int n = 0;
    for (int k = 0; k < WORDS; k++)
      n += snprintf(text + n, sizeof text - (size_t)n, "%sw%04d", k ? " " : "", k);
    d->rooms[longest].text = cb_arena_strdup(d->arena, text);
    cb_sheet_options so = {
        .page_w = layout ? A4_H : A4_W, .page_h = layout ? A4_W : A4_H, .margin = MARGIN, .version = "9.9.9"};
    cb_document doc = {0};
    cb_error err = {0};
    assert_int_equal(cb_sheet_layout(d, &fake_measure, &so, &doc, &err), CB_OK);
    if (!layout) check_inside(&doc, "a 3,839-byte room text");
    /* every word once, in reading order (page, then column, then line), over more than one column */
    int next = 0, columns = 0, column_page[32];
    double column_x[32];
    for (int pi = 0; pi < doc.npages; pi++)
      for (int i = 0; i < doc.pages[pi]->nitems; i++) {
        const cb_item *it = &doc.pages[pi]->items[i];
        if (it->kind != CB_ITEM_TEXT) continue;
        int known = !strstr(it->text, "w0");
        for (int k = 0; k < columns && !known; k++)
          known = column_page[k] == pi && fabs(column_x[k] - it->x) < 40;
        if (!known && columns < 32) column_page[columns] = pi, column_x[columns++] = it->x;
        for (const char *w = strstr(it->text, "w"); w; w = strstr(w + 1, " w")) {
          int k;
          if (sscanf(*w == ' ' ? w + 1 : w, "w%4d", &k) != 1) continue;
          if (k != next) fail_msg("run %d page %d: word %d where %d was due", run, pi + 1, k, next);
          next++;
        }
      }
    assert_int_equal(next, WORDS);
    assert_true(columns >= 2);
    /* the rooms after it are all there too */
    assert_int_equal(count_text(&doc, 0, "6", CB_FONT_BOLD) >= 1, 1);
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
}

/* Text items of page p that overlap: the first pair, by index into *a, *b. */
static bool texts_overlap(const cb_page *p, int *a, int *b) {
  for (int i = 0; i < p->nitems; i++)
    for (int j = i + 1; j < p->nitems; j++) {
      const cb_item *x = &p->items[i], *y = &p->items[j];
      if (x->kind != CB_ITEM_TEXT || y->kind != CB_ITEM_TEXT) continue;
      double xw = fake_width(NULL, x->font, x->size, x->text),
             yw = fake_width(NULL, y->font, y->size, y->text);
      if (x->x < y->x + yw && y->x < x->x + xw && x->y - x->size * 0.8 < y->y &&
          y->y - y->size * 0.8 < x->y) {
        *a = i, *b = j;
        return true;
      }
    }
  return false;
}

/* The booklet's handout on a small page: its notes start on a page of their
 * own when not a room's line fits under the map, never under the footer
 * (at 90 x 90 mm the "Notes" heading sat on the footer and the first row of
 * notes below it, off the page's body). */
static void small_handouts_keep_their_notes_on_the_page(void **state) {
  (void)state;
  const double side = 90 / 25.4 * 72, margin = 8 * CB_PT_PER_MM;
  for (int seed = 1; seed <= 6; seed++) {
    cb_gen_options o = {.seed = (uint64_t)seed};
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
    cb_dungeon *view = cb_player_view(d);
    assert_non_null(view);
    cb_sheet_options so = {
        .page_w = side, .page_h = side, .margin = margin, .version = "9.9.9", .pad_to = 4, .sections = ~0u};
    cb_proc_sheet(d, &so);
    cb_document doc = {0};
    if (cb_booklet_layout(d, view, &fake_measure, &so, &doc, &err) != CB_OK)
      fail_msg("seed %d: %s", seed, err.msg);
    int handout = -1;
    for (int pi = 0; pi < doc.npages; pi++) {
      const cb_page *p = doc.pages[pi];
      int a, b;
      if (handout < 0 && has_text_containing(&doc, pi, "players' map")) handout = pi;
      if (handout < 0 || pi > handout + 1) continue;
      if (texts_overlap(p, &a, &b))
        fail_msg("seed %d page %d: '%.30s' and '%.30s' overlap", seed, pi + 1, p->items[a].text,
                 p->items[b].text);
      for (int i = 0; i < p->nitems; i++)
        if (p->items[i].kind == CB_ITEM_TEXT && p->items[i].y > side - margin + EPS)
          fail_msg("seed %d page %d: '%.30s' below the margin", seed, pi + 1, p->items[i].text);
    }
    /* the notes start under the map, or else as "Notes" on the page after it, not "continued" */
    assert_true(handout >= 0 && handout + 1 < doc.npages);
    const cb_page *h = doc.pages[handout], *next = doc.pages[handout + 1];
    bool under = false, after = false;
    for (int i = 0; i < h->nitems; i++)
      under |= h->items[i].kind == CB_ITEM_TEXT && strcmp(h->items[i].text, "Notes") == 0;
    for (int i = 0; i < next->nitems; i++)
      after |= next->items[i].kind == CB_ITEM_TEXT && strcmp(next->items[i].text, "Notes") == 0;
    assert_true(under != after);
    cb_document_free(&doc);
    cb_dungeon_free(view);
    cb_dungeon_free(d);
  }
}

int main(void) {
  struct CMUnitTest tests[] = {
      cmocka_unit_test(rooms_1_to_200_stay_inside),
      cmocka_unit_test(a_long_key_continues),
      cmocka_unit_test(an_entry_taller_than_a_column_runs_on),
      cmocka_unit_test(long_titles_stay_inside),
      cmocka_unit_test(the_command_line),
      cmocka_unit_test(a_long_accented_title_stays_whole),
      cmocka_unit_test(counting_pages_skips_nothing_that_counts),
      cmocka_unit_test(a_second_layout_reuses_the_first),
      cmocka_unit_test(small_handouts_keep_their_notes_on_the_page),
  };
  /* CB_TEST_ONLY=NAME runs that test alone (cmocka's pattern) */
  return cb_test_run("test_sheet", tests, sizeof tests / sizeof *tests, NULL, NULL);
}
