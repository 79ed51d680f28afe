/* battleships on paper: the point-crawl map laid out by the graph layout
 * (the grids have no geometry of their own), and pages that draw each
 * level's grid the way the seed does, for the game master to run the
 * dungeon from: ships shaded, pegs as dots, rows and columns numbered. */
#include "layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "layout/graph.h"
#include "layout/map.h"
#include "page/flow.h"
#include "proc.h"

static const cb_rgb SHIP = {0.74, 0.74, 0.74}, RULE = {0.55, 0.55, 0.55};
static const double MAP_ASPECT = 0.8, MAX_CELL = 20, TITLE_SIZE = 14, CAPTION_SIZE = 10, TEXT_SIZE = 8.6;

/* The same dungeon with every level's rooms where the graph layout puts
 * them, for a box `aspect` times as wide as high, through st's graph cache
 * (moved's rooms malloc-owned: free them). False on OOM. */
static bool move_rooms(const cb_symbols *st, const cb_dungeon *d, double aspect, cb_dungeon *moved) {
  *moved = *d;
  cb_room *rooms = cb_malloc(((size_t)d->nrooms + 1) * sizeof *rooms);
  if (!rooms) return false;
  memcpy(rooms, d->rooms, (size_t)d->nrooms * sizeof *rooms);
  moved->rooms = rooms;
  for (int l = 0; l < d->nlevels; l++) {
    cb_graph_pos *pos = NULL;
    int n = 0;
    if (cb_graph_layout(st->graphs, d, d->levels[l].id, aspect, &pos, &n, NULL)) { /* the page says OOM */
      free(rooms);
      return false;
    }
    for (int i = 0; i < n; i++) {
      cb_room *r = cb_dungeon_room(moved, pos[i].room);
      if (r) r->x = pos[i].x, r->y = pos[i].y;
    }
    free(pos);
  }
  return true;
}

/* The margin round a level's rooms in its panel: a room's radius at most
 * and most of a badge, not the generic map's row and a half of badges (the
 * placer keeps the marks of the outermost rooms inside the panel), so that
 * the rooms take the panel (issue 22). */
static const double PAD_ROOM = 14, PAD_BADGES = 0.8;
/* What a mark over another room or another room's mark costs in a panel:
 * more than a stray led to from its room (150), less than one over another
 * room's way (300). */
static const double COVER = 200;
/* A panel's badges: a little smaller than the sheet's (10.5 pt), their letters still 7 pt (a badge's
 * 0.78), so that a room's encounter, treasure, key and stairs find room beside it among its
 * neighbours (issue 22: the marks the stocking rolled made the panels' marks half as many again). */
static const double PANEL_BADGE = 9;
static double panel_badge(const cb_symbols *st) { return fmin(st->badge, PANEL_BADGE); }
static double panel_pad(const cb_symbols *st) { return PAD_ROOM + panel_badge(st) * PAD_BADGES; }

/* The scale every level is drawn at: the one the most spread-out level takes w wide (and h high). */
static double shared_scale(const cb_dungeon *moved, double pad, double w, double h) {
  double s = INFINITY;
  for (int l = 0; l < moved->nlevels; l++)
    s = fmin(s, cb_map_fit_scale(moved, moved->levels[l].id, w, h, pad));
  return s;
}

/* The height of the tallest level's map drawn at `scale`. */
static double tallest(const cb_dungeon *moved, double scale, double pad) {
  double h = 0;
  for (int l = 0; l < moved->nlevels; l++)
    h = fmax(h, cb_map_height_at(moved, moved->levels[l].id, scale, pad));
  return h;
}

/* Between two panels side by side: levels.c draws each map 4 pt inside its panel. */
static const double PANEL_GAP = 8;

/* Where level `level` comes among the levels (-1: not one). Panels go in this order, so one before
 * it or after it may stand beside it (or above and below: then nothing is near its sides). */
static int level_index(const cb_dungeon *d, int level) {
  for (int l = 0; level && l < d->nlevels; l++)
    if (d->levels[l].id == level) return l;
  return -1;
}

/* A box this much taller than the panels need is a page of its own (the booklet's). */
static const double ROOMY = 1.15;

/* Level `level` (0: all) in the box. A level's panel is laid out at one
 * shape, so that its height (map_height) and its drawing agree, at the
 * scale all panels share w wide (booklet.md), whatever the height of its
 * row; a box much taller than that (a page of its own) is filled, each
 * level laid out to the box's shape at the scale the levels share there. */
