/* The cards map (layout hook): each kept card drawn as a small playing card
 * on its grid cell (rank and a vector suit in the corner, the room number in
 * a ring), removed cells left empty on a faint grid, doors at the dial
 * positions between cards (1..6 = top, upper right, lower right, bottom,
 * lower left, upper left corners and edges), tag marks along the card's
 * right edge (no door ever leaves a card's side: the dial has no pure
 * east or west). */
#include "layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "layout/map.h"
#include "page/flow.h"
#include "proc.h"

static const double CARD_W = 0.56, CARD_H = 0.70; /* of a cell */
static const double MIN_NUMBER = 8, MIN_TEXT = 7; /* points: a room number's least type, and any text's */
static const cb_rgb GRID = {0.78, 0.78, 0.78};

typedef struct geo {
  double x0, y0, cell, cw, ch;
  int digits; /* of the map's biggest room number: every ring is sized for it */
} geo;

/* The card's top-left corner for cell (col, row). */
static void card_box(const geo *g, int col, int row, double *x, double *y) {
  *x = g->x0 + (col - 0.5) * g->cell - g->cw / 2;
  *y = g->y0 + (row - 0.5) * g->cell - g->ch / 2;
}

/* Where dial position pos touches the card. */
static void anchor(const geo *g, int col, int row, int pos, double *ax, double *ay) {
  double x, y;
  card_box(g, col, row, &x, &y);
  static const double fx[] = {0.5, 0.5, 1, 1, 0.5, 0, 0}, fy[] = {0.5, 0, 0, 1, 1, 1, 0};
  *ax = x + fx[pos] * g->cw;
  *ay = y + fy[pos] * g->ch;
}

/* A heart pointing down (sign 1) or, for a spade's body, up (sign -1). */
static void lobes(cb_page *p, double cx, double cy, double s, double sign) {
  double t = sign;
  cb_page_move(p, cx, cy + 0.5 * s * t);
  cb_page_curve(p, cx - 0.12 * s, cy + 0.32 * s * t, cx - 0.5 * s, cy + 0.08 * s * t, cx - 0.5 * s,
                cy - 0.18 * s * t);
  cb_page_curve(p, cx - 0.5 * s, cy - 0.46 * s * t, cx - 0.1 * s, cy - 0.55 * s * t, cx, cy - 0.26 * s * t);
  cb_page_curve(p, cx + 0.1 * s, cy - 0.55 * s * t, cx + 0.5 * s, cy - 0.46 * s * t, cx + 0.5 * s,
                cy - 0.18 * s * t);
  cb_page_curve(p, cx + 0.5 * s, cy + 0.08 * s * t, cx + 0.12 * s, cy + 0.32 * s * t, cx, cy + 0.5 * s * t);
  cb_page_close(p);
}

static void stem(cb_page *p, double cx, double cy, double s) {
  cb_page_move(p, cx, cy + 0.05 * s);
  cb_page_line(p, cx + 0.17 * s, cy + 0.5 * s);
  cb_page_line(p, cx - 0.17 * s, cy + 0.5 * s);
  cb_page_close(p);
}

/* A suit drawn as a shape s points high: black suits filled, red suits in
 * outline (so they stay apart in black-and-white print); a star for a joker. */
void cb_cards_suit(cb_page *p, const cb_symbols *st, char suit, double cx, double cy, double s) {
  switch (suit) {
  case 'H': lobes(p, cx, cy, s, 1); break;
  case 'S':
    lobes(p, cx, cy - 0.08 * s, s * 0.85, -1);
    stem(p, cx, cy, s);
    break;
  case 'D':
    cb_page_move(p, cx, cy - 0.5 * s);
    cb_page_line(p, cx + 0.36 * s, cy);
    cb_page_line(p, cx, cy + 0.5 * s);
    cb_page_line(p, cx - 0.36 * s, cy);
    cb_page_close(p);
    break;
  case 'C':
    cb_page_circle(p, cx, cy - 0.24 * s, 0.19 * s);
    cb_page_circle(p, cx - 0.23 * s, cy + 0.08 * s, 0.19 * s);
    cb_page_circle(p, cx + 0.23 * s, cy + 0.08 * s, 0.19 * s);
    stem(p, cx, cy, s);
    break;
  default: /* a joker's star */
    for (int i = 0; i < 10; i++) {
      double a = -CB_PI / 2 + i * CB_PI / 5, r = i % 2 ? 0.2 * s : 0.5 * s;
      if (i == 0)
        cb_page_move(p, cx + cos(a) * r, cy + sin(a) * r);
      else
        cb_page_line(p, cx + cos(a) * r, cy + sin(a) * r);
    }
    cb_page_close(p);
    break;
  }
  if (suit == 'H' || suit == 'D') {
    cb_ink ink = {.fill = true,
                  .stroke = true,
                  .fill_color = st->paper,
                  .stroke_color = st->ink,
                  .width = fmax(0.5, s * 0.09)};
    cb_page_ink(p, &ink);
  } else {
    cb_ink ink = cb_ink_fill(st->ink);
    cb_page_ink(p, &ink);
  }
}

