/* The one-sheet mini zine: eight panels imposed for the one-slit fold. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "impose.h"
#include "key.h"
#include "levels.h"
#include "parts.h"

static const cb_rgb INK = CB_INK_BLACK, PAPER = CB_PAPER_WHITE, GREY = CB_QUIET_GREY;

/* What every panel draws with: panels pw x ph, their contents in x, top, w, h. */
typedef struct zine {
  const cb_dungeon *d;
  const cb_measure *m;
  const cb_sheet_options *o;
  const cb_layout_hooks *hooks;
  const cb_symbols *st;
  const cb_key_style *ks;
  double x, top, w, h, body;
  cb_page **P; /* the eight panels */
} zine;

/* 1: the cover, its title, subtitle and the first level's map. */
static void cover(const zine *z, cb_symbol_set *used) {
  const cb_measure *m = z->m;
  const cb_dungeon *d = z->d;
  double x = z->x, w = z->w, top = z->top, h = z->h;
  const char *title = d->title ? d->title : "Dungeon";
  double size = cb_part_fit_size(m, CB_FONT_BOLD, 15, title, w);
  cb_flow tf = {m, size, size * 1.15, w, INK, NULL, NULL};
  cb_span ts[] = {{CB_FONT_BOLD, title, NULL, 0}};
  int tl = 0, sl = 0; /* out of memory marks the page */
  cb_text_flow(z->P[0], &tf, ts, 1, x, top + size, &tl, NULL);
  char sub[256];
  cb_part_describe(d, z->o, sub, sizeof sub);
  cb_flow sf = {m, 7, 8.5, w, GREY, NULL, NULL};
  cb_span ss[] = {{CB_FONT_ITALIC, sub, NULL, 0}};
  double y = top + size * (1 + 1.15 * (tl - 1)) + 10;
  cb_text_flow(z->P[0], &sf, ss, 1, x, y, &sl, NULL);
  y += sl * 8.5 + 4;
  int level = d->nlevels > 1 ? d->levels[0].id : 0;
  cb_level_map(z->P[0], z->st, d, &z->hooks->map, z->o, level, x, y, w, top + h - y - 12, used);
  cb_page_text(z->P[0], CB_FONT_ITALIC, 7, x, top + h - 5, GREY,
               "A crawlbook zine"); /* its descenders inside too */
}

/* 2: the map, every level. */
static void map(const zine *z, cb_symbol_set *used) {
  double x = z->x, top = z->top;
  cb_page_text(z->P[1], CB_FONT_BOLD, 10, x, top + 10, INK, "Map");
  cb_page_rect(z->P[1], x, top + 15, z->w, z->h - 15);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.4);
  cb_page_ink(z->P[1], &frame_ink);
  cb_levels_draw(z->P[1], z->st, z->d, &z->hooks->map, z->o, x, top + 15, z->w, z->h - 15, used);
}

/* A panel the key left free: lines for notes. */
static void notes(cb_page *p, const zine *z) {
  double x = z->x, top = z->top;
  cb_page_text(p, CB_FONT_BOLD, 10, x, top + 10, INK, "Notes");
  cb_ink rule = cb_ink_stroke(GREY, 0.3);
  for (double ly = top + 30; ly < top + z->h; ly += 14) {
    cb_page_move(p, x, ly);
    cb_page_line(p, x + z->w, ly);
    cb_page_ink(p, &rule);
  }
}

/* 3-7: the key, then notes; CB_EINPUT when it needs more than five panels. */
static cb_status key(const zine *z, cb_error *err) {
  const cb_dungeon *d = z->d;
  double x = z->x, top = z->top;
  int next = 0, word = 0, total = d->nrooms + z->ks->extras;
  cb_status st = CB_OK;
  for (int i = 2; i < 7 && st == CB_OK; i++) {
    double ky = top;
    if (next >= total) {
      notes(z->P[i], z);
      continue;
    }
    if (i == 2) {
      cb_page_text(z->P[i], CB_FONT_BOLD, 10, x, top + 10, INK, "Room key");
      ky += 15;
    }
    /* descenders inside */
    st =
        cb_key_fill(z->P[i], z->ks, d, &next, &word, x, ky, z->w, top + z->h - ky - z->body * 0.3, 1, 0, err);
  }
  if (st != CB_OK || next >= total) return st;
  return cb_error_set(err, CB_EINPUT,
                      "the room key of %d rooms does not fit the zine's five key panels (%s%d "
                      "is the first left over): use fewer rooms or --template booklet",
                      d->nrooms, next < d->nrooms ? "room " : "the hook, roster and wandering table; entry ",
                      next < d->nrooms ? d->rooms[next].number : next - d->nrooms + 1);
}