void cb_battleships_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                        double w, double h, cb_symbol_set *used) {
  cb_dungeon moved;
  double pad = level ? panel_pad(st) : cb_map_pad(st), scale = INFINITY;
  cb_symbols marks = *st; /* a panel's badges are the smaller (panel_badge), a page's the sheet's */
  if (!move_rooms(st, d, level ? 1 / MAP_ASPECT : (h > 0 ? w / h : 0), &moved)) {
    p->oom = true;
    return;
  }
  if (level) {
    scale = shared_scale(&moved, pad, w, INFINITY);
    marks.badge = panel_badge(st);
    if (h > tallest(&moved, scale, pad) * ROOMY && w > 0) {
      marks.badge = st->badge;
      free(moved.rooms);
      if (!move_rooms(st, d, w / h, &moved)) {
        p->oom = true;
        return;
      }
      scale = shared_scale(&moved, pad, w, h);
    }
  }
  cb_map_panel panel = {scale, pad, level ? COVER : 0, {0, 0}};
  int at = level_index(d, level);
  if (at > 0) panel.beside[0] = pad + PANEL_GAP;
  if (at >= 0 && at < d->nlevels - 1) panel.beside[1] = pad + PANEL_GAP;
  cb_map_draw_scaled(p, &marks, &moved, level, x, y, w, h, &panel, used);
  free(moved.rooms);
}

/* A level's map as the sheet would like it: every level at the scale they
 * share w wide, so that the panels take the drawings' shapes. */
static double map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  cb_dungeon moved;
  if (!level || !move_rooms(st, d, 1 / MAP_ASPECT, &moved)) return w * MAP_ASPECT;
  double pad = panel_pad(st),
         h = cb_map_height_at(&moved, level, shared_scale(&moved, pad, w, INFINITY), pad);
  free(moved.rooms);
  return h;
}

typedef enum { MARK_RED, MARK_WHITE, MARK_ROW, MARK_STAIRS, MARK_REPAIR } mark;

/* A peg's mark centred in a cell of size s: red solid, white open, row peg a
 * ring around a dot, stairs an X, a repair peg a plus. */
static void draw_mark(cb_page *p, const cb_symbols *st, mark m, double cx, double cy, double s) {
  double r = s * 0.27;
  cb_ink solid = cb_ink_fill(st->ink), line = cb_ink_stroke(st->ink, fmax(0.7, s * 0.07));
  cb_ink open = {.fill = true,
                 .stroke = true,
                 .fill_color = st->paper,
                 .stroke_color = st->ink,
                 .width = fmax(0.7, s * 0.06)};
  line.cap = CB_CAP_ROUND;
  switch (m) {
  case MARK_RED:
    cb_page_circle(p, cx, cy, r * 0.85);
    cb_page_ink(p, &solid);
    break;
  case MARK_WHITE:
    cb_page_circle(p, cx, cy, r);
    cb_page_ink(p, &open);
    break;
  case MARK_ROW:
    cb_page_circle(p, cx, cy, r);
    cb_page_ink(p, &open);
    cb_page_circle(p, cx, cy, r * 0.38);
    cb_page_ink(p, &solid);
    break;
  case MARK_STAIRS:
    line.width = fmax(1.0, s * 0.1);
    cb_page_move(p, cx - r, cy - r);
    cb_page_line(p, cx + r, cy + r);
    cb_page_move(p, cx + r, cy - r);
    cb_page_line(p, cx - r, cy + r);
    cb_page_ink(p, &line);
    break;
  case MARK_REPAIR:
    line.width = fmax(1.0, s * 0.1);
    cb_page_move(p, cx - r * 1.1, cy);
    cb_page_line(p, cx + r * 1.1, cy);
    cb_page_move(p, cx, cy - r * 1.1);
    cb_page_line(p, cx, cy + r * 1.1);
    cb_page_ink(p, &line);
    break;
  }
}

static void centred(cb_page *p, const cb_symbols *st, cb_font font, double size, double cx, double baseline,
                    const char *text) {
  cb_page_text(p, font, size, cx - cb_text_width(st->m, font, size, text) / 2, baseline, st->ink, text);
}