/* Where a card's room number goes: its centre and size (never under 8 pt),
 * the ring round it (rr 0: a small card has no room for one, the number
 * stands alone) and how far from the centre it reaches. */
typedef struct number_at {
  double cx, cy, size, rr, reach, tw;
} number_at;

/* A number of `digits` digits on a card: its size (never under 8 pt) and
 * the ring it needs (*rr). */
static double number_size(const geo *g, int digits, double *rr) {
  double spread = digits > 1 ? digits * 0.62 : 1; /* a many-digit number's width in ems */
  double size = fmax(MIN_NUMBER, fmin(g->ch * 0.23, g->ch * 0.48 / spread));
  *rr = fmax(g->ch * 0.2, size * 0.5 * spread / 0.6);
  return size;
}

static number_at number_of(const cb_symbols *st, const geo *g, const cb_room *r, double x, double y) {
  char num[16];
  snprintf(num, sizeof num, "%d", r->number);
  number_at n = {.cx = x + g->cw * 0.56, .cy = y + g->ch * 0.64};
  n.size = number_size(g, (int)strlen(num), &n.rr);
  n.tw = cb_text_width(st->m, CB_FONT_BOLD, n.size, num);
  /* the map's widest number decides for every card: rings on all, or on none */
  double ring;
  number_size(g, g->digits, &ring);
  if (ring > g->cw * 0.42) n.rr = 0; /* a ring that would run off the card or over its index */
  n.reach = n.rr > 0 ? n.rr : n.tw / 2 + 1;
  return n;
}

static void draw_card(cb_page *p, const cb_symbols *st, const geo *g, const cb_room *r, int col, int row) {
  double x, y;
  card_box(g, col, row, &x, &y);
  cb_page_rounded_rect(p, x, y, g->cw, g->ch, g->cw * 0.1);
  cb_ink face = {.fill = true,
                 .stroke = true,
                 .fill_color = cb_symbol_room_fill(st),
                 .stroke_color = st->ink,
                 .width = st->line};
  cb_page_ink(p, &face);
  /* a card the players' view does not show (its face tells what lies there) has no index */
  const char *card = r->card ? r->card : "";
  size_t n = strlen(card);
  char rank[4] = "";
  char suit = 0;
  if (strcmp(card, "JK") == 0)
    snprintf(rank, sizeof rank, "JK");
  else if (n >= 2 && n <= 3)
    memcpy(rank, card, n - 1), rank[n - 1] = 0, suit = card[n - 1];
  double rs = fmax(MIN_TEXT, g->ch * 0.22), pad = g->cw * 0.09; /* the corner index, never under 7 pt */
  if (n) {
    cb_page_text(p, CB_FONT_BOLD, rs, x + pad, y + pad + rs * 0.78, st->ink, rank);
    double ss = g->ch * 0.17, rw = cb_text_width(st->m, CB_FONT_BOLD, rs, rank);
    double scx = x + pad + fmax(rw, ss) / 2, scy = y + pad + rs * 0.95 + ss * 0.6;
    cb_cards_suit(p, st, suit, scx, scy, ss);
  }
  /* the room number in a ring, low and to the right of the corner index */
  char num[16];
  snprintf(num, sizeof num, "%d", r->number);
  number_at at = number_of(st, g, r, x, y);
  if (at.tw > g->cw * 0.8) p->cramped++; /* even the bare number crowds its card: too small a map */
  if (at.rr > 0) {
    cb_page_circle(p, at.cx, at.cy, at.rr);
    cb_ink ring = cb_ink_stroke(st->ink, st->line * (r->tags & CB_TAG_ENTRANCE ? 1.8 : 0.8));
    cb_page_ink(p, &ring);
  }
  cb_item_role card_role = p->role;
  cb_page_role(p, CB_ROLE_NUMBER, r->id, 0);
  cb_page_text(p, CB_FONT_BOLD, at.size, at.cx - at.tw / 2, at.cy + at.size * 0.35, st->ink, num);
  p->role = card_role;
}

