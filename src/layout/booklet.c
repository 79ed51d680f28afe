/* The booklet (booklet.md): cover, maps, key, the procedure's extras,
 * appendix, the players' map and notes pages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "key.h"
#include "levels.h"
#include "parts.h"
#include "template.h"

static const cb_rgb INK = CB_INK_BLACK, PAPER = CB_PAPER_WHITE, GREY = CB_QUIET_GREY;
static const double KEY_GUTTER = 12;

/* What every section of the booklet draws with. */
typedef struct booklet {
  const cb_dungeon *d;
  const cb_measure *m;
  const cb_sheet_options *o;
  const cb_layout_hooks *hooks;
  const cb_symbols *st;   /* the maps' marks */
  const cb_key_style *ks; /* the key's long form */
  cb_frame f;             /* inside the margins, above the footer */
  cb_document *doc;
} booklet;

/* A page with a heading and, below it, the map box, its legend at the bottom. */
static void map_page(cb_page *p, const booklet *b, int level, const char *heading) {
  const cb_frame *f = &b->f;
  const cb_symbols *st = b->st;
  cb_page_text(p, CB_FONT_BOLD, 13, f->x, f->y + 13, INK, heading);
  double y = f->y + 13 * 1.6, h = f->h - (y - f->y) - st->badge * 3.2 - 10;
  cb_page_rect(p, f->x, y, f->w, h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  cb_symbol_set used = 0;
  cb_level_map(p, st, b->d, &b->hooks->map, b->o, level, f->x + 4, y + 4, f->w - 8, h - 8, &used);
  cb_part_legend(p, st, used, f->x, y + h + 6, f->w);
}

/* The cover's few lines: the hook's first sentence, centred; its height. */
static double cover_hook(cb_page *p, const cb_measure *m, const cb_dungeon *d, double x, double y, double w) {
  if (!d->hook[0]) return 0;
  cb_flow f = {m, 11, 11 * 1.4, w, INK, NULL, NULL};
  cb_span s[] = {{CB_FONT_ITALIC, d->hook[0], NULL, 0}};
  int n = 0; /* out of memory marks the page */
  cb_text_flow(p, &f, s, 1, x, y, &n, NULL);
  return n > 0 ? n * f.leading + CB_SUB_SIZE * 2 : 0;
}

/* The cover: the title, the subtitle, the situation in a few lines, and
 * nothing a player must not see: no map. */
static cb_status cover(const booklet *b, cb_error *err) {
  const cb_measure *m = b->m;
  const char *title = b->d->title ? b->d->title : "Dungeon";
  double x = b->f.x, w = b->f.w;
  cb_page *p = cb_part_new_page(b->doc, b->o, title);
  if (!p) return cb_error_oom(err);
  double size = cb_part_fit_size(m, CB_FONT_BOLD, 26, title, w), y = b->f.y + b->f.h * 0.12;
  cb_page_text(p, CB_FONT_BOLD, size, x + (w - cb_text_width(m, CB_FONT_BOLD, size, title)) / 2, y, INK,
               title);
  char sub[256];
  cb_part_describe(b->d, b->o, sub, sizeof sub);
  double sw = cb_text_width(m, CB_FONT_ITALIC, CB_SUB_SIZE, sub);
  cb_page_text(p, CB_FONT_ITALIC, CB_SUB_SIZE, x + (w - fmin(sw, w)) / 2, y + CB_SUB_SIZE * 2.2, GREY, sub);
  double mh = cover_hook(p, m, b->d, x + w * 0.08, y + CB_SUB_SIZE * 5, w * 0.84), my = y + CB_SUB_SIZE * 4;
  const char *made = "A crawlbook dungeon";
  cb_page_text(p, CB_FONT_ITALIC, CB_SUB_SIZE,
               x + (w - cb_text_width(m, CB_FONT_ITALIC, CB_SUB_SIZE, made)) / 2, my + mh + CB_SUB_SIZE * 2.5,
               GREY, made);
  return CB_OK;
}

/* The maps: one page per level. */
static cb_status maps(const booklet *b, cb_error *err) {
  const cb_dungeon *d = b->d;
  int n = d->nlevels > 1 ? d->nlevels : 1;
  for (int i = 0; i < n; i++) {
    char heading[240];
    snprintf(heading, sizeof heading, n > 1 ? "Map \xc2\xb7 %s" : "Map", n > 1 ? d->levels[i].name : "");
    cb_page *p = cb_part_new_page(b->doc, b->o, i == 0 ? "Map" : NULL);
    if (!p) return cb_error_oom(err);
    map_page(p, b, n > 1 ? d->levels[i].id : 0, heading);
  }
  return CB_OK;
}

/* The key's pages when each holds at most h: how many into *pages, the
 * room the last begins at and the word it resumes at. */
static cb_status key_pages(const cb_key_style *ks, const cb_dungeon *d, double w, double h, int cols,
                           int *pages, int *last, int *last_word, cb_error *err) {
  int next = 0, word = 0;
  cb_status st = CB_OK;
  *pages = 0;
  while (st == CB_OK && next < d->nrooms + ks->extras) {
    *last = next, *last_word = word;
    st = cb_key_fill(NULL, ks, d, &next, &word, 0, 0, w, h, cols, KEY_GUTTER, err);
    ++*pages;
  }
  return st;
}

/* The key's run for cb_part_third_full. */
typedef struct key_run_of {
  const cb_key_style *ks;
  const cb_dungeon *d;
  double w;
  int cols;
} key_run_of;

static cb_status key_run(void *ctx, double h, int *pages, double *last, cb_error *err) {
  const key_run_of *k = ctx;
  int from = 0, word = 0;
  cb_status st = key_pages(k->ks, k->d, k->w, h, k->cols, pages, &from, &word, err);
  if (st != CB_OK) return st;
  *last = h; /* a last page that resumes inside an entry counts as full */
  return word ? CB_OK : cb_key_height(k->ks, k->d, from, k->w, h, k->cols, KEY_GUTTER, last, err);
}

/* The room key in its long form, over as many pages as it takes, the last
 * at least a third full. */
static cb_status key(const booklet *b, cb_error *err) {
  double x = b->f.x, w = b->f.w, top = b->f.y, ky = top + 13 * 1.6, full = b->f.h - (ky - top);
  int cols = w > 330 ? 2 : 1, next = 0, word = 0;
  cb_key_style ks = *b->ks; /* each entry measured once, for every trial */
  if (!(ks.memo = cb_key_memo_new(b->d))) return cb_error_oom(err);
  double limit = full;
  cb_status st = cb_part_third_full(key_run, &(key_run_of){&ks, b->d, w, cols}, full, &limit, err);
  for (int k = 0; st == CB_OK && next < b->d->nrooms + ks.extras; k++) {
    cb_page *p = cb_part_new_page(b->doc, b->o, k == 0 ? "Room key" : NULL);
    if (!p) st = cb_error_oom(err);
    if (st != CB_OK) break;
    cb_page_text(p, CB_FONT_BOLD, 13, x, top + 13, INK, k == 0 ? "Room key" : "Room key (continued)");
    st = cb_key_fill_balanced(p, &ks, b->d, &next, &word, x, ky, w, limit, cols, KEY_GUTTER, err);
  }
  cb_key_memo_free(ks.memo);
  return st;
}

/* The procedure's own pages, the first labelled "More" unless it names itself. */
static cb_status extras(const booklet *b, cb_error *err) {
  cb_document *doc = b->doc;
  int before = doc->npages;
  cb_status st = b->hooks->extra_pages(b->d, b->st, &b->f, doc, err);
  if (st != CB_OK) return st;
  if (doc->npages > before && !doc->pages[before]->label &&
      !(doc->pages[before]->label = cb_arena_strdup(doc->pages[before]->arena, "More")))
    doc->pages[before]->oom = true;
  return CB_OK;
}

/* The players' map: the one-page sheet of `players`, page for page as
 * --player-map lays it out. */
static cb_status handout(const booklet *b, const cb_dungeon *players, cb_error *err) {
  int from = b->doc->npages;
  cb_sheet_options sheet_o = *b->o;
  sheet_o.player = sheet_o.in_booklet = true, sheet_o.appendix = false;
  cb_status st = cb_sheet_pages(players, b->m, &sheet_o, b->doc, err);
  if (st != CB_OK) return st;
  cb_page *p = b->doc->pages[from];
  if (!(p->label = cb_arena_strdup(p->arena, "Players' map"))) p->oom = true;
  return CB_OK;
}

/* Notes pages until the booklet's pages from `first` on are a multiple of o->pad_to. */
static cb_status notes(const booklet *b, int first, cb_error *err) {
  double x = b->f.x, w = b->f.w, top = b->f.y;
  while (b->o->pad_to > 1 && (b->doc->npages - first) % b->o->pad_to) {
    cb_page *p = cb_part_new_page(b->doc, b->o, NULL);
    if (!p) return cb_error_oom(err);
    cb_page_text(p, CB_FONT_BOLD, 11, x, top + 11, INK, "Notes");
    cb_ink rule = cb_ink_stroke(GREY, 0.35);
    for (double y = top + 11 * 1.5 + 18; y < top + b->f.h; y += 18) {
      cb_page_move(p, x, y);
      cb_page_line(p, x + w, y);
      cb_page_ink(p, &rule);
    }
  }
  return CB_OK;
}

/* The footers: the cover carries none; the handout's (pages from..to) name
 * no seed or command. */
static cb_status footers(const booklet *b, int first, int handout_from, int handout_to, cb_error *err) {
  cb_document *doc = b->doc;
  int pages = doc->npages - first;
  cb_sheet_options players = *b->o;
  players.player = true;
  for (int i = (b->o->sections & CB_SECTION_COVER) ? 1 : 0; i < pages; i++) {
    bool is_handout = first + i >= handout_from && first + i < handout_to;
    cb_part_footer(doc->pages[first + i], b->m, b->d, is_handout ? &players : b->o, i + 1, pages, true);
  }
  for (int i = first; i < doc->npages; i++)
    if (doc->pages[i]->oom) return cb_error_oom(err);
  return CB_OK;
}

/* The sections o->sections names, in the booklet's order, up to the handout. */
static cb_status sections(const booklet *b, cb_error *err) {
  unsigned s = b->o->sections;
  cb_status st = CB_OK;
  if (s & CB_SECTION_COVER) st = cover(b, err);
  if (st == CB_OK && (s & CB_SECTION_MAPS)) st = maps(b, err);
  if (st == CB_OK && (s & CB_SECTION_KEY)) st = key(b, err);
  if (st == CB_OK && (s & CB_SECTION_EXTRAS) && b->hooks->extra_pages) st = extras(b, err);
  if (st == CB_OK && (s & CB_SECTION_APPENDIX)) st = cb_part_appendix(b->d, b->m, b->o, &b->f, b->doc, err);
  return st;
}

cb_status cb_booklet_layout(const cb_dungeon *d, const cb_dungeon *players, const cb_measure *m,
                            const cb_sheet_options *o, cb_document *doc, cb_error *err) {
  double fh = 0;
  cb_status st = cb_part_footer_height(m, d, o, o->page_w - 2 * o->margin, &fh, err);
  if (st != CB_OK) return st;
  cb_symbols marks = {
      m, 10.5, 1.0, 7.5, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room, o->graphs};
  cb_symbols key_marks = marks;
  key_marks.badge = CB_BODY_SIZE * 1.1;
  key_marks.line = 0.8;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  cb_key_style ks = {m,   CB_BODY_SIZE, CB_BODY_SIZE * 1.32, CB_BODY_SIZE * 0.45,
                     INK, &key_marks,   hooks->key_note};
  ks.full = true;
  ks.extras = cb_key_extras_full(d);
  ks.extras_first = true; /* the hook, roster and wandering table before the key */
  booklet b = {d,
               m,
               o,
               hooks,
               &marks,
               &ks,
               {o->margin, o->margin, o->page_w - 2 * o->margin, o->page_h - o->margin - fh - o->margin},
               doc};
  int first = doc->npages;
  st = sections(&b, err);
  int handout_from = doc->npages;
  if (st == CB_OK && (o->sections & CB_SECTION_PLAYER_MAP) && players) st = handout(&b, players, err);
  if (st != CB_OK) return st;
  int handout_to = doc->npages;
  if (doc->npages == first)
    return cb_error_set(err, CB_EINPUT,
                        "the template's sections give this %s dungeon no pages: name cover, maps "
                        "or key too",
                        d->generator);
  st = notes(&b, first, err);
  return st == CB_OK ? footers(&b, first, handout_from, handout_to, err) : st;
}