/* 8: the back cover: the legend, and how to make it again. */
static void back(const zine *z, cb_symbol_set used) {
  const cb_dungeon *d = z->d;
  cb_page *p = z->P[7];
  double x = z->x, top = z->top, h = z->h;
  cb_page_text(p, CB_FONT_BOLD, 10, x, top + 10, INK, "Legend");
  double ly = top + 18;
  for (int s = 0; s < CB_SYM_COUNT; s++) {
    if (!(used & CB_SYMBOL_BIT(s)) || ly > top + h * 0.62) continue;
    const char *sample = s == CB_SYM_KEY ? "K1" : s == CB_SYM_STAIRS_AWAY ? "L2" : NULL;
    if (cb_symbol_is_badge((cb_symbol)s))
      cb_symbol_badge(p, z->st, (cb_symbol)s, sample, x + 10, ly);
    else
      cb_symbol_passage(p, z->st, (cb_symbol)s, x, ly, x + 22, ly);
    cb_page_text(p, CB_FONT_REGULAR, 7, x + 27, ly + 2.4, INK, cb_symbol_name((cb_symbol)s));
    ly += z->st->badge * 1.35;
  }
  char *cmd = cb_part_command(d, z->o);
  if (!cmd) p->oom = true;
  cb_span cs[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0},
                  {CB_FONT_REGULAR, cmd ? cmd : "", NULL, 0}};
  cb_flow cf = cb_part_footer_flow(z->m, cmd ? cmd : "", z->w);
  cf.size = fmin(cf.size, 7), cf.leading = cf.size * 1.25;
  int cl = 1;
  if (cb_text_flow(NULL, &cf, cs, 2, 0, 0, &cl, NULL) != CB_OK) p->oom = true;
  cb_text_flow(p, &cf, cs, 2, x, top + h - (cl - 1) * cf.leading - cf.size * 0.45, NULL, NULL);
  free(cmd);
  char credit[128];
  snprintf(credit, sizeof credit, "crawlbook %s \xc2\xb7 %s \xc2\xb7 seed %" PRIu64, z->o->version,
           d->generator, d->seed);
  cb_page_text(p, CB_FONT_REGULAR, 7, x, top + h - cl * cf.leading - 2, GREY, credit);
}

/* The eight panels drawn; CB_EINPUT when the key does not fit. */
static cb_status panels_draw(const zine *z, cb_error *err) {
  cb_symbol_set used = 0;
  cover(z, &used);
  map(z, &used);
  cb_status st = key(z, err);
  if (st != CB_OK) return st;
  back(z, used);
  for (int i = 0; i < 8; i++)
    if (z->P[i]->oom) return cb_error_oom(err);
  return CB_OK;
}

cb_status cb_zine_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err) {
  /* every panel keeps 6 mm from the sheet's edge (many printers print no
   * closer), and a little more for a line that runs to its measure */
  const double pw = o->page_w / 4, ph = o->page_h / 2, margin = 6.3 * CB_PT_PER_MM, body = 7.6;
  cb_sheet_options po = *o;
  po.page_w = pw, po.page_h = ph, po.margin = margin;
  cb_symbols marks = {m, 8.5, 0.8, 7, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room};
  cb_symbols key_marks = marks;
  key_marks.badge = body * 1.1;
  key_marks.line = 0.7;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  cb_key_style ks = {m, body, body * 1.28, body * 0.4, INK, &key_marks, hooks->key_note};
  ks.extras = cb_key_extras(d); /* the hook, roster and wandering table before any Notes panel */
  cb_document panels = {0};
  for (int i = 0; i < 8; i++)
    if (!cb_part_new_page(&panels, &po, i == 0 ? (d->title ? d->title : "Dungeon") : NULL)) {
      cb_document_free(&panels);
      return cb_error_oom(err);
    }
  zine z = {d,    m,           o, hooks, &marks, &ks, margin, margin, pw - 2 * margin, ph - 2 * margin,
            body, panels.pages};
  cb_status st = panels_draw(&z, err);
  if (st == CB_OK) st = cb_impose_zine8(&panels, o->page_w, o->page_h, doc, err);
  cb_document_free(&panels);
  return st;
}