/* Locked stairs' one mark ("L2 K1") as two, the stairs and the padlock with
 * its key, that stack down a card's edge instead of reaching past it. */
static int split_locked_stairs(cb_page *p, cb_map_mark *marks, int n) {
  for (int k = 0; k < n && n < CB_MAP_MAX_MARKS; k++) {
    const char *sp = marks[k].sym == CB_SYM_STAIRS_AWAY && marks[k].text ? strchr(marks[k].text, ' ') : NULL;
    if (!sp) continue;
    const char *level = cb_arena_printf(p->arena, "%.*s", (int)(sp - marks[k].text), marks[k].text);
    if (!level) {
      p->oom = true;
      continue;
    }
    memmove(&marks[k + 2], &marks[k + 1], sizeof *marks * (size_t)(n - k - 1));
    marks[k + 1] = (cb_map_mark){CB_SYM_LOCKED, sp + 1};
    marks[k].text = level;
    n++, k++;
  }
  return n;
}

/* The marks of a room down its right edge, then up its left edge. */
static void draw_marks(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d, const cb_room *r,
                       int col, int row, cb_symbol_set *used) {
  cb_map_mark marks[CB_MAP_MAX_MARKS];
  int nm = split_locked_stairs(p, marks, cb_map_room_marks(p, d, r, marks));
  double x, y;
  card_box(g, col, row, &x, &y);
  double step = st->badge * 1.4, top = y + g->ch * 0.18; /* a key's pill stands taller than a disc */
  int per_side = (int)((g->ch * 0.7) / step) + 1;
  number_at at = number_of(st, g, r, x, y);
  for (int k = 0; k < nm; k++) {
    int side = k / per_side, i = k % per_side;
    double bx = side == 0 ? x + g->cw : x, by = side == 0 ? top + i * step : y + g->ch * 0.85 - i * step;
    /* on a small card the number's ring reaches the edge: a mark level with it stands clear of it */
    double half = cb_symbol_badge_width(st, marks[k].sym, marks[k].text) / 2;
    if (side == 0 && fabs(by - at.cy) < at.reach + st->badge * 0.6)
      bx = fmax(bx, at.cx + at.reach + half + 0.5);
    cb_symbol_badge(p, st, marks[k].sym, marks[k].text, bx, by);
    *used |= cb_map_mark_symbols(&marks[k]);
  }
}

static const cb_room *room_at(const cb_dungeon *d, int id) { return id > 0 ? cb_dungeon_room(d, id) : NULL; }

static void room_cell(const cb_cards_proc *pr, const cb_room *r, int *col, int *row) {
  *col = (int)lround(r->x / pr->cell_ft + 0.5);
  *row = (int)lround(r->y / pr->cell_ft + 0.5);
}

/* The dial position from cell a to neighbouring cell b, 0 when none. */
static bool on_a_card(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, double cx,
                      double cy, double w, double h) {
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (level && r->level != level) continue;
    int col, row;
    double x, y;
    room_cell(pr, r, &col, &row);
    card_box(g, col, row, &x, &y);
    if (cx + w / 2 > x && cx - w / 2 < x + g->cw && cy + h / 2 > y && cy - h / 2 < y + g->ch) return true;
  }
  return false;
}

static int dial_between(int ac, int ar, int bc, int br) {
  int dc = bc - ac, dr = br - ar;
  if (dc == 0 && dr == -1) return 1;
  if (dc == 1 && dr == -1) return 2;
  if (dc == 1 && dr == 1) return 3;
  if (dc == 0 && dr == 1) return 4;
  if (dc == -1 && dr == 1) return 5;
  if (dc == -1 && dr == -1) return 6;
  return 0;
}

/* A door between two cards. Diagonal doors of neighbouring cards cross in the
 * gutter, so a diagonal's mark sits a third of the way up from its lower
 * card instead of in the middle. *mark gets the stretch that carries the mark. */
