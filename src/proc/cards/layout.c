/* The cards map (layout hook): each kept card drawn as a small playing card
 * on its grid cell (rank and a vector suit in the corner, the room number in
 * a ring), removed cells left empty on a faint grid, doors at the dial
 * positions between cards (1..6 = top, upper right, lower right, bottom,
 * lower left, upper left corners and edges), tag marks along the card's
 * right edge (no door ever leaves a card's side: the dial has no pure
 * east or west). */
#include "layout.h"
#include "geom/segment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "layout/map.h"
#include "page/flow.h"
#include "proc.h"

static const double CARD_W = 0.56, CARD_H = 0.70; /* of a cell */
/* a small map's cards grow into their gutters, up to this much of a cell, to hold their marks */
static const double CARD_W_MAX = 0.8, CARD_H_MAX = 0.86;
static const double MIN_NUMBER = 8, MIN_TEXT = 7;    /* points: a room number's least type, and any text's */
static const double MIN_BADGE = 2.52 * CB_PT_PER_MM; /* a mark's least size: 2.5 mm */
static const double LEADER = 0.35; /* a key id's hairline to its padlock: thinner than any door's line */
static const cb_rgb GRID = {0.78, 0.78, 0.78};

typedef struct geo {
  double x0, y0, cell, cw, ch;
  int digits;      /* of the map's biggest room number: every ring is sized for it */
  double cw0, ch0; /* the usual card's size, which every card keeps (card_geo): it decides the rings */
  double pad;      /* what a card keeps clear inside its edge round its index */
  double inset;    /* and round its marks and number */
  cb_symbols mark; /* the symbols the marks on a card are drawn with (their size) */
  /* how far each cell's card has grown, in steps of GROW_STEPS from the usual shape (cw x ch) to
   * the largest (cw_max x ch_max): gw x gh cells from (1, 1), NULL: none has */
  unsigned char *grow;
  int gw, gh;
  double cw_max, ch_max;
} geo;

enum { GROW_STEPS = 6 };

/* The size of cell (col, row)'s card. */
static void card_dims(const geo *g, int col, int row, double *cw, double *ch) {
  int k = g->grow && col >= 1 && row >= 1 && col <= g->gw && row <= g->gh
              ? g->grow[(row - 1) * g->gw + col - 1]
              : 0;
  *cw = g->cw + (g->cw_max - g->cw) * k / GROW_STEPS;
  *ch = g->ch + (g->ch_max - g->ch) * k / GROW_STEPS;
}

/* The card's top-left corner for cell (col, row). */
static void card_box(const geo *g, int col, int row, double *x, double *y) {
  double cw, ch;
  card_dims(g, col, row, &cw, &ch);
  *x = g->x0 + (col - 0.5) * g->cell - cw / 2;
  *y = g->y0 + (row - 0.5) * g->cell - ch / 2;
}

/* The geometry as cell (col, row)'s card sees it: its own size and insets. */
static geo card_geo(const geo *g, int col, int row) {
  geo c = *g;
  card_dims(g, col, row, &c.cw, &c.ch);
  c.pad = fmax(1.5, c.cw * 0.09);
  c.inset = fmin(c.pad, fmax(1.2, c.cw * 0.05));
  c.cw_max = c.cw, c.ch_max = c.ch; /* card_box of this card keeps its size */
  return c;
}