/* One level's grid with its caption; (x, y) is the caption's top left, s a cell's side. */
static void draw_grid(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int g, double x, double y,
                      double s) {
  const cb_battleships_proc *bp = cb_battleships_of(d);
  int n = bp->n;
  char buf[64];
  snprintf(buf, sizeof buf, "Level %d", bp->grids[g].level);
  cb_page_text(p, CB_FONT_BOLD, CAPTION_SIZE, x, y + CAPTION_SIZE, st->ink, buf);
  double num = fmin(8, s * 0.55), gx = x + s, gy = y + CAPTION_SIZE * 1.6 + s;
  for (int k = 0; k < n; k++) {
    /* rows and columns by the level's room numbers (rooms are numbered across the levels) */
    snprintf(buf, sizeof buf, "%d", (bp->grids[g].level - 1) * n + k + 1);
    centred(p, st, CB_FONT_REGULAR, num, gx + (k + 0.5) * s, gy - s * 0.3, buf);
    double tw = cb_text_width(st->m, CB_FONT_REGULAR, num, buf);
    cb_page_text(p, CB_FONT_REGULAR, num, gx - s * 0.25 - tw, gy + (k + 0.5) * s + num * 0.34, st->ink, buf);
  }
  cb_ink ship = cb_ink_fill(SHIP);
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++)
      if (bp->grids[g].rows[r][c] == CB_BS_SHIP) cb_page_rect(p, gx + c * s, gy + r * s, s, s);
  cb_page_ink(p, &ship);
  for (int k = 0; k <= n; k++) {
    cb_page_move(p, gx + k * s, gy);
    cb_page_line(p, gx + k * s, gy + n * s);
    cb_page_move(p, gx, gy + k * s);
    cb_page_line(p, gx + n * s, gy + k * s);
  }
  cb_ink rule = cb_ink_stroke(RULE, 0.5);
  cb_page_ink(p, &rule);
  cb_page_rect(p, gx, gy, n * s, n * s);
  cb_ink frame = cb_ink_stroke(st->ink, 0.9);
  cb_page_ink(p, &frame);
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      double cx = gx + (c + 0.5) * s, cy = gy + (r + 0.5) * s;
      switch (bp->grids[g].rows[r][c]) {
      case CB_BS_RED: draw_mark(p, st, MARK_RED, cx, cy, s); break;
      case CB_BS_WHITE: draw_mark(p, st, MARK_WHITE, cx, cy, s); break;
      case CB_BS_ROW: draw_mark(p, st, MARK_ROW, cx, cy, s); break;
      case CB_BS_STAIRS: draw_mark(p, st, MARK_STAIRS, cx, cy, s); break;
      case CB_BS_REPAIR: draw_mark(p, st, MARK_REPAIR, cx, cy, s); break;
      default: break;
      }
    }
  const char *corner = g == 0 ? "S" : NULL;
  if (g == bp->ngrids - 1 && bp->ngrids > 1) corner = "B";
  if (corner) centred(p, st, CB_FONT_BOLD, s * 0.62, gx + s / 2, gy + s / 2 + s * 0.22, corner);
}

static int has_option(const cb_dungeon *d, const char *name) {
  for (int i = 0; i < d->noptions; i++)
    if (strcmp(d->options[i].name, name) == 0) return 1;
  return 0;
}

static int grid_has(const cb_battleships_proc *bp, char m) {
  for (int g = 0; g < bp->ngrids; g++)
    for (int r = 0; r < bp->n; r++)
      if (strchr(bp->grids[g].rows[r], m)) return 1;
  return 0;
}

