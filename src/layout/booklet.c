/* The booklet (booklet.md): cover, maps, key, the procedure's extras,
 * appendix, the players' map and notes pages. */
#include <math.h>
#include <stdio.h>

#include "key.h"
#include "levels.h"
#include "parts.h"
#include "template.h"

static const cb_rgb INK = CB_INK_BLACK, PAPER = CB_PAPER_WHITE, GREY = CB_QUIET_GREY;

/* A page with a heading and, below it, the map box, its legend at the bottom. */
static void map_page(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                     const cb_sheet_options *o, int level, const cb_frame *f, const char *heading,
                     double bottom_reserve) {
  cb_page_text(p, CB_FONT_BOLD, 13, f->x, f->y + 13, INK, heading);
  double y = f->y + 13 * 1.6, h = f->h - (y - f->y) - st->badge * 3.2 - 10 - bottom_reserve;
  cb_page_rect(p, f->x, y, f->w, h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  cb_symbol_set used = 0;
  cb_level_map(p, st, d, dr, o, level, f->x + 4, y + 4, f->w - 8, h - 8, &used);
  cb_part_legend(p, st, used, f->x, y + h + 6, f->w);
}

/* The cover's few lines: the hook's first sentence, centred; its height. */
static double cover_hook(cb_page *p, const cb_measure *m, const cb_dungeon *d, double x, double y, double w) {
  if (!d->hook[0]) return 0;
  cb_flow f = {m, 11, 11 * 1.4, w, INK, NULL, NULL};
  cb_span s[] = {{CB_FONT_ITALIC, d->hook[0], NULL, 0}};
  int n = cb_text_flow(p, &f, s, 1, x, y);
  return n > 0 ? n * f.leading + CB_SUB_SIZE * 2 : 0;
}

cb_status cb_booklet_layout(const cb_dungeon *d, const cb_dungeon *players, const cb_measure *m,
                            const cb_sheet_options *o, cb_document *doc, cb_error *err) {
  double x = o->margin, w = o->page_w - 2 * o->margin, top = o->margin, fh = 0;
  cb_status fst = cb_part_footer_height(m, d, o, w, &fh, err);
  if (fst != CB_OK) return fst;
  cb_frame f = {x, top, w, o->page_h - o->margin - fh - top};
  cb_symbols st = {
      m, 10.5, 1.0, 7.5, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room, o->graphs};
  cb_symbols key_marks = st;
  key_marks.badge = CB_BODY_SIZE * 1.1;
  key_marks.line = 0.8;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  cb_key_style ks = {m,   CB_BODY_SIZE, CB_BODY_SIZE * 1.32, CB_BODY_SIZE * 0.45,
                     INK, &key_marks,   hooks->key_note};
  ks.full = true;
  ks.extras = cb_key_extras_full(d);
  ks.extras_first = true; /* the hook, roster and wandering table before the key */
  int first = doc->npages;
  const char *title = d->title ? d->title : "Dungeon";
  cb_page *p;
#define PAGE(label)                                                                                          \
  do {                                                                                                       \
    if (!(p = cb_part_new_page(doc, o, label))) return cb_error_oom(err);                                    \
  } while (0)
  if (o->sections & CB_SECTION_COVER) {
    PAGE(title);
    double size = cb_part_fit_size(m, CB_FONT_BOLD, 26, title, w), y = top + f.h * 0.12;
    cb_page_text(p, CB_FONT_BOLD, size, x + (w - cb_text_width(m, CB_FONT_BOLD, size, title)) / 2, y, INK,
                 title);
    char sub[256];
    cb_part_describe(d, o, sub, sizeof sub);
    double sw = cb_text_width(m, CB_FONT_ITALIC, CB_SUB_SIZE, sub);
    cb_page_text(p, CB_FONT_ITALIC, CB_SUB_SIZE, x + (w - fmin(sw, w)) / 2, y + CB_SUB_SIZE * 2.2, GREY, sub);
    /* the situation in a few lines, and nothing a player must not see: no map */
    double mh = cover_hook(p, m, d, x + w * 0.08, y + CB_SUB_SIZE * 5, w * 0.84), my = y + CB_SUB_SIZE * 4;
    const char *made = "A crawlbook dungeon";
    cb_page_text(p, CB_FONT_ITALIC, CB_SUB_SIZE,
                 x + (w - cb_text_width(m, CB_FONT_ITALIC, CB_SUB_SIZE, made)) / 2,
                 my + mh + CB_SUB_SIZE * 2.5, GREY, made);
  }
  if (o->sections & CB_SECTION_MAPS) {
    int n = d->nlevels > 1 ? d->nlevels : 1;
    for (int i = 0; i < n; i++) {
      char heading[240];
      snprintf(heading, sizeof heading, n > 1 ? "Map \xc2\xb7 %s" : "Map", n > 1 ? d->levels[i].name : "");
      PAGE(i == 0 ? "Map" : NULL);
      map_page(p, &st, d, &hooks->map, o, n > 1 ? d->levels[i].id : 0, &f, heading, 0);
    }
  }
  if (o->sections & CB_SECTION_KEY) {
    int next = 0, word = 0;
    for (int k = 0; next >= 0 && next < d->nrooms + ks.extras; k++) {
      PAGE(k == 0 ? "Room key" : NULL);
      cb_page_text(p, CB_FONT_BOLD, 13, x, top + 13, INK, k == 0 ? "Room key" : "Room key (continued)");
      double ky = top + 13 * 1.6;
      next = cb_key_fill_balanced(p, &ks, d, next, &word, x, ky, w, f.h - (ky - top), w > 330 ? 2 : 1, 12);
    }
    if (next < 0) return cb_error_oom(err);
  }
  if ((o->sections & CB_SECTION_EXTRAS) && hooks->extra_pages) {
    int before = doc->npages;
    cb_status s2 = hooks->extra_pages(d, &st, &f, doc, err);
    if (s2 != CB_OK) return s2;
    if (doc->npages > before && !doc->pages[before]->label &&
        !(doc->pages[before]->label = cb_arena_strdup(doc->pages[before]->arena, "More")))
      doc->pages[before]->oom = true;
  }
  if (o->sections & CB_SECTION_APPENDIX) {
    cb_status s2 = cb_part_appendix(d, m, o, &f, doc, err);
    if (s2 != CB_OK) return s2;
  }
  int handout_from = doc->npages, handout_to = doc->npages;
  if ((o->sections & CB_SECTION_PLAYER_MAP) && players) {
    /* the handout, page for page as --player-map lays it out */
    cb_sheet_options sheet_o = *o;
    sheet_o.player = sheet_o.in_booklet = true, sheet_o.appendix = false;
    cb_status s2 = cb_sheet_pages(players, m, &sheet_o, doc, err);
    if (s2 != CB_OK) return s2;
    p = doc->pages[handout_from];
    if (!(p->label = cb_arena_strdup(p->arena, "Players' map"))) p->oom = true;
    handout_to = doc->npages;
  }
  if (doc->npages == first)
    return cb_error_set(err, CB_EINPUT,
                        "the template's sections give this %s dungeon no pages: name cover, maps "
                        "or key too",
                        d->generator);
  while (o->pad_to > 1 && (doc->npages - first) % o->pad_to) {
    PAGE(NULL);
    cb_page_text(p, CB_FONT_BOLD, 11, x, top + 11, INK, "Notes");
    cb_ink rule = cb_ink_stroke(GREY, 0.35);
    for (double y = top + 11 * 1.5 + 18; y < top + f.h; y += 18) {
      cb_page_move(p, x, y);
      cb_page_line(p, x + w, y);
      cb_page_ink(p, &rule);
    }
  }
#undef PAGE
  int pages = doc->npages - first;
  cb_sheet_options handout = *o;
  handout.player = true;
  /* the cover carries no footer; a handout's names no seed or command */
  for (int i = (o->sections & CB_SECTION_COVER) ? 1 : 0; i < pages; i++) {
    bool is_handout = first + i >= handout_from && first + i < handout_to;
    cb_part_footer(doc->pages[first + i], m, d, is_handout ? &handout : o, i + 1, pages, true);
  }
  for (int i = first; i < doc->npages; i++)
    if (doc->pages[i]->oom) return cb_error_oom(err);
  return CB_OK;
}