/* Where dial position pos touches the card. */
static void anchor(const geo *g, int col, int row, int pos, double *ax, double *ay) {
  double x, y, cw, ch;
  card_box(g, col, row, &x, &y);
  card_dims(g, col, row, &cw, &ch);
  static const double fx[] = {0.5, 0.5, 1, 1, 0.5, 0, 0}, fy[] = {0.5, 0, 0, 1, 1, 1, 0};
  *ax = x + fx[pos] * cw;
  *ay = y + fy[pos] * ch;
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
 * the ring round it (rr 0: no ring, the number stands alone) and how far
 * from the centre it reaches. */
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

/* The number at its usual place, low and to the right of the corner index. */
static number_at number_of(const cb_symbols *st, const geo *g, const cb_room *r, double x, double y) {
  char num[16];
  snprintf(num, sizeof num, "%d", r->number);
  number_at n = {.cx = x + g->cw * 0.56, .cy = y + g->ch * 0.64};
  n.size = number_size(g, (int)strlen(num), &n.rr);
  n.tw = cb_text_width(st->m, CB_FONT_BOLD, n.size, num);
  /* the map's widest number on the usual card decides for every card: rings on all, or on none
   * (a card grown for its marks, alone with a ring, would look marked); a ring that would run off
   * the card or over its index is drawn closer, as long as it clears the number by a quarter of
   * its size (the players' map in the booklet is the --player-map of a smaller page) */
  geo usual = *g;
  usual.cw = g->cw0, usual.ch = g->ch0;
  double ring, widest = number_size(&usual, g->digits, &ring), fits = g->cw0 * 0.42;
  double least = widest * (g->digits > 1 ? g->digits * 0.62 : 1) / 2 + widest * 0.25;
  if (ring > fits) n.rr = least > fits ? 0 : fmin(n.rr, g->cw * 0.42);
  n.reach = n.rr > 0 ? n.rr : n.tw / 2 + 1;
  return n;
}

/* A box a card's index, number or mark takes. */
typedef struct spot {
  double x0, y0, x1, y1;
} spot;

static bool spots_meet(spot a, spot b, double clear) {
  return a.x0 < b.x1 + clear && b.x0 < a.x1 + clear && a.y0 < b.y1 + clear && b.y0 < a.y1 + clear;
}

static spot number_spot(const number_at *n) {
  if (n->rr > 0) return (spot){n->cx - n->rr, n->cy - n->rr, n->cx + n->rr, n->cy + n->rr};
  return (spot){n->cx - n->tw / 2, n->cy - n->size * 0.4, n->cx + n->tw / 2, n->cy + n->size * 0.35};
}

/* The corner index's rank and suit: the rank's text, the suit's letter (0: none). */
static void card_index(const cb_room *r, char rank[4], char *suit) {
  const char *card = r->card ? r->card : "";
  size_t n = strlen(card);
  rank[0] = 0, *suit = 0;
  if (strcmp(card, "JK") == 0)
    snprintf(rank, 4, "JK");
  else if (n >= 2 && n <= 3)
    memcpy(rank, card, n - 1), rank[n - 1] = 0, *suit = card[n - 1];
}

/* The corner index's type size (never under 7 pt) and its suit's. */
static double index_size(const geo *g, double *ss) {
  *ss = g->ch * 0.17;
  return fmax(MIN_TEXT, g->ch * 0.22);
}

/* Where the corner index's suit goes: under its rank, or beside it (`row`,
 * on a card whose marks need the room under it). */
static void suit_at(const geo *g, double rw, double rs, double ss, bool row, double x, double y, double *cx,
                    double *cy) {
  *cx = row ? x + g->pad + rw + ss * 0.7 : x + g->pad + fmax(rw, ss) / 2;
  *cy = row ? y + g->pad + rs * 0.78 - ss * 0.45 : y + g->pad + rs * 0.95 + ss * 0.6;
}

/* The box the corner index takes, empty when the card shows none. */
static spot index_spot(const cb_symbols *st, const geo *g, const cb_room *r, bool row, double x, double y) {
  char rank[4], suit;
  card_index(r, rank, &suit);
  if (!rank[0]) return (spot){x, y, x, y};
  double ss, rs = index_size(g, &ss), rw = cb_text_width(st->m, CB_FONT_BOLD, rs, rank), sx, sy;
  suit_at(g, rw, rs, ss, row, x, y, &sx, &sy);
  return (spot){x + g->pad, y + g->pad, fmax(x + g->pad + rw, sx + ss / 2),
                fmax(y + g->pad + rs * 0.95, sy + ss / 2)};
}

enum { NUMBER_PLACES = 6 };

/* The number's place `k`: its usual one, then further left, then low in
 * the left corner, each with its ring and then without (a card's marks
 * take the room the number leaves). */
static number_at number_place(const cb_symbols *st, const geo *g, const cb_room *r, double x, double y,
                              int k) {
  number_at n = number_of(st, g, r, x, y);
  if (k >= NUMBER_PLACES / 2) n.rr = 0, n.reach = n.tw / 2 + 1;
  double half_h = n.rr > 0 ? n.rr : n.size * 0.4;
  if (k % 3 >= 1) n.cx = x + g->inset + n.reach;
  if (k % 3 == 2) n.cy = y + g->ch - g->inset - half_h;
  return n;
}

/* Where a card's marks go: the number's place, each mark's centre, how
 * many of them found a place on the card (the rest sit on its right edge). */
typedef struct card_plan {
  number_at num;
  bool row;   /* the index's suit beside its rank */
  bool as_is; /* the marks placed in their own order, not the widest first */
  int n, placed;
  cb_map_mark marks[CB_MAP_MAX_MARKS];
  double mx[CB_MAP_MAX_MARKS], my[CB_MAP_MAX_MARKS];
} card_plan;

static spot mark_spot(const geo *g, const cb_map_mark *m, double cx, double cy) {
  double w = cb_symbol_badge_width(&g->mark, m->sym, m->text), h = g->mark.badge;
  return (spot){cx - w / 2, cy - h / 2, cx + w / 2, cy + h * (m->sym == CB_SYM_BOSS ? 0.62 : 0.5)};
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The first place, down the card's right-hand column and then the columns
 * left of it, where mark m meets nothing taken; false when none is. The
 * places tried are flush with the card's inset or with what is taken. */
static bool find_place(const geo *g, const cb_map_mark *m, const spot *taken, int ntaken, double x, double y,
                       double *cx, double *cy) {
  const double clear = 0.4;
  spot s0 = mark_spot(g, m, 0, 0);
  double xs[CB_MAP_MAX_MARKS + 3], ys[CB_MAP_MAX_MARKS + 3];
  int nx = 0, ny = 0;
  xs[nx++] = -(x + g->cw - g->inset - s0.x1), ys[ny++] = y + g->inset - s0.y0;
  for (int i = 0; i < ntaken; i++)
    xs[nx++] = -(taken[i].x0 - clear - s0.x1 - 1e-6), ys[ny++] = taken[i].y1 + clear - s0.y0 + 1e-6;
  qsort(xs, (size_t)nx, sizeof *xs, by_value); /* right to left */
  qsort(ys, (size_t)ny, sizeof *ys, by_value); /* top to bottom */
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      double px = -xs[i], py = ys[j];
      spot s = {px + s0.x0, py + s0.y0, px + s0.x1, py + s0.y1};
      bool clear_of = s.x0 >= x + g->inset - 1e-9 && s.x1 <= x + g->cw - g->inset + 1e-9 &&
                      s.y0 >= y + g->inset - 1e-9 && s.y1 <= y + g->ch - g->inset + 1e-9;
      for (int k = 0; k < ntaken && clear_of; k++)
        clear_of = !spots_meet(s, taken[k], clear);
      if (clear_of) {
        *cx = px, *cy = py;
        return true;
      }
    }
  return false;
}

/* The marks placed round the number at place k, the widest first (a
 * key's pill or a stairs' badge takes a column's top): how many found a
 * place on the card. */
static int plan_at(const cb_symbols *st, const geo *g, const cb_room *r, double x, double y, int k,
                   card_plan *pl) {
  pl->num = number_place(st, g, r, x, y, k);
  spot taken[CB_MAP_MAX_MARKS + 2] = {index_spot(st, g, r, pl->row, x, y), number_spot(&pl->num)};
  if (spots_meet(taken[0], taken[1], 0.4) || taken[1].x1 > x + g->cw - g->inset + 0.5) return -1;
  int order[CB_MAP_MAX_MARKS], nt = 2, placed = 0, out = 0;
  double wide[CB_MAP_MAX_MARKS];
  for (int i = 0; i < pl->n; i++) {
    wide[i] = cb_symbol_badge_width(&g->mark, pl->marks[i].sym, pl->marks[i].text);
    int j = i;
    for (; !pl->as_is && j > 0 && wide[order[j - 1]] < wide[i]; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  for (int o = 0; o < pl->n; o++) {
    int i = order[o];
    if (find_place(g, &pl->marks[i], taken, nt, x, y, &pl->mx[i], &pl->my[i])) {
      taken[nt++] = mark_spot(g, &pl->marks[i], pl->mx[i], pl->my[i]);
      placed++;
    } else /* no room on the card: beside its right edge, and the map says it is cramped */
      pl->mx[i] = x + g->cw + 0.6 + wide[i] / 2, pl->my[i] = y + g->pad + g->mark.badge * (0.5 + 1.1 * out++);
  }
  return placed;
}

/* Locked stairs' one mark ("L2 K1") as two, the stairs and the padlock with
 * its key, each a badge of its own. */
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

/* A card's plan: the number at the first of its places that leaves every
 * mark a place on the card, else at the one that leaves the most. */
static card_plan plan_card(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d,
                           const cb_room *r, double x, double y) {
  card_plan best = {.placed = -1}, pl = {0};
  pl.n = split_locked_stairs(p, pl.marks, cb_map_room_marks(p, d, r, pl.marks));
  for (int k = 0; k < 4 * NUMBER_PLACES; k++) {
    pl.row = k / NUMBER_PLACES % 2, pl.as_is = k >= 2 * NUMBER_PLACES;
    pl.placed = plan_at(st, g, r, x, y, k % NUMBER_PLACES, &pl);
    if (pl.placed > best.placed) best = pl;
    if (pl.placed == pl.n) return pl;
  }
  if (best.placed < 0) { /* the number meets the index wherever it goes: its usual place */
    best = pl;
    best.row = best.as_is = false;
    best.placed = plan_at(st, g, r, x, y, NUMBER_PLACES, &best);
  }
  return best;
}

static void draw_card(cb_page *p, const cb_symbols *st, const geo *g, const cb_room *r, const card_plan *pl,
                      int col, int row) {
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
  char rank[4], suit;
  card_index(r, rank, &suit);
  double ss, rs = index_size(g, &ss), pad = g->pad;
  if (rank[0]) {
    cb_page_text(p, CB_FONT_BOLD, rs, x + pad, y + pad + rs * 0.78, st->ink, rank);
    double rw = cb_text_width(st->m, CB_FONT_BOLD, rs, rank), scx, scy;
    suit_at(g, rw, rs, ss, pl->row, x, y, &scx, &scy);
    cb_cards_suit(p, st, suit, scx, scy, ss);
  }
  /* the room number, in a ring where the card has room for one */
  char num[16];
  snprintf(num, sizeof num, "%d", r->number);
  const number_at *at = &pl->num;
  if (at->tw > g->cw * 0.8) p->cramped++; /* even the bare number crowds its card: too small a map */
  if (at->rr > 0) {
    cb_page_circle(p, at->cx, at->cy, at->rr);
    cb_ink ring = cb_ink_stroke(st->ink, st->line * (r->tags & CB_TAG_ENTRANCE ? 1.8 : 0.8));
    cb_page_ink(p, &ring);
  }
  cb_item_role card_role = p->role;
  cb_page_role(p, CB_ROLE_NUMBER, r->id, 0);
  cb_page_text(p, CB_FONT_BOLD, at->size, at->cx - at->tw / 2, at->cy + at->size * 0.35, st->ink, num);
  p->role = card_role;
}

/* The marks of a room on its card, where its plan puts them. */
static void draw_marks(cb_page *p, const geo *g, const card_plan *pl, cb_symbol_set *used) {
  if (pl->placed < pl->n) p->cramped += pl->n - pl->placed;
  for (int k = 0; k < pl->n; k++) {
    cb_symbol_badge(p, &g->mark, pl->marks[k].sym, pl->marks[k].text, pl->mx[k], pl->my[k]);
    *used |= cb_map_mark_symbols(&pl->marks[k]);
  }
}

static const cb_room *room_at(const cb_dungeon *d, int id) { return id > 0 ? cb_dungeon_room(d, id) : NULL; }

static void room_cell(const cb_cards_proc *pr, const cb_room *r, int *col, int *row) {
  *col = (int)lround(r->x / pr->cell_ft + 0.5);
  *row = (int)lround(r->y / pr->cell_ft + 0.5);
}

/* Whether a card of the level lies on cell (col, row). */
static bool card_at(const cb_dungeon *d, const cb_cards_proc *pr, int level, int col, int row) {
  for (int i = 0; i < d->nrooms; i++) {
    int c, r;
    room_cell(pr, &d->rooms[i], &c, &r);
    if (d->rooms[i].level == level && c == col && r == row) return true;
  }
  return false;
}

/* The dial position from cell a to neighbouring cell b, 0 when none. */
static bool on_a_card(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, double cx,
                      double cy, double w, double h, int skip_a, int skip_b) {
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if ((level && r->level != level) || r->id == skip_a || r->id == skip_b) continue;
    int col, row;
    double x, y;
    room_cell(pr, r, &col, &row);
    double cw, ch;
    card_box(g, col, row, &x, &y);
    card_dims(g, col, row, &cw, &ch);
    if (cx + w / 2 > x && cx - w / 2 < x + cw && cy + h / 2 > y && cy - h / 2 < y + ch) return true;
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
 * card instead of in the middle: on a stretch f of the way long from the
 * lower card, or (f over 1) 2 - f long to the upper one. *mark gets the
 * stretch that carries the mark. */
static void draw_door(cb_page *p, const cb_symbols *st, cb_symbol s, double x1, double y1, double x2,
                      double y2, int diagonal, double f, double mark[4]) {
  double sx1 = x1, sy1 = y1, sx2 = x2, sy2 = y2;
  if (diagonal && f > 1) {
    double u = y1 >= y2 ? f - 1 : 2 - f, ux = x1 + (x2 - x1) * u, uy = y1 + (y2 - y1) * u;
    if (y1 >= y2)
      sx1 = ux, sy1 = uy, cb_symbol_passage(p, st, CB_SYM_PATH, x1, y1, ux, uy);
    else
      sx2 = ux, sy2 = uy, cb_symbol_passage(p, st, CB_SYM_PATH, ux, uy, x2, y2);
  } else if (diagonal && y1 >= y2) {
    sx2 = x1 + (x2 - x1) * f, sy2 = y1 + (y2 - y1) * f;
    cb_symbol_passage(p, st, CB_SYM_PATH, sx2, sy2, x2, y2);
  } else if (diagonal) {
    sx1 = x2 + (x1 - x2) * f, sy1 = y2 + (y1 - y2) * f;
    cb_symbol_passage(p, st, CB_SYM_PATH, x1, y1, sx1, sy1);
  }
  cb_symbol_passage(p, st, s, sx1, sy1, sx2, sy2);
  mark[0] = sx1, mark[1] = sy1, mark[2] = sx2, mark[3] = sy2;
}

/* Whether a box (centre, size) touches a card of the level other than
 * those of rooms skip_a and skip_b. */
static bool on_a_card(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, double cx,
                      double cy, double w, double h, int skip_a, int skip_b);

/* What the doors' key ids keep clear of: the doors' marks and the key ids
 * placed before them (as boxes), and the doors' lines (a key id on another
 * door's line reads as that door's). */
typedef struct door_spots {
  spot *at;
  int *owner; /* the passage (index) whose mark each spot is, -1 for a key id */
  int n, cap;
  const double (*lines)[4];
  int nlines;
} door_spots;

/* How far segment e keeps from spot s (0 where it runs into it). */
static double segment_spot_gap(const double e[4], spot s) {
  const double box[4] = {s.x0, s.y0, s.x1, s.y1};
  cb_point a = {e[0], e[1]}, b = {e[2], e[3]};
  if (cb_segment_meets_box(a, b, box)) return 0;
  double gap = INFINITY;
  const cb_point corner[4] = {{s.x0, s.y0}, {s.x1, s.y0}, {s.x0, s.y1}, {s.x1, s.y1}};
  for (int k = 0; k < 4; k++)
    gap = fmin(gap, cb_point_segment_dist2(corner[k], a, b));
  for (int k = 0; k < 2; k++) {
    double x = e[2 * k], y = e[2 * k + 1], dx = fmax(0, fmax(s.x0 - x, x - s.x1)),
           dy = fmax(0, fmax(s.y0 - y, y - s.y1));
    gap = fmin(gap, dx * dx + dy * dy);
  }
  return sqrt(gap);
}

/* The lock a key id is placed for: its padlock's ink, its door's line and its passage's index. */
typedef struct lock_at {
  spot padlock;
  const double *line;
  int passage;
} lock_at;

static double spot_gap(spot a, spot b) {
  return hypot(fmax(0, fmax(a.x0 - b.x1, b.x0 - a.x1)), fmax(0, fmax(a.y0 - b.y1, b.y0 - a.y1)));
}

/* How much nearer its padlock than any other door's line or mark (or way
 * out's) a key id at spot s lies: a key id nearer another reads as that door's. */
static double own_margin(spot s, const lock_at *lock, const door_spots *taken) {
  double own = spot_gap(s, lock->padlock), other = INFINITY;
  for (int i = 0; i < taken->nlines; i++)
    if (taken->lines[i] != lock->line) other = fmin(other, segment_spot_gap(taken->lines[i], s));
  for (int i = 0; i < taken->n; i++)
    if (taken->owner[i] >= 0 && taken->owner[i] != lock->passage)
      other = fmin(other, spot_gap(s, taken->at[i]));
  return other - own;
}

/* Whether a key id (centre, size) touches no card, door's mark, key id or door's line. */
static bool clear_spot(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, double cx,
                       double cy, double w, double h, const door_spots *taken) {
  if (on_a_card(g, d, pr, level, cx, cy, w, h, 0, 0)) return false;
  spot s = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
  for (int i = 0; i < taken->n; i++)
    if (spots_meet(s, taken->at[i], 0.3)) return false;
  const double box[4] = {s.x0 - 0.3, s.y0 - 0.3, s.x1 + 0.3, s.y1 + 0.3};
  for (int i = 0; i < taken->nlines; i++) {
    const double *e = taken->lines[i];
    if (cb_segment_meets_box((cb_point){e[0], e[1]}, (cb_point){e[2], e[3]}, box)) return false;
  }
  return true;
}

/* The places tried for a key id, in turn, and the best so far. */
typedef struct label_search {
  const geo *g;
  const cb_dungeon *d;
  const cb_cards_proc *pr;
  int level;
  double lw, lh;
  const door_spots *taken;
  const lock_at *lock;
  int found;           /* a clear place: 1, one with a leader over no card: 2 */
  double bx, by;       /* the first clear place */
  double led_x, led_y; /* the first with a leader over no card */
} label_search;

/* Where a hairline from a key id's box (lw x lh at bx, by) to its padlock's
 * ink runs, into e; false when they (nearly) touch. */
static bool leader_ends(spot lock, double bx, double by, double lw, double lh, double e[4]) {
  double px = fmax(lock.x0, fmin(bx, lock.x1)), py = fmax(lock.y0, fmin(by, lock.y1)); /* its nearest point */
  double dx = px - bx, dy = py - by, len = hypot(dx, dy);
  if (!(len > 0)) return false;
  double ux = dx / len, uy = dy / len,
         out = fmin(fabs(ux) > 1e-9 ? lw / 2 / fabs(ux) : INFINITY,
                    fabs(uy) > 1e-9 ? lh / 2 / fabs(uy) : INFINITY);
  if (len - out < 1.5) return false;
  e[0] = bx + ux * (out + 0.3), e[1] = by + uy * (out + 0.3), e[2] = px - ux * 0.3, e[3] = py - uy * 0.3;
  return true;
}

/* Whether a key id at (cx, cy) has a leader to its padlock that runs over no card. */
static bool leader_clear(const label_search *ls, double cx, double cy) {
  double e[4];
  if (!leader_ends(ls->lock->padlock, cx, cy, ls->lw, ls->lh, e)) return true;
  int n = (int)(hypot(e[2] - e[0], e[3] - e[1]) / 0.5) + 1;
  for (int k = 0; k <= n; k++)
    if (on_a_card(ls->g, ls->d, ls->pr, ls->level, e[0] + (e[2] - e[0]) * k / n, e[1] + (e[3] - e[1]) * k / n,
                  LEADER, LEADER, 0, 0))
      return false;
  return true;
}

/* Tries (cx, cy): true when it is clear and half a point nearer its
 * padlock than any other line (what the ink's measure may miss); else kept
 * when it is the first clear one whose leader would run over no card. */
static bool try_label(label_search *ls, double cx, double cy) {
  if (!clear_spot(ls->g, ls->d, ls->pr, ls->level, cx, cy, ls->lw, ls->lh, ls->taken)) return false;
  spot s = {cx - ls->lw / 2, cy - ls->lh / 2, cx + ls->lw / 2, cy + ls->lh / 2};
  if (own_margin(s, ls->lock, ls->taken) > 0.5) return true;
  if (!ls->found) ls->found = 1, ls->bx = cx, ls->by = cy;
  if (ls->found < 2 && leader_clear(ls, cx, cy)) ls->found = 2, ls->led_x = cx, ls->led_y = cy;
  return false;
}

/* Where the key id beside a lock goes: off the line, on its upper side,
 * else its lower one, a little along it, else the nearest place round it
 * (within most of a cell): the first that touches no card, no door's mark,
 * no other key id and no line, and lies nearer its padlock than any other
 * line (issue 22: seed 9 --grid 7x7 --decks 2, 8-13's K1 as near 7-22's
 * padlock as its own), 3; else the first that is clear and has a leader to
 * its padlock over no card (to say whose it is), 2; else the first that is
 * only clear, 1; 0 when none is (*bx, *by: the first place tried). */
static int door_label_at(label_search *ls, const double m[4], double off, double *bx, double *by) {
  double dx = m[2] - m[0], dy = m[3] - m[1], len = hypot(dx, dy), nx = len > 0 ? -dy / len : 0,
         ny = len > 0 ? dx / len : -1;
  if (ny > 0) nx = -nx, ny = -ny;
  double mx = (m[0] + m[2]) / 2, my = (m[1] + m[3]) / 2;
  off += (fabs(nx) * ls->lw + fabs(ny) * ls->lh) / 2;
  *bx = mx + nx * off, *by = my + ny * off;
  ls->found = 0;
  static const double along[] = {0, 0.25, -0.25};
  for (int k = 0; k < 6; k++) {
    double side = k % 2 ? -1 : 1, a = along[k / 2] * (len > 0 ? 1 : 0);
    double cx = mx + nx * off * side + dx * a, cy = my + ny * off * side + dy * a;
    if (try_label(ls, cx, cy)) return *bx = cx, *by = cy, 3;
  }
  /* narrow gutters: rings of places round the door's mark, the nearest first */
  const double step = 1.5;
  for (double r = step; r <= ls->g->cell * 0.9; r += step)
    for (double t = -r; t < r; t += step)
      for (int side = 0; side < 4; side++) {
        double cx = mx + (side == 0   ? t
                          : side == 1 ? r
                          : side == 2 ? -t
                                      : -r),
               cy = my + (side == 0   ? -r
                          : side == 1 ? t
                          : side == 2 ? r
                                      : -t);
        if (try_label(ls, cx, cy)) return *bx = cx, *by = cy, 3;
      }
  if (ls->found == 2) return *bx = ls->led_x, *by = ls->led_y, 2;
  if (ls->found == 1) return *bx = ls->bx, *by = ls->by, 1;
  return 0;
}

/* A hairline from a key id's box to its padlock, for a key id that found
 * no place nearer its padlock than another door's line: the line says
 * whose it is, as a map's leader does. */
static void lead_to_lock(cb_page *p, const cb_symbols *st, spot lock, double bx, double by, double lw,
                         double lh) {
  double e[4];
  if (!leader_ends(lock, bx, by, lw, lh, e)) return;
  cb_page_move(p, e[0], e[1]);
  cb_page_line(p, e[2], e[3]);
  cb_ink ink = cb_ink_stroke(st->ink, LEADER);
  cb_page_ink(p, &ink);
}

/* The key id beside the lock of passage `pi` (door_label_at), whose
 * padlock sits in the middle of m, on the door's line `line`; kept in
 * taken; the map is cramped when it has no clear place. */
static void door_label(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d,
                       const cb_cards_proc *pr, int level, int pi, const double m[4], const double *line,
                       door_spots *taken) {
  const char *label = d->passages[pi].lock;
  double lw, lh, bx, by, ink[4], mx = (m[0] + m[2]) / 2, my = (m[1] + m[3]) / 2;
  cb_symbol_label_size(st, label, &lw, &lh);
  cb_symbol_passage_mark_ink(st, cb_map_passage_symbol(&d->passages[pi]), ink);
  lock_at lock = {{mx + ink[0], my + ink[1], mx + ink[2], my + ink[3]}, line, pi};
  label_search ls = {g, d, pr, level, lw, lh, taken, &lock, 0, 0, 0, 0, 0};
  int found = door_label_at(&ls, m, st->badge * 0.75, &bx, &by);
  /* (a key id with no place that says whose it is, found 1, could say the map is cramped too:
   * measured, it spilled 15 more of 200 cards --levels 2 sheets onto a second page) */
  if (!found) p->cramped++;
  if (found == 2) lead_to_lock(p, st, lock.padlock, bx, by, lw, lh);
  if (taken->n < taken->cap)
    taken->owner[taken->n] = -1,
    taken->at[taken->n++] = (spot){bx - lw / 2, by - lh / 2, bx + lw / 2, by + lh / 2};
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

/* Whether the card of room r, at its cell's size, has a place for each of its marks. */
static bool marks_fit(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d, const cb_room *r,
                      int col, int row) {
  geo c = card_geo(g, col, row);
  double x, y;
  card_box(&c, col, row, &x, &y);
  card_plan pl = plan_card(p, st, &c, d, r, x, y);
  return pl.placed == pl.n;
}

/* The cards' sizes: a playing card's shape in its cell, each grown into its
 * gutters, in steps, only as far as it must (never past CARD_W_MAX x
 * CARD_H_MAX of a cell) to hold its index, its number and all its marks;
 * g->grow gets the steps (left NULL when out of memory: no card grows). */
static void card_size(cb_page *p, const cb_symbols *st, geo *g, const cb_dungeon *d, const cb_cards_proc *pr,
                      int level) {
  g->cw = g->cw0 = g->cell * CARD_W, g->ch = g->ch0 = g->cell * CARD_H;
  g->cw_max = fmax(g->cw, g->cell * CARD_W_MAX), g->ch_max = fmax(g->ch, g->cell * CARD_H_MAX);
  g->pad = fmax(1.5, g->cw * 0.09);
  g->inset = fmin(g->pad, fmax(1.2, g->cw * 0.05));
  g->gw = pr->w, g->gh = pr->h;
  g->grow = cb_calloc((size_t)pr->w * (size_t)pr->h, 1);
  if (!g->grow) return;
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    int c, rw;
    room_cell(pr, r, &c, &rw);
    if ((level && r->level != level) || c < 1 || rw < 1 || c > pr->w || rw > pr->h) continue;
    unsigned char *k = &g->grow[(rw - 1) * pr->w + c - 1];
    for (*k = 0; *k < GROW_STEPS && !marks_fit(p, st, g, d, r, c, rw); (*k)++) {
    }
  }
}

double cb_cards_map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  const cb_cards_proc *pr = cb_cards_of(d);
  if (!pr || pr->w < 1 || pr->h < 1 || pr->cell_ft <= 0) return cb_map_height(d, st, level, w);
  return w / (pr->w + 0.7) * (pr->h + 0.7);
}

/* How far a door's mark at t of the way up from its lower card (lh: the
 * lower end, then the upper), reach across, keeps from the door marks
 * before it (`taken`, edge to edge, the most of its gaps across and
 * upright); -INFINITY where it touches a card of neither room. */
static double mark_gap(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, int ida,
                       int idb, const double lh[4], double t, double reach, const door_spots *taken) {
  double mx = lh[0] + (lh[2] - lh[0]) * t, my = lh[1] + (lh[3] - lh[1]) * t, gap = INFINITY;
  if (reach <= 0) return gap;
  if (on_a_card(g, d, pr, level, mx, my, reach, reach, ida, idb)) return -INFINITY;
  spot s = {mx - reach / 2, my - reach / 2, mx + reach / 2, my + reach / 2};
  for (int i = 0; i < taken->n; i++) {
    spot o = taken->at[i];
    gap = fmin(gap, fmax(fmax(o.x0 - s.x1, s.x0 - o.x1), fmax(o.y0 - s.y1, s.y0 - o.y1)));
  }
  /* another door's line through the mark: which of two crossing doors it marks would be a guess */
  double b[4] = {s.x0, s.y0, s.x1, s.y1};
  for (int i = 0; i < taken->nlines; i++) {
    const double *e = taken->lines[i];
    bool own = (fabs(e[0] - lh[0]) + fabs(e[1] - lh[1]) + fabs(e[2] - lh[2]) + fabs(e[3] - lh[3]) < 1e-6) ||
               (fabs(e[0] - lh[2]) + fabs(e[1] - lh[3]) + fabs(e[2] - lh[0]) + fabs(e[3] - lh[1]) < 1e-6);
    if (!own && cb_segment_meets_box((cb_point){e[0], e[1]}, (cb_point){e[2], e[3]}, b)) gap = fmin(gap, 0);
  }
  return gap;
}

/* How far up a diagonal door, from its lower card, the stretch that
 * carries its mark reaches (twice the mark's place along; over 1, a
 * stretch to the upper card): the first of a few places where the mark
 * keeps clear of every other card and of the door marks before it by their
 * boxes as drawn, turned with their doors (`spread` across, where `reach`
 * keeps the marks' places), so that two doors crossing in a gutter do not
 * put their marks on one spot; else the place that keeps furthest from
 * them of those clear by their reach; less than 0 (the usual stretch) when
 * none is. Upright doors' marks sit in the middle. */
static double door_stretch(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level, int ida,
                           int idb, double x1, double y1, double x2, double y2, bool diagonal, double reach,
                           double spread, const door_spots *taken) {
  /* the mark's lower half first, then the upper */
  static const double tries[] = {0.64, 0.4, 0.9, 0.28, 0.52, 0.76, 0.16, 1.36, 1.6, 1.1};
  double lh[4] = {y1 >= y2 ? x1 : x2, y1 >= y2 ? y1 : y2, y1 >= y2 ? x2 : x1, y1 >= y2 ? y2 : y1};
  if (!diagonal) return mark_gap(g, d, pr, level, ida, idb, lh, 0.5, reach, taken) >= 0.3 ? 0.5 : -0.5;
  double best = -1, most = 0.3;
  for (int k = 0; k < (int)(sizeof tries / sizeof *tries); k++) {
    double gap = mark_gap(g, d, pr, level, ida, idb, lh, tries[k] / 2, reach, taken);
    if (gap >= 0.3 + (spread - reach)) return tries[k];
    if (gap >= most) best = tries[k], most = gap + 1e-9;
  }
  return best > 0 ? best : -tries[0];
}

/* A way out of the dungeon from the card at (ac, ar) at dial position pos:
 * a stub heading for where a door to the next cell would go, halfway there
 * when a card lies there, its mark half way along. Where that spot is taken
 * (the next card's own way out, heading back) it moves along the card's
 * edge, a mark's width to either side, to the first clear spot. */
static void draw_exit(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d,
                      const cb_cards_proc *pr, const cb_passage *ps, int pos, int ac, int ar,
                      door_spots *taken, double stub_line[4], cb_symbol_set *used) {
  static const int dc[] = {0, 0, 1, 1, 0, -1, -1}, dr[] = {0, -1, -1, 1, 1, 1, -1};
  double ax, ay, ox, oy;
  anchor(g, ac, ar, pos, &ax, &ay);
  anchor(g, ac + dc[pos], ar + dr[pos], (pos + 2) % 6 + 1, &ox, &oy);
  double dx = ox - ax, dy = oy - ay, len = hypot(dx, dy);
  const cb_room *a = room_at(d, ps->from);
  double stub = card_at(d, pr, a->level, ac + dc[pos], ar + dr[pos]) ? len * 0.5 : fmax(len, g->cell * 0.32);
  cb_symbol s = cb_map_passage_symbol(ps);
  *used |= CB_SYMBOL_BIT(s);
  double sw, sh, ux = dx / len, uy = dy / len, off = 0, where = 0.5;
  cb_symbol_passage_mark(st, s, &sw, &sh);
  /* where along the stub, and how far aside (in marks), the mark may go: the middle first */
  static const double along[] = {0.5, 0.25, 0.8, 1, 0.5, 0.5, 0.25, 0.25, 0.8, 0.8},
                      aside[] = {0, 0, 0, 0, 1.1, -1.1, 1.1, -1.1, 1.1, -1.1};
  for (int k = 0; k < (int)(sizeof along / sizeof *along) && sw > 0; k++) {
    double o = aside[k] * fmax(sw, sh), sx = ax - uy * o + ux * stub * along[k],
           sy = ay + ux * o + uy * stub * along[k];
    spot c = {sx - sw / 2, sy - sh / 2, sx + sw / 2, sy + sh / 2};
    /* the mark keeps off the other cards, and a stub moved aside too, along it and at its end */
    bool clear = !on_a_card(g, d, pr, a->level, sx, sy, sw, sh, ps->from, 0);
    for (int q = 0; q <= 8 && o != 0 && clear; q++)
      clear = !on_a_card(g, d, pr, a->level, ax - uy * o + ux * stub * q / 8, ay + ux * o + uy * stub * q / 8,
                         st->line, st->line, ps->from, 0);
    for (int t = 0; t < taken->n && clear; t++)
      clear = !spots_meet(c, taken->at[t], 0.3);
    if (clear) {
      off = o, where = along[k];
      break;
    }
  }
  ax -= uy * off, ay += ux * off;
  cb_page_role(p, CB_ROLE_PASSAGE, ps->from, 0);
  cb_symbol_passage_at(p, st, s, ax, ay, ax + ux * stub, ay + uy * stub, where);
  stub_line[0] = ax, stub_line[1] = ay, stub_line[2] = ax + ux * stub, stub_line[3] = ay + uy * stub;
  double sx = ax + ux * stub * where, sy = ay + uy * stub * where;
  if (sw > 0 && taken->n < taken->cap)
    taken->owner[taken->n] = (int)(ps - d->passages),
    taken->at[taken->n++] = (spot){sx - sw / 2, sy - sh / 2, sx + sw / 2, sy + sh / 2};
}

/* The doors between cards and the ways out of the dungeon, then the key ids
 * beside the locked doors, clear of every door's mark. */
/* Where the door of passage ps between two cards of the level runs, from
 * its room's card (x1, y1) to the other's (x2, y2), into e; its dial
 * position, 0 when it is none (a way out, stairs, or not neighbours). */
static int door_ends(const geo *g, const cb_dungeon *d, const cb_cards_proc *pr, int level,
                     const cb_passage *ps, double e[4]) {
  const cb_room *a = room_at(d, ps->from), *b = room_at(d, ps->to);
  if (!a || !b || (level && a->level != level) || b->level != a->level) return 0;
  int ac, ar, bc, br;
  room_cell(pr, a, &ac, &ar);
  room_cell(pr, b, &bc, &br);
  int pos = dial_between(ac, ar, bc, br);
  if (!pos) return 0;
  anchor(g, ac, ar, pos, &e[0], &e[1]);
  anchor(g, bc, br, (pos + 2) % 6 + 1, &e[2], &e[3]);
  return pos;
}

/* The marks of the upright doors, which sit in their doors' middles
 * whatever is drawn first, into taken: the slanting doors' marks keep
 * clear of them. */
static void upright_marks(const cb_symbols *st, const geo *g, const cb_dungeon *d, const cb_cards_proc *pr,
                          int level, door_spots *taken) {
  for (int i = 0; i < d->npassages && taken->n < taken->cap; i++) {
    double e[4], mw, mh;
    int pos = door_ends(g, d, pr, level, &d->passages[i], e);
    if (pos != 1 && pos != 4) continue;
    cb_symbol_passage_mark(st, cb_map_passage_symbol(&d->passages[i]), &mw, &mh);
    double reach = fmax(mw, mh) * 0.75, mx = (e[0] + e[2]) / 2, my = (e[1] + e[3]) / 2;
    if (reach > 0)
      taken->owner[taken->n] = i,
      taken->at[taken->n++] = (spot){mx - reach / 2, my - reach / 2, mx + reach / 2, my + reach / 2};
  }
}

static void draw_doors(cb_page *p, const cb_symbols *st, const geo *g, const cb_dungeon *d,
                       const cb_cards_proc *pr, int level, cb_symbol_set *used) {
  door_spots taken = {cb_calloc((size_t)d->npassages * 3 + 1, sizeof(spot)),
                      cb_calloc((size_t)d->npassages * 3 + 1, sizeof(int)),
                      0,
                      d->npassages * 3,
                      NULL,
                      0};
  int *locked = cb_calloc((size_t)d->npassages + 1, sizeof *locked), nlocked = 0;
  double(*at)[4] = cb_calloc((size_t)d->npassages + 1, sizeof *at),
  (*lines)[4] = cb_calloc((size_t)d->npassages + 1, sizeof *lines);
  /* how much wider than its reach each slanting door's mark is drawn (its spot in taken) */
  double *wider = cb_calloc((size_t)d->npassages * 3 + 1, sizeof *wider);
  int *line_of = cb_calloc((size_t)d->npassages + 1, sizeof *line_of), nstubs = 0; /* each door's in lines */
  double(*stubs)[4] = cb_calloc((size_t)d->npassages + 1, sizeof *stubs); /* the ways out of the dungeon */
  if (!taken.at || !taken.owner || !locked || !at || !wider || !lines || !line_of || !stubs) {
    p->oom = true;
    goto done;
  }
  taken.lines = (const double(*)[4])lines;
  /* every door's line first, so that a mark keeps off the lines of doors drawn after it too */
  for (int i = 0; i < d->npassages; i++)
    if (door_ends(g, d, pr, level, &d->passages[i], lines[taken.nlines])) line_of[i] = taken.nlines++;
  upright_marks(st, g, d, pr, level, &taken);
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
      draw_exit(p, st, g, d, pr, ps, pos, ac, ar, &taken, stubs[nstubs++], used);
      continue;
    }
    double e[4];
    int pos = door_ends(g, d, pr, level, ps, e); /* none for stairs: marked on both rooms */
    if (!pos) continue;
    double x1 = e[0], y1 = e[1], x2 = e[2], y2 = e[3];
    cb_symbol s = cb_map_passage_symbol(ps);
    *used |= CB_SYMBOL_BIT(s);
    cb_page_role(p, CB_ROLE_PASSAGE, ps->from, ps->to);
    double m[4], mw, mh;
    cb_symbol_passage_mark(st, s, &mw, &mh);
    bool diagonal = pos != 1 && pos != 4;
    /* the mark, turned along its door; a slanting one's box on the page reaches as far as its longer side
     * (two on the diagonals crossing in a gutter must not share a spot) */
    double reach = fmax(mw, mh) * 0.75, spread = diagonal ? fmax(mw, mh) : reach;
    double f = door_stretch(g, d, pr, level, a->id, b->id, x1, y1, x2, y2, diagonal, reach, spread, &taken);
    if (f < 0) p->cramped++; /* a door's mark reaching another card or door: the map is too small */
    draw_door(p, st, s, x1, y1, x2, y2, diagonal, fabs(f), m);
    double mx = (m[0] + m[2]) / 2, my = (m[1] + m[3]) / 2;
    if (reach > 0 && taken.n < taken.cap)
      wider[taken.n] = (spread - reach) / 2, taken.owner[taken.n] = i,
      taken.at[taken.n++] = (spot){mx - reach / 2, my - reach / 2, mx + reach / 2, my + reach / 2};
    if (ps->lock) locked[nlocked++] = i, memcpy(at[i], m, sizeof m);
  }
  /* the key ids keep clear of the doors' marks as drawn, and of their lines (taken.lines) and
   * the ways out's (a door and its way out are one passage each: lines has room for both) */
  for (int k = 0; k < nstubs; k++)
    memcpy(lines[taken.nlines++], stubs[k], sizeof *stubs);
  for (int k = 0; k < taken.n; k++)
    taken.at[k] = (spot){taken.at[k].x0 - wider[k], taken.at[k].y0 - wider[k], taken.at[k].x1 + wider[k],
                         taken.at[k].y1 + wider[k]};
  for (int k = 0; k < nlocked; k++) {
    const cb_passage *ps = &d->passages[locked[k]];
    cb_page_role(p, CB_ROLE_PASSAGE, ps->from, ps->to);
    door_label(p, st, g, d, pr, level, locked[k], at[locked[k]], lines[line_of[locked[k]]], &taken);
  }
done:
  free(taken.at);
  free(taken.owner);
  free(locked);
  free(at);
  free(lines);
  free(wider);
  free(line_of);
  free(stubs);
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
  cb_symbols st = *st0;
  st.badge = fmin(st0->badge, g.cell * 0.16);
  st.line = fmin(st0->line, fmax(0.4, g.cell * 0.014));
  st.label = fmin(st0->label, fmax(5.0, g.cell * 0.11));
  g.mark = st;
  g.mark.badge = fmax(MIN_BADGE, st.badge);
  g.x0 = x + (w - pr->w * g.cell) / 2;
  g.y0 = y + (h - pr->h * g.cell) / 2;
  g.digits = 1;
  for (int i = 0; i < d->nrooms; i++) {
    int k = 1;
    for (int n = d->rooms[i].number; n >= 10; n /= 10)
      k++;
    if (k > g.digits) g.digits = k;
  }
  card_size(p, &st, &g, d, pr, level);

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

  draw_doors(p, &st, &g, d, pr, level, used);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (level && r->level != level) continue;
    int c, rw;
    room_cell(pr, r, &c, &rw);
    double cx, cy;
    geo cg = card_geo(&g, c, rw);
    card_box(&cg, c, rw, &cx, &cy);
    card_plan pl = plan_card(p, &st, &cg, d, r, cx, cy);
    cb_page_role(p, CB_ROLE_ROOM, r->id, 0);
    draw_card(p, &st, &cg, r, &pl, c, rw);
    cb_page_role(p, CB_ROLE_ROOM_MARK, r->id, 0);
    draw_marks(p, &cg, &pl, used);
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
  free(g.grow);
}

/* What cards draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_cards_layout = {.map = {cb_cards_map, cb_cards_map_height}};