/* The marks' legend and the stairs in words. Returns its height (p NULL: measure only). */
static double legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, double x, double y, double w) {
  const cb_battleships_proc *bp = cb_battleships_of(d);
  int secret = has_option(d, "secret-rows");
  struct {
    int mark; /* -1: ship, -2: letter */
    const char *text, *letter;
  } items[] = {{-1, "ship", NULL},
               {MARK_RED, "red peg: no passage", NULL},
               {MARK_WHITE, "white peg: a passage", NULL},
               {MARK_ROW, secret ? "row peg: a secret passage" : "row peg: a passage", NULL},
               {MARK_STAIRS, "red peg removed: stairs", NULL},
               {MARK_REPAIR, "peg added to reach a lost room", NULL},
               {-2, "start", "S"},
               {-2, "boss", "B"}};
  double s = 12, cx = x, row = 0, rowh = 16;
  for (size_t i = 0; i < sizeof items / sizeof *items; i++) {
    if (items[i].mark == MARK_REPAIR && !grid_has(bp, CB_BS_REPAIR)) continue;
    if (items[i].mark == MARK_ROW && !grid_has(bp, CB_BS_ROW)) continue;
    if (items[i].mark == MARK_STAIRS && bp->nstairs == 0) continue;
    if (items[i].letter && items[i].letter[0] == 'B' && bp->ngrids < 2) continue;
    double item = s + 4 + cb_text_width(st->m, CB_FONT_REGULAR, TEXT_SIZE, items[i].text) + 14;
    if (cx + item > x + w && cx > x) row++, cx = x;
    double cy = y + row * rowh + rowh / 2;
    if (p) {
      if (items[i].mark == -1) {
        cb_page_rect(p, cx, cy - s / 2, s, s);
        cb_ink ship = cb_ink_fill(SHIP);
        cb_page_ink(p, &ship);
      } else if (items[i].mark == -2) {
        centred(p, st, CB_FONT_BOLD, s * 0.75, cx + s / 2, cy + s * 0.27, items[i].letter);
      } else {
        draw_mark(p, st, (mark)items[i].mark, cx + s / 2, cy, s);
      }
      cb_page_text(p, CB_FONT_REGULAR, TEXT_SIZE, cx + s + 4, cy + TEXT_SIZE * 0.34, st->ink, items[i].text);
    }
    cx += item;
  }
  double h = (row + 1) * rowh + 6;
  /* how to read it, then the stairs */
  char buf[256];
  cb_flow f = {st->m, TEXT_SIZE, TEXT_SIZE * 1.3, w, st->ink, NULL, NULL};
  cb_span how[] = {{CB_FONT_ITALIC, "Reading the grid: ", NULL, 0},
                   {CB_FONT_REGULAR,
                    "in room r, look across row r and down column r; every white peg in them "
                    "(open, ringed or +) is a passage to the room of its other number. Cell r;c "
                    "is row r, column c; a peg at r;c and another at c;r are the same passage.",
                    NULL, 0}};
  int lines = 0; /* out of memory marks the page */
  cb_text_flow(p, &f, how, 2, x, y + h + TEXT_SIZE, &lines, NULL);
  h += (lines > 0 ? lines : 1) * f.leading + 4;
  for (int i = 0; i < bp->nstairs && i < 60; i++) {
    const cb_bs_stairs *sx = &bp->stairs[i];
    int a = (sx->from_level - 1) * bp->n + sx->from_room, b = (sx->to_level - 1) * bp->n + sx->to_room;
    snprintf(buf, sizeof buf,
             "Stairs: level %d room %d (X at %d;%d) \xe2\x80\x94 level %d room %d (X at %d;%d).",
             sx->from_level, a, a, a, sx->to_level, b, b, b);
    if (p) cb_page_text(p, CB_FONT_REGULAR, TEXT_SIZE, x, y + h + TEXT_SIZE, st->ink, buf);
    h += f.leading;
  }
  return h;
}

static cb_page *new_page(cb_document *doc, double w, double h, cb_status *st, cb_error *err) {
  cb_page *p = cb_page_new(w, h);
  if (!p || cb_document_add(doc, p)) {
    cb_page_free(p);
    *st = cb_error_oom(err);
    return NULL;
  }
  return p;
}

cb_status cb_battleships_pages(const cb_dungeon *d, const cb_symbols *st, const cb_frame *frame,
                               cb_document *doc, cb_error *err) {
  const cb_battleships_proc *bp = cb_battleships_of(d);
  if (!bp || bp->ngrids == 0 || doc->npages == 0) return CB_OK;
  double pw = doc->pages[doc->npages - 1]->w, ph = doc->pages[doc->npages - 1]->h;
  int n = bp->n, cols = n <= 20 ? 2 : 1;
  double gap = 24, colw = (frame->w - gap * (cols - 1)) / cols;
  double s = fmin(MAX_CELL, colw / (n + 1.5));
  double gridh = CAPTION_SIZE * 1.6 + (n + 1) * s + 18;
  cb_status status = CB_OK;
  cb_page *p = new_page(doc, pw, ph, &status, err);
  if (!p) return status;
  p->label = cb_arena_strdup(p->arena, "The grids");
  double y = frame->y;
  cb_page_text(p, CB_FONT_BOLD, TITLE_SIZE, frame->x, y + TITLE_SIZE, st->ink, "The grids");
  y += TITLE_SIZE * 1.8;
  double gw = (n + 1) * s, left = frame->x + (colw - gw) / 2;
  for (int g = 0; g < bp->ngrids; g += cols) {
    if (y + gridh > frame->y + frame->h) {
      if (!(p = new_page(doc, pw, ph, &status, err))) return status;
      y = frame->y;
    }
    for (int k = 0; k < cols && g + k < bp->ngrids; k++)
      draw_grid(p, st, d, g + k, left + k * (colw + gap), y, s);
    y += gridh;
  }
  double lh = legend(NULL, st, d, frame->x, 0, frame->w);
  if (y + lh > frame->y + frame->h) {
    if (!(p = new_page(doc, pw, ph, &status, err))) return status;
    y = frame->y;
  }
  legend(p, st, d, frame->x, y, frame->w);
  return CB_OK;
}

/* What battleships draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_battleships_layout = {.map = {cb_battleships_map, map_height},
                                               .extra_pages = cb_battleships_pages};
