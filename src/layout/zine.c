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

cb_status cb_zine_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err) {
  /* every panel keeps 6 mm from the sheet's edge (many printers print no
   * closer), and a little more for a line that runs to its measure */
  const double pw = o->page_w / 4, ph = o->page_h / 2, margin = 6.3 * CB_PT_PER_MM, body = 7.6;
  cb_sheet_options po = *o;
  po.page_w = pw, po.page_h = ph, po.margin = margin;
  double x = margin, w = pw - 2 * margin, top = margin, h = ph - 2 * margin;
  cb_symbols st = {m, 8.5, 0.8, 7, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room};
  cb_symbols key_marks = st;
  key_marks.badge = body * 1.1;
  key_marks.line = 0.7;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  cb_key_style ks = {m, body, body * 1.28, body * 0.4, INK, &key_marks, hooks->key_note};
  ks.extras = cb_key_extras(d); /* the hook, roster and wandering table before any Notes panel */
  int total = d->nrooms + ks.extras;
  const char *title = d->title ? d->title : "Dungeon";
  cb_document panels = {0};
  cb_status st2 = CB_OK;
  cb_symbol_set used = 0;
  for (int i = 0; i < 8; i++)
    if (!cb_part_new_page(&panels, &po, i == 0 ? title : NULL)) {
      cb_document_free(&panels);
      return cb_error_oom(err);
    }
  cb_page **P = panels.pages;
  int level = d->nlevels > 1 ? d->levels[0].id : 0;
  /* 1: the cover */
  double size = cb_part_fit_size(m, CB_FONT_BOLD, 15, title, w);
  cb_flow tf = {m, size, size * 1.15, w, INK, NULL, NULL};
  cb_span ts[] = {{CB_FONT_BOLD, title, NULL, 0}};
  int tl = cb_text_flow(P[0], &tf, ts, 1, x, top + size);
  char sub[256];
  cb_part_describe(d, o, sub, sizeof sub);
  cb_flow sf = {m, 7, 8.5, w, GREY, NULL, NULL};
  cb_span ss[] = {{CB_FONT_ITALIC, sub, NULL, 0}};
  double y = top + size * (1 + 1.15 * (tl - 1)) + 10;
  int sl = cb_text_flow(P[0], &sf, ss, 1, x, y);
  y += sl * 8.5 + 4;
  cb_level_map(P[0], &st, d, &hooks->map, o, level, x, y, w, top + h - y - 12, &used);
  cb_page_text(P[0], CB_FONT_ITALIC, 7, x, top + h - 5, GREY,
               "A crawlbook zine"); /* its descenders inside too */
  /* 2: the map */
  cb_page_text(P[1], CB_FONT_BOLD, 10, x, top + 10, INK, "Map");
  cb_page_rect(P[1], x, top + 15, w, h - 15);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.4);
  cb_page_ink(P[1], &frame_ink);
  cb_levels_draw(P[1], &st, d, &hooks->map, o, x, top + 15, w, h - 15, &used);
  /* 3-7: the key */
  int next = 0, word = 0;
  for (int i = 2; i < 7; i++) {
    double ky = top;
    if (next >= 0 && next >= total) {
      /* a panel the key left free: lines for notes */
      cb_page_text(P[i], CB_FONT_BOLD, 10, x, top + 10, INK, "Notes");
      cb_ink rule = cb_ink_stroke(GREY, 0.3);
      for (double ly = top + 30; ly < top + h; ly += 14) {
        cb_page_move(P[i], x, ly);
        cb_page_line(P[i], x + w, ly);
        cb_page_ink(P[i], &rule);
      }
      continue;
    }
    if (i == 2) {
      cb_page_text(P[i], CB_FONT_BOLD, 10, x, top + 10, INK, "Room key");
      ky += 15;
    }
    if (next >= 0)
      next = cb_key_fill(P[i], &ks, d, next, &word, x, ky, w, top + h - ky - body * 0.3, 1,
                         0); /* descenders inside */
  }
  if (next < 0)
    st2 = cb_error_oom(err);
  else if (next < total)
    st2 = cb_error_set(err, CB_EINPUT,
                       "the room key of %d rooms does not fit the zine's five key panels (%s%d "
                       "is the first left over): use fewer rooms or --template booklet",
                       d->nrooms, next < d->nrooms ? "room " : "the hook, roster and wandering table; entry ",
                       next < d->nrooms ? d->rooms[next].number : next - d->nrooms + 1);
  /* 8: the back cover: the legend, and how to make it again */
  if (st2 == CB_OK) {
    cb_page_text(P[7], CB_FONT_BOLD, 10, x, top + 10, INK, "Legend");
    double ly = top + 18;
    for (int s = 0; s < CB_SYM_COUNT; s++) {
      if (!(used & CB_SYMBOL_BIT(s)) || ly > top + h * 0.62) continue;
      const char *sample = s == CB_SYM_KEY ? "K1" : s == CB_SYM_STAIRS_AWAY ? "L2" : NULL;
      if (cb_symbol_is_badge((cb_symbol)s))
        cb_symbol_badge(P[7], &st, (cb_symbol)s, sample, x + 10, ly);
      else
        cb_symbol_passage(P[7], &st, (cb_symbol)s, x, ly, x + 22, ly);
      cb_page_text(P[7], CB_FONT_REGULAR, 7, x + 27, ly + 2.4, INK, cb_symbol_name((cb_symbol)s));
      ly += st.badge * 1.35;
    }
    char *cmd = cb_part_command(d, o);
    if (!cmd) P[7]->oom = true;
    cb_span cs[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0},
                    {CB_FONT_REGULAR, cmd ? cmd : "", NULL, 0}};
    cb_flow cf = cb_part_footer_flow(m, cmd ? cmd : "", w);
    cf.size = fmin(cf.size, 7), cf.leading = cf.size * 1.25;
    int cl = cb_text_flow(NULL, &cf, cs, 2, 0, 0);
    cb_text_flow(P[7], &cf, cs, 2, x, top + h - (cl - 1) * cf.leading - cf.size * 0.45);
    free(cmd);
    char credit[128];
    snprintf(credit, sizeof credit, "crawlbook %s \xc2\xb7 %s \xc2\xb7 seed %" PRIu64, o->version,
             d->generator, d->seed);
    cb_page_text(P[7], CB_FONT_REGULAR, 7, x, top + h - cl * cf.leading - 2, GREY, credit);
    for (int i = 0; i < 8; i++)
      if (P[i]->oom) st2 = cb_error_oom(err);
  }
  if (st2 == CB_OK) st2 = cb_impose_zine8(&panels, o->page_w, o->page_h, doc, err);
  cb_document_free(&panels);
  return st2;
}