static void draw_door(cb_page *p, const cb_symbols *st, cb_symbol s, double x1, double y1, double x2,
                      double y2, int diagonal, double mark[4]) {
  const double f = 0.64;
  double sx1 = x1, sy1 = y1, sx2 = x2, sy2 = y2;
  if (diagonal && y1 >= y2) {
    sx2 = x1 + (x2 - x1) * f, sy2 = y1 + (y2 - y1) * f;
    cb_symbol_passage(p, st, CB_SYM_PATH, sx2, sy2, x2, y2);
  } else if (diagonal) {
    sx1 = x2 + (x1 - x2) * f, sy1 = y2 + (y1 - y2) * f;
    cb_symbol_passage(p, st, CB_SYM_PATH, x1, y1, sx1, sy1);
  }
  cb_symbol_passage(p, st, s, sx1, sy1, sx2, sy2);
  mark[0] = sx1, mark[1] = sy1, mark[2] = sx2, mark[3] = sy2;
}

/* Whether a box (centre, size) touches a card of the level. */
static bool on_a_card(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, double cx,
                      double cy, double w, double h);

/* The key id beside a lock: off the line, on its upper side, else its lower
 * one, a little along it, wherever it first touches no card. */
static void door_label(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d,
                       const cb_cards_proc *pr, int level, const char *label, const double m[4]) {
  double dx = m[2] - m[0], dy = m[3] - m[1], len = hypot(dx, dy), nx = len > 0 ? -dy / len : 0,
         ny = len > 0 ? dx / len : -1;
  if (ny > 0) nx = -nx, ny = -ny;
  double lw, lh;
  cb_symbol_label_size(st, label, &lw, &lh);
  double off = st->badge * 0.75 + (fabs(nx) * lw + fabs(ny) * lh) / 2, mx = (m[0] + m[2]) / 2,
         my = (m[1] + m[3]) / 2;
  double bx = mx + nx * off, by = my + ny * off;
  static const double along[] = {0, 0.25, -0.25};
  for (int k = 0; k < 6; k++) {
    double side = k % 2 ? -1 : 1, a = along[k / 2] * (len > 0 ? 1 : 0);
    double cx = mx + nx * off * side + dx * a, cy = my + ny * off * side + dy * a;
    if (!on_a_card(g, d, pr, level, cx, cy, lw, lh)) {
      bx = cx, by = cy;
      break;
    }
  }
  cb_symbol_label(p, st, label, bx, by);
}

/* The dial position of a room's way out (the entrance) or of a surface exit. */
static int out_position(const cb_dungeon *d, const cb_cards_proc *pr, const cb_passage *ps, int nth_surface) {
  if (!(ps->flags & CB_FLAG_SECRET)) {
    for (int i = 0; i < d->noptions; i++)
      if (strcmp(d->options[i].name, "entrance") == 0)
        return strcmp(d->options[i].value, "top") == 0      ? 1
               : strcmp(d->options[i].value, "bottom") == 0 ? 4
                                                            : 0;
    return 4;
  }
  int seen = 0;
  for (int t = 0; t < pr->nturns; t++) {
    if (pr->turns[t].room != ps->from) continue;
    for (int k = 0; k < 3; k++)
      if (pr->turns[t].results[k] == CB_DIE_SURFACE && seen++ == nth_surface) return pr->turns[t].dice[k];
  }
  return 0;
}

double cb_cards_map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  const cb_cards_proc *pr = cb_cards_of(d);
  if (!pr || pr->w < 1 || pr->h < 1 || pr->cell_ft <= 0) return cb_map_height(d, st, level, w);
  return w / (pr->w + 0.7) * (pr->h + 0.7);
}

void cb_cards_map(cb_page *p, const cb_symbols *st0, const cb_dungeon *d, int level, double x, double y,
                  double w, double h, cb_symbol_set *used) {
  const cb_cards_proc *pr = cb_cards_of(d);
  if (!pr || pr->w < 1 || pr->h < 1 || pr->cell_ft <= 0) {
    cb_map_draw(p, st0, d, level, x, y, w, h, used);
    return;
  }
  geo g;
  g.cell = fmin(w / (pr->w + 0.7), h / (pr->h + 0.7));
  g.cw = g.cell * CARD_W, g.ch = g.cell * CARD_H;
  g.x0 = x + (w - pr->w * g.cell) / 2;
  g.y0 = y + (h - pr->h * g.cell) / 2;
  g.digits = 1;
  for (int i = 0; i < d->nrooms; i++) {
    int k = 1;
    for (int n = d->rooms[i].number; n >= 10; n /= 10)
      k++;
    if (k > g.digits) g.digits = k;
  }
  cb_symbols st = *st0;
  st.badge = fmin(st0->badge, g.cell * 0.16);
  st.line = fmin(st0->line, fmax(0.4, g.cell * 0.014));
  st.label = fmin(st0->label, fmax(5.0, g.cell * 0.11));

  /* the grid, faint: every cell dealt on this level, kept or removed (the
   * shape's mask when the procedure lists no cells) */
  int drawn = 0;
  for (int i = 0; i < pr->ncells; i++) {
    const cb_card_cell *c = &pr->cells[i];
    if (level && c->level != level) continue;
    cb_page_rect(p, g.x0 + (c->col - 1) * g.cell, g.y0 + (c->row - 1) * g.cell, g.cell, g.cell);
    drawn++;
  }
  for (int r = 0; r < pr->h && !drawn; r++)
    for (int c = 0; c < pr->w; c++)
      if (pr->mask[r][c] == '#') cb_page_rect(p, g.x0 + c * g.cell, g.y0 + r * g.cell, g.cell, g.cell);
  cb_ink grid = cb_ink_stroke(GRID, 0.35);
  cb_page_ink(p, &grid);

  /* doors between cards, and ways out of the dungeon */
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    const cb_room *a = room_at(d, ps->from), *b = room_at(d, ps->to);
    if (!a || (level && a->level != level)) continue;
    int ac, ar;
    room_cell(pr, a, &ac, &ar);
    if (!b) {
      if (ps->kind != CB_PASSAGE_DOOR) continue;
      int nth = 0;
      for (int j = 0; j < i; j++)
        nth += d->passages[j].from == ps->from && d->passages[j].to == 0 &&
               (d->passages[j].flags & CB_FLAG_SECRET);
      int pos = out_position(d, pr, ps, nth);
      if (pos < 1 || pos > 6) continue;
      double ax, ay, ox, oy;
      anchor(&g, ac, ar, pos, &ax, &ay);
      anchor(&g, ac, ar, (pos + 2) % 6 + 1, &ox, &oy);
      double dx = ax - ox, dy = ay - oy, len = hypot(dx, dy), stub = g.cell * 0.32;
      cb_symbol s = cb_map_passage_symbol(ps);
      *used |= CB_SYMBOL_BIT(s);
      cb_page_role(p, CB_ROLE_PASSAGE, ps->from, 0);
      cb_symbol_passage(p, &st, s, ax, ay, ax + dx / len * stub, ay + dy / len * stub);
      continue;
    }
    if (b->level != a->level) continue; /* stairs: marked on both rooms */
    int bc, br;
    room_cell(pr, b, &bc, &br);
    int pos = dial_between(ac, ar, bc, br);
    if (!pos) continue;
    double x1, y1, x2, y2;
    anchor(&g, ac, ar, pos, &x1, &y1);
    anchor(&g, bc, br, (pos + 2) % 6 + 1, &x2, &y2);
    cb_symbol s = cb_map_passage_symbol(ps);
    *used |= CB_SYMBOL_BIT(s);
    cb_page_role(p, CB_ROLE_PASSAGE, ps->from, ps->to);
    double m[4];
    draw_door(p, &st, s, x1, y1, x2, y2, pos != 1 && pos != 4, m);
    if (ps->lock) door_label(p, &st, &g, d, pr, level, ps->lock, m);
  }
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (level && r->level != level) continue;
    int c, rw;
    room_cell(pr, r, &c, &rw);
    cb_page_role(p, CB_ROLE_ROOM, r->id, 0);
    draw_card(p, &st, &g, r, c, rw);
  }
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (level && r->level != level) continue;
    int c, rw;
    room_cell(pr, r, &c, &rw);
    cb_page_role(p, CB_ROLE_ROOM_MARK, r->id, 0);
    draw_marks(p, &st, &g, d, r, c, rw, used);
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* What cards draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_cards_layout = {.map = cb_cards_map, .height = cb_cards_map_height};
