#include "map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "geom/boxgrid.h"
#include "geom/segment.h"
#include "page/flow.h"
#include "place.h"

static const double ROOM_MAX_R = 14.0, ROOM_MIN_R = 7.5, NUMBER_SIZE = 10.0;

static cb_symbol kind_symbol(cb_passage_kind kind) {
  switch (kind) {
  case CB_PASSAGE_DOOR: return CB_SYM_DOOR;
  case CB_PASSAGE_OPEN: return CB_SYM_OPEN;
  case CB_PASSAGE_STAIRS: return CB_SYM_STAIRS;
  case CB_PASSAGE_LADDER: return CB_SYM_LADDER;
  case CB_PASSAGE_PORTAL: return CB_SYM_PORTAL;
  default: return CB_SYM_PATH;
  }
}

int cb_map_passage_symbols(const cb_passage *ps, cb_symbol *out) {
  /* the flag that changes play the most first: it takes the middle */
  static const struct {
    unsigned flag;
    cb_symbol sym;
  } by_flag[] = {{CB_FLAG_LOCKED, CB_SYM_LOCKED},       {CB_FLAG_SECRET, CB_SYM_SECRET},
                 {CB_FLAG_DEAD_END, CB_SYM_DEAD_END},   {CB_FLAG_ONE_WAY, CB_SYM_ONE_WAY},
                 {CB_FLAG_CONCEALED, CB_SYM_CONCEALED}, {CB_FLAG_SOFT_LOCKED, CB_SYM_SOFT_LOCKED},
                 {CB_FLAG_TRAPPED, CB_SYM_TRAPPED},     {CB_FLAG_OBSTRUCTED, CB_SYM_OBSTRUCTED},
                 {CB_FLAG_UNDER, CB_SYM_UNDER},         {CB_FLAG_OVER, CB_SYM_OVER}};
  int n = 0;
  for (size_t i = 0; i < sizeof by_flag / sizeof *by_flag && n < CB_PASSAGE_KINDS; i++)
    if (ps->flags & by_flag[i].flag) out[n++] = by_flag[i].sym;
  /* a way's own kind: always when it has no flag, and stairs, ladders and
   * portals beside flags too (a locked stair is still a stair) */
  cb_symbol k = kind_symbol(ps->kind);
  if (n < CB_PASSAGE_KINDS && (!n || k == CB_SYM_STAIRS || k == CB_SYM_LADDER || k == CB_SYM_PORTAL))
    out[n++] = k;
  return n;
}

cb_symbol cb_map_passage_symbol(const cb_passage *ps) {
  cb_symbol s[CB_PASSAGE_KINDS];
  cb_map_passage_symbols(ps, s);
  return s[0];
}

typedef struct view {
  double scale, ox, oy, minx, miny;
} view;

static double vx(const view *v, double x) { return v->ox + (x - v->minx) * v->scale; }
static double vy(const view *v, double y) { return v->oy + (y - v->miny) * v->scale; }

/* Room radius: half a die where the procedure has dice, else from the
 * closest pair of rooms; clamped so numbers stay legible. */
static double room_radius(const cb_dungeon *d, const view *v, int level) {
  double r = ROOM_MAX_R;
  if (d->room_ft > 0) {
    r = d->room_ft / 2 * v->scale;
  } else {
    double best = INFINITY;
    for (int i = 0; i < d->nrooms && d->nrooms <= 4000; i++)
      for (int j = i + 1; j < d->nrooms; j++) {
        if (level && (d->rooms[i].level != level || d->rooms[j].level != level)) continue;
        best = fmin(best, hypot(d->rooms[i].x - d->rooms[j].x, d->rooms[i].y - d->rooms[j].y));
      }
    if (isfinite(best)) r = best * v->scale * 0.4;
  }
  return fmax(ROOM_MIN_R, fmin(ROOM_MAX_R, r));
}

typedef cb_map_mark mark;
enum { MAX_MARKS = CB_MAP_MAX_MARKS };

/* The marks of r's ways off its level, after the n marks in out: stairs to
 * another level (with the padlock and key id at both ends of locked ones:
 * the key names the lock in both rooms), and one for its stairs (or
 * ladders) out of the dungeon; its other ways out are the procedure's to
 * mark (the surface tag). */
static int ways_away(cb_page *p, const cb_dungeon *d, const cb_room *r, cb_map_mark *out, int n) {
  bool out_marked = false;
  for (int i = 0; i < d->npassages && n < MAX_MARKS; i++) {
    const cb_passage *ps = &d->passages[i];
    if ((ps->from != r->id && ps->to != r->id) || ps->from == ps->to) continue;
    int other = ps->from == r->id ? ps->to : ps->from;
    const cb_room *o = other ? cb_dungeon_room(d, other) : NULL;
    bool climbs = ps->kind == CB_PASSAGE_STAIRS || ps->kind == CB_PASSAGE_LADDER;
    if (!o && climbs && !out_marked) out[n++] = (mark){CB_SYM_STAIRS_AWAY, NULL}, out_marked = true;
    if (!o || o->level == r->level) continue;
    bool locked = (ps->flags & CB_FLAG_LOCKED) && ps->lock;
    const char *to = locked ? cb_arena_printf(p->arena, "L%d %s", o->level, ps->lock)
                            : cb_arena_printf(p->arena, "L%d", o->level);
    if (!to) p->oom = true;
    out[n++] = (mark){CB_SYM_STAIRS_AWAY, to};
  }
  return n;
}

/* Whether treasure t is the key object of one of r's keys ("K1: the sexton's key"): its K badge shows
 * it already. */
static bool key_object(const cb_room *r, const cb_treasure *t) {
  for (int k = 0; k < r->nkeys; k++) {
    size_t n = strlen(r->keys[k]);
    if (t->what && !strncmp(t->what, r->keys[k], n) && t->what[n] == ':') return true;
  }
  return false;
}

/* Where the procedure leaves a room's contents to the stocking's odds, the marks those contents earn:
 * an encounter for monsters the boss's badge does not stand for, treasure beyond the goal's prize and
 * the room's key objects. Where the procedure marks rooms, its tags stand alone. */
static unsigned stocked_tags(const cb_dungeon *d, const cb_room *r) {
  const cb_contents *c = r->contents;
  if (d->marks_rooms || !c || (r->tags & CB_TAG_GOAL)) return 0;
  unsigned t = c->nmonsters && d->boss_room != r->id ? CB_TAG_ENCOUNTER : 0;
  for (int i = 0; i < c->ntreasure; i++)
    if (!key_object(r, &c->treasure[i])) t |= CB_TAG_TREASURE;
  return t;
}

int cb_map_room_marks(cb_page *p, const cb_dungeon *d, const cb_room *r, cb_map_mark *out) {
  static const struct {
    unsigned tag;
    cb_symbol sym;
  } by_tag[] = {{CB_TAG_ENTRANCE, CB_SYM_ENTRANCE},
                {CB_TAG_GOAL, CB_SYM_GOAL},
                {CB_TAG_BOSS, CB_SYM_BOSS},
                {CB_TAG_ENCOUNTER, CB_SYM_ENCOUNTER},
                {CB_TAG_TREASURE, CB_SYM_TREASURE},
                {CB_TAG_SURFACE_EXIT, CB_SYM_SURFACE_EXIT},
                {CB_TAG_UNREACHABLE, CB_SYM_UNREACHABLE}};
  int n = 0;
  if (r->tags & CB_TAG_MAIN_START)
    out[n++] = (mark){CB_SYM_MAIN_START, NULL};
  else if (r->tags & CB_TAG_START)
    out[n++] = (mark){CB_SYM_START, NULL};
  /* the boss where the stocking put it, in the goal room where the procedure names no boss room: one
   * badge, "G B", so that the two stay together */
  bool held = d->boss_room && d->boss_room == r->id && !(r->tags & CB_TAG_BOSS) && (r->tags & CB_TAG_GOAL);
  unsigned tags = r->tags | stocked_tags(d, r);
  for (size_t i = 0; i < sizeof by_tag / sizeof *by_tag; i++)
    if (tags & by_tag[i].tag)
      out[n++] = (mark){by_tag[i].sym, held && by_tag[i].sym == CB_SYM_GOAL ? CB_MAP_GOAL_AND_BOSS : NULL};
  for (int k = 0; k < r->nkeys && n < MAX_MARKS; k++)
    out[n++] = (mark){CB_SYM_KEY, r->keys[k]};
  return p ? ways_away(p, d, r, out, n) : n;
}

cb_symbol_set cb_map_mark_symbols(const cb_map_mark *m) {
  bool locked = m->sym == CB_SYM_STAIRS_AWAY && m->text && strchr(m->text, ' ');
  bool boss = m->sym == CB_SYM_GOAL && m->text;
  return CB_SYMBOL_BIT(m->sym) | (locked ? CB_SYMBOL_BIT(CB_SYM_LOCKED) : 0) |
         (boss ? CB_SYMBOL_BIT(CB_SYM_BOSS) : 0);
}

/* On a drawn graph (rooms are not dice: battleships' crowded level panels) a room's encounter and
 * treasure share one spot: the treasure's disc half over the encounter's, a badge and four fifths
 * wide where the two side by side took two and a gap (issue 22). */
static const char PAIR[] = "? $";
static const double PAIR_STEP = 0.8; /* the discs' centres apart, in badges */

static bool paired(const mark *m) { return m->sym == CB_SYM_ENCOUNTER && m->text == PAIR; }

/* cb_map_room_marks, an encounter and treasure made one mark where they pair. */
static int map_marks(cb_page *p, const cb_dungeon *d, const cb_room *r, mark *out) {
  int n = cb_map_room_marks(p, d, r, out);
  for (int k = 0; d->room_ft <= 0 && k + 1 < n; k++)
    if (out[k].sym == CB_SYM_ENCOUNTER && !out[k].text && out[k + 1].sym == CB_SYM_TREASURE) {
      out[k].text = PAIR;
      memmove(&out[k + 1], &out[k + 2], (size_t)(n - k - 2) * sizeof *out);
      return n - 1;
    }
  return n;
}

static double mark_width(const cb_symbols *st, const mark *m) {
  return paired(m) ? st->badge * (1 + PAIR_STEP) : cb_symbol_badge_width(st, m->sym, m->text);
}

/* Mark m centred at (x, y), its symbols into *used. */
static void draw_mark(cb_page *p, const cb_symbols *st, const mark *m, double x, double y,
                      cb_symbol_set *used) {
  if (!paired(m)) {
    cb_symbol_badge(p, st, m->sym, m->text, x, y);
    *used |= cb_map_mark_symbols(m);
    return;
  }
  double half = st->badge * PAIR_STEP / 2;
  cb_symbol_badge(p, st, CB_SYM_ENCOUNTER, NULL, x - half, y);
  cb_symbol_badge(p, st, CB_SYM_TREASURE, NULL, x + half, y);
  *used |= CB_SYMBOL_BIT(CB_SYM_ENCOUNTER) | CB_SYMBOL_BIT(CB_SYM_TREASURE);
}

static int angle_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The middle of the widest gap between the passages leaving a room. */
static double free_direction(const cb_dungeon *d, const cb_room *r, double *gap_out) {
  double ang[64];
  int n = 0;
  for (int i = 0; i < d->npassages && n < 64; i++) {
    const cb_passage *ps = &d->passages[i];
    int other = ps->from == r->id ? ps->to : ps->to == r->id ? ps->from : 0;
    const cb_room *o = other ? cb_dungeon_room(d, other) : NULL;
    if (!o || o->level != r->level) continue;
    ang[n++] = atan2(o->y - r->y, o->x - r->x);
  }
  if (n == 0) {
    *gap_out = 2 * CB_PI;
    return -CB_PI / 4; /* up and to the right */
  }
  qsort(ang, (size_t)n, sizeof *ang, angle_cmp);
  double best = -1, dir = 0;
  for (int i = 0; i < n; i++) {
    double a = ang[i], b = i + 1 < n ? ang[i + 1] : ang[0] + 2 * CB_PI, gap = b - a;
    if (gap > best + 1e-9) best = gap, dir = a + gap / 2;
  }
  *gap_out = best;
  return dir;
}

/* True when (dx, dy) is certainly at least r long, found without hypot (the
 * dear part of a sheet's trial drawings): the margin is far wider than the
 * rounding of the squares, so that hypot decides every case near r. */
static bool surely_apart(double dx, double dy, double r) { return dx * dx + dy * dy > r * r * (1 + 1e-9); }

typedef struct drawn_passage {
  const cb_passage *ps;
  cb_symbol kinds[CB_PASSAGE_KINDS]; /* cb_map_passage_symbols */
  int nkinds;
  double x0, y0, x1, y1;
} drawn_passage;

/* One mark cluster: the marks in a row (or a column), and where it goes. */
typedef struct cluster {
  int n;
  mark marks[MAX_MARKS];
  double widths[MAX_MARKS];
  /* the rooms drawn beside it: a mark must sit nearer its own room than any other */
  const cb_dungeon *d;
  int level, self;
  const double *px, *py;
  double rr;    /* the rooms' radius */
  cb_box frame; /* the map's frame: on a map of dice no badge leaves it while a spot inside is left */
  const drawn_passage *dp; /* the level's passages, which a leader to the marks should not cross */
  int ndp;
  struct near_index *near; /* the passages and rooms filed by where they lie (near_in) */
  double cover;            /* cb_map_panel's: what covering another room or its marks costs, 0 as usual */
  double far;              /* how far off its room's rim a badge is not plainly its own (0: any way) */
  double beside[2];        /* cb_map_panel's: the placer does not see the rooms of the panels beside it */
} cluster;

/* The level's passages (by their boxes) and rooms (by their centres) filed in grids, so that a spot's
 * tests read those near it alone, and the ids a search found. */
typedef struct near_index {
  cb_boxgrid *passages, *rooms;
  int *ids;
  size_t cap;
} near_index;

/* Up to this many, reading them all costs less than asking the grid. */
enum { NEAR_LIST = 48 };

/* How many ids filed in g lie near box (x0, y0, x1, y1), into *ids; *ids NULL for all ids 0..all-1
 * (for a few, without a grid, or on running out of memory: the same tests, slower). */
static int near_in(const cluster *c, cb_boxgrid *g, int all, double x0, double y0, double x1, double y1,
                   const int **ids) {
  near_index *ni = c->near;
  int n = g && all > NEAR_LIST ? cb_boxgrid_find(g, x0, y0, x1, y1, &ni->ids, &ni->cap) : -1;
  *ids = n >= 0 ? ni->ids : NULL;
  return n >= 0 ? n : all;
}

static const double ANGLES = 24; /* candidate directions around a room */
static const int FAR_RINGS = 6;  /* how far out a stray tries, for a leader clear of the ways */
static const double GRID_STEP = 0.5,
                    GRID_REACH = 4.5; /* on_grid's step, and how far out it reaches, in badges */
/* What a spot costs beyond what it covers: a badge over another room's passage (worse than a stray,
 * which a leader makes plain), a leader across a passage or a room (less: a hairline hides nothing),
 * and a stray by its room where no leader fits between (worst: nothing says whose it is). */
static const double LINE_UNDER = 300, LEADER_CROSSING = 100, NO_LEADER = 1000;
/* ... and, in a crowded panel (cb_map_panel.cover), one across its own room's way (more than a stray,
 * a little less than over another room's mark: it reads as the way's mark) */
static const double OWN_UNDER = 190;
/* On a drawn graph a badge this many badges off its room's rim is not plainly its own (issue 22: a
 * long row's far end, nearer a room of the next level's panel than its own) */
static const double FAR_OFF = 2.5;
/* How near straying a badge is led to its room all the same, in points (and a badge FAR_OFF with it) */
static const double LEAD_SPARE = 6;

/* Whether a badge centred at (mx, my) lies nearer another room of the level
 * than its own (all rooms have radius rr, so centre distances compare). */
static bool strays_by(const cluster *c, double mx, double my, double spare) {
  double own = hypot(mx - c->px[c->self], my - c->py[c->self]), near = own + spare;
  if (c->far > 0 && spare >= LEAD_SPARE && own - c->rr > c->far) return true;
  if ((c->beside[0] > 0 && mx - c->frame.x0 + c->beside[0] < own) ||
      (c->beside[1] > 0 && c->frame.x1 - mx + c->beside[1] < own))
    return true;
  const int *ids;
  int n = near_in(c, c->near->rooms, c->d->nrooms, mx - near - 1, my - near - 1, mx + near + 1, my + near + 1,
                  &ids);
  for (int k = 0; k < n; k++) {
    int i = ids ? ids[k] : k;
    if (i != c->self && (!c->level || c->d->rooms[i].level == c->level) &&
        !surely_apart(mx - c->px[i], my - c->py[i], near) && hypot(mx - c->px[i], my - c->py[i]) < near)
      return true;
  }
  return false;
}

/* Whether a badge w wide (h high) centred at (mx, my) strays: its middle,
 * or a wide one's either end (a long stairs badge reaches well past its
 * middle towards another room), or either disc of a pair. */
static bool badge_strays(const cluster *c, double mx, double my, double w, double h, double spare,
                         bool pair) {
  double end = fmax(0, (w - h) / 2);
  return strays_by(c, mx, my, spare) ||
         ((pair || end > h / 2) && (strays_by(c, mx - end, my, spare) || strays_by(c, mx + end, my, spare)));
}

/* The badges of a row or column of marks centred at (bx, by): how many
 * stray, or sit within `spare` of it. */
static int strays_in(const cluster *c, double bx, double by, double bw, double bh, int column, double h,
                     double gap, double spare) {
  int n = 0;
  double x = bx - bw / 2, y = by - bh / 2;
  for (int k = 0; k < c->n; k++) {
    n += badge_strays(c, column ? bx : x + c->widths[k] / 2, column ? y + h / 2 : by, c->widths[k], h, spare,
                      paired(&c->marks[k]));
    if (column)
      y += h + gap;
    else
      x += c->widths[k] + gap;
  }
  return n;
}

/* Where a hairline from the room's circle (centre cx, cy, radius rr) to its
 * marks' box (bw x bh at bx, by) runs, into e (x0, y0, x1, y1): from just
 * outside the circle to just short of the box; false when they touch. */
static bool leader_ends(const cb_symbols *st, double cx, double cy, double rr, double bx, double by,
                        double bw, double bh, double *e) {
  double dx = bx - cx, dy = by - cy, len = hypot(dx, dy);
  if (!(len > 0)) return false;
  double ux = dx / len, uy = dy / len;
  /* where the line from the box's centre toward the room leaves the box */
  double out =
      fmin(fabs(ux) > 1e-9 ? bw / 2 / fabs(ux) : INFINITY, fabs(uy) > 1e-9 ? bh / 2 / fabs(uy) : INFINITY);
  double from = rr + st->line, to = len - out - 1;
  if (to - from < 2) return false; /* touching already */
  e[0] = cx + ux * from, e[1] = cy + uy * from, e[2] = cx + ux * to, e[3] = cy + uy * to;
  return true;
}

/* A hairline from the room's circle to its marks' box, for marks that found
 * no spot nearer their own room than another's: the line says whose they
 * are, as a map's leader does. */
static void lead(cb_page *p, const cb_symbols *st, cb_place *pl, double cx, double cy, double rr, double bx,
                 double by, double bw, double bh) {
  double e[4];
  if (!leader_ends(st, cx, cy, rr, bx, by, bw, bh, e)) return;
  cb_page_move(p, e[0], e[1]);
  cb_page_line(p, e[2], e[3]);
  cb_ink ink = cb_ink_stroke(st->ink, 0.4);
  cb_page_ink(p, &ink);
  if (cb_place_segment(pl, e[0], e[1], e[2], e[3], 0.5)) p->oom = true;
}

/* Which side of line a-b point (x, y) lies on: -1, 0 or 1. */
static int side_of(double ax, double ay, double bx, double by, double x, double y) {
  double z = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
  return (z > 0) - (z < 0);
}

/* How many passages of other rooms, and other rooms, a leader from room c->self's circle to the marks'
 * box at (bx, by) would cross (a leader across a way leads the eye down it); -1 when the box touches
 * the room, and no leader fits. */
static int leader_crossings(const cluster *c, const cb_symbols *st, double bx, double by, double bw,
                            double bh) {
  double e[4], cx = c->px[c->self], cy = c->py[c->self];
  if (!leader_ends(st, cx, cy, c->rr, bx, by, bw, bh, e)) return -1;
  const int *ids;
  int n = 0, id = c->d->rooms[c->self].id,
      found = near_in(c, c->near->passages, c->ndp, fmin(e[0], e[2]) - 1, fmin(e[1], e[3]) - 1,
                      fmax(e[0], e[2]) + 1, fmax(e[1], e[3]) + 1, &ids);
  for (int k = 0; k < found; k++) {
    const drawn_passage *q = &c->dp[ids ? ids[k] : k];
    if (q->ps->from == id || q->ps->to == id) continue;
    n +=
        side_of(e[0], e[1], e[2], e[3], q->x0, q->y0) * side_of(e[0], e[1], e[2], e[3], q->x1, q->y1) < 0 &&
        side_of(q->x0, q->y0, q->x1, q->y1, e[0], e[1]) * side_of(q->x0, q->y0, q->x1, q->y1, e[2], e[3]) < 0;
  }
  double lx = e[2] - e[0], ly = e[3] - e[1], len2 = lx * lx + ly * ly;
  found = len2 > 0 ? near_in(c, c->near->rooms, c->d->nrooms, fmin(e[0], e[2]) - c->rr - 1,
                             fmin(e[1], e[3]) - c->rr - 1, fmax(e[0], e[2]) + c->rr + 1,
                             fmax(e[1], e[3]) + c->rr + 1, &ids)
                   : 0;
  for (int k = 0; k < found; k++) {
    int i = ids ? ids[k] : k;
    if (i == c->self || (c->level && c->d->rooms[i].level != c->level)) continue;
    double t = fmin(1, fmax(0, ((c->px[i] - e[0]) * lx + (c->py[i] - e[1]) * ly) / len2));
    n += hypot(e[0] + t * lx - c->px[i], e[1] + t * ly - c->py[i]) < c->rr;
  }
  return n;
}

/* How many passages of other rooms run under a box of marks bw x bh at (bx, by), `clear` round it;
 * *own (when not NULL) gets how many of its own room's. */
static int ways_under(const cluster *c, double bx, double by, double bw, double bh, double clear, int *own) {
  double b[4] = {bx - bw / 2 - clear, by - bh / 2 - clear, bx + bw / 2 + clear, by + bh / 2 + clear};
  const int *ids;
  int n = 0, id = c->d->rooms[c->self].id,
      found = near_in(c, c->near->passages, c->ndp, b[0] - 1, b[1] - 1, b[2] + 1, b[3] + 1, &ids);
  if (own) *own = 0;
  for (int k = 0; k < found; k++) {
    const drawn_passage *q = &c->dp[ids ? ids[k] : k];
    bool mine = q->ps->from == id || q->ps->to == id;
    if (mine && !own) continue;
    int meets = cb_segment_meets_box((cb_point){q->x0, q->y0}, (cb_point){q->x1, q->y1}, b);
    if (mine)
      *own += meets;
    else
      n += meets;
  }
  return n;
}

static int passages_under(const cluster *c, double bx, double by, double bw, double bh, double clear) {
  return ways_under(c, bx, by, bw, bh, clear, NULL);
}

/* A room number's size in a circle of radius rr. */
static double number_size(double rr) { return fmax(8, fmin(NUMBER_SIZE, rr * 1.05)); }

/* A room's number as map_rooms draws it at (cx, cy): its box, grown by a point. */
static cb_box number_box(const cb_symbols *st, const cb_room *r, double cx, double cy, double rr) {
  char num[16];
  snprintf(num, sizeof num, "%d", r->number);
  double size = number_size(rr), tw = cb_text_width(st->m, CB_FONT_BOLD, size, num);
  return cb_box_grow(cb_box_centered(cx, cy - size * 0.02, tw, size * 0.72), 1);
}

/* The shapes a room's marks can take: a row's box (0) and a column's (1); one badge's height, the
 * gap between badges, and what a stray costs. */
typedef struct shapes {
  double w[2], h[2], badge, gap, stray_cost;
} shapes;

/* Whether the circle (cx, cy, r) meets box b. */
static bool circle_meets_box(double cx, double cy, double r, cb_box b) {
  double nx = fmax(b.x0, fmin(cx, b.x1)), ny = fmax(b.y0, fmin(cy, b.y1));
  return (nx - cx) * (nx - cx) + (ny - cy) * (ny - cy) < r * r;
}

/* A spot for a room's marks and what it costs. */
typedef struct spot {
  double cost, x, y;
} spot;

/* A badge on its room's rim costs more than one clear beside it; its middle is nearer its own room
 * than any other by RIM_MARGIN points (more than a circle's rim lies off its square's, at a corner). */
static const double RIM_SPOT = 40, RIM_MARGIN = 6;
/* ... and it covers no more than what cb_place_cost charges for a few lines (its own room's ways, a
 * leader): no other room, no other mark. */
static const double RIM_OVER = 99;

/* The best spot for a room's one badge (w wide, h high) astride the room's own rim, clear of its
 * number (issue 22): for a room boxed in by its ways, where a leader to a spot off the room would
 * cross one. Its middle is nearer its own room than any other by a margin (so that it is plainly the
 * room's without a leader), and no other room's way runs under it (a shield's point reaches below
 * its box); what it covers but its own room
 * is its cost. */
static spot on_rim(const cluster *c, const cb_symbols *st, cb_place *pl, double cx, double cy, double rr,
                   double dir, double w, double h) {
  static const double out[] = {0.6, 0.3, 0,
                               -0.3}; /* how far its middle lies out from the rim, in its reach */
  cb_box digits = number_box(st, &c->d->rooms[c->self], cx, cy, rr);
  spot best = {INFINITY, cx, cy};
  for (int i = 0; i < 2 * ANGLES; i++)
    for (int k = 0; k < 4; k++) {
      double a = dir + CB_PI * i / ANGLES, ca = cos(a), sa = sin(a),
             d = rr + (fabs(ca) * w / 2 + fabs(sa) * h / 2) * out[k], x = cx + ca * d, y = cy + sa * d;
      cb_box b = cb_box_centered(x, y, w, h);
      if (b.x0 < digits.x1 && digits.x0 < b.x1 && b.y0 < digits.y1 && digits.y0 < b.y1) continue;
      double over = cb_place_cost_beside(pl, cb_box_grow(b, 0.8), cx, cy),
             cost = RIM_SPOT + k + (1 - cos(a - dir)) + over;
      if (over < RIM_OVER && cost < best.cost - 1e-9 &&
          !passages_under(c, x, y, w, h, st->line / 2 + h * 0.15) && !strays_by(c, x, y, RIM_MARGIN) &&
          !badge_strays(c, x, y, w, h, 1.5, paired(&c->marks[0])))
        best = (spot){cost, x, y};
    }
  return best;
}

/* What a spot for the marks (as a row, or with `col` a column, centred at (px, py)) costs beyond
 * `shape` (how far it lies from the best direction and the room), INFINITY-ish once it reaches
 * `best`: what it covers, other rooms' ways under it, and where it strays, a stray (double
 * `beside` its room, where no leader fits between) and its leader's crossings. Sets *strays. */
static double spot_cost(const cluster *c, const cb_symbols *st, cb_place *pl, const shapes *sh, int col,
                        double px, double py, double shape, bool beside, double best, int *strays) {
  double bw = sh->w[col], bh = sh->h[col], cost = shape;
  *strays = 0;
  if (cost >= best - 1e-9) return cost;
  cb_box box = cb_box_grow(cb_box_centered(px, py, bw, bh), 0.8);
  cost += c->cover > 0 ? cb_place_cost_covering(pl, box, c->cover) : cb_place_cost(pl, box);
  if (cost >= best - 1e-9) return cost;
  /* in a crowded panel (cover) its own room's ways too: a badge across one reads as the way's mark */
  int own = 0;
  cost +=
      LINE_UNDER * ways_under(c, px, py, bw, bh, st->line / 2, c->cover > 0 ? &own : NULL) + OWN_UNDER * own;
  if (cost >= best - 1e-9) return cost;
  int n =
      strays_in(c, px, py, bw, bh, col, sh->badge, sh->gap, 1.5); /* a shield's body sits off its centre */
  /* worse than touching a room; and next to the room, where no leader fits between, worse again */
  cost += sh->stray_cost * n * (beside ? 2 : 1);
  /* the leader it would have (see place_marks) */
  if (n || (c->d->room_ft <= 0 && cost < best - 1e-9 &&
            strays_in(c, px, py, bw, bh, col, sh->badge, sh->gap, LEAD_SPARE))) {
    int crossed = leader_crossings(c, st, px, py, bw, bh);
    cost += crossed < 0 ? NO_LEADER * n : LEADER_CROSSING * crossed;
  }
  if (c->d->room_ft > 0 && (px - bw / 2 < c->frame.x0 || px + bw / 2 > c->frame.x1 ||
                            py - bh / 2 < c->frame.y0 || py + bh / 2 > c->frame.y1))
    cost += 1e5;
  *strays = n;
  return cost;
}

/* Where the marks go and what that costs: their box's centre, row or column, how many stray. */
typedef struct placed {
  double cost, x, y;
  int col, strays;
} placed;

/* The best spot on rings round the room (cx, cy): every direction, close in first, as a row or as a
 * column; prefers the direction `dir` (the widest gap between its passages). */
static placed on_rings(const cluster *c, const cb_symbols *st, cb_place *pl, const shapes *sh, double cx,
                       double cy, double rr, double dir) {
  placed best = {INFINITY, cx, cy, 0, 0};
  /* close in first; once a ring has a spot that covers nothing, the rings
   * further out (which only cost more) need not be tried */
  for (int ring = 0; ring < (best.cost >= sh->stray_cost ? FAR_RINGS : 3) && best.cost >= 10; ring++)
    for (int col = 0; col < (c->n > 1 ? 2 : 1); col++)
      for (int i = 0; i < ANGLES; i++) {
        double a = dir + 2 * CB_PI * i / ANGLES, ca = cos(a), sa = sin(a),
               reach = fabs(ca) * sh->w[col] / 2 + fabs(sa) * sh->h[col] / 2,
               d = rr + st->line + 1.5 + reach + ring * sh->badge * 0.9, px = cx + ca * d, py = cy + sa * d;
        /* the terms are never negative: a spot whose first terms already
         * cost the best so far need not be looked at further */
        int n;
        double cost = spot_cost(c, st, pl, sh, col, px, py, ring * 2 + col * 1.5 + (1 - cos(a - dir)),
                                ring == 0, best.cost, &n);
        if (cost < best.cost - 1e-9) best = (placed){cost, px, py, col, n};
      }
  return best;
}

/* The best spot on a grid of half a badge round the room, out as far as the rings reach, clear of
 * the room (issue 22): for marks whose spot on the rings has a leader across another room's way,
 * where a spot between the rings or the directions may lead clear. */
static placed on_grid(const cluster *c, const cb_symbols *st, cb_place *pl, const shapes *sh, double cx,
                      double cy, double rr, double best_cost) {
  placed best = {best_cost, cx, cy, 0, 0};
  double step = sh->badge * GRID_STEP, far = rr + GRID_REACH * sh->badge;
  int n = (int)(far / step);
  for (int col = 0; col < (c->n > 1 ? 2 : 1); col++)
    for (int gy = -n; gy <= n; gy++)
      for (int gx = -n; gx <= n; gx++) {
        double px = cx + gx * step, py = cy + gy * step, dist = hypot(px - cx, py - cy);
        if (dist > far + sh->w[col] / 2 ||
            circle_meets_box(cx, cy, rr + st->line + 1.5, cb_box_centered(px, py, sh->w[col], sh->h[col])))
          continue;
        int strays;
        double cost = spot_cost(c, st, pl, sh, col, px, py, 2 * (dist - rr) / (0.9 * sh->badge) + col * 1.5,
                                false, best.cost, &strays);
        if (cost < best.cost - 1e-9) best = (placed){cost, px, py, col, strays};
      }
  return best;
}

/* Puts a room's marks where they cover the least (on_rings), led to the room by a hairline where
 * they are not plainly its own; a leader across another room's way tries a finer grid and the
 * room's rim first. Draws them and adds them to the obstacles. */
static void place_marks(cb_page *p, const cb_symbols *st, cb_place *pl, const cluster *c, double cx,
                        double cy, double rr, double dir, cb_symbol_set *used) {
  double gap = st->badge * 0.2, h = st->badge, row_w = -gap, col_w = 0;
  for (int k = 0; k < c->n; k++)
    row_w += c->widths[k] + gap, col_w = fmax(col_w, c->widths[k]);
  /* on a map of dice (issue 22) a stray costs more than any overlap, less than leaving the frame */
  shapes sh = {{row_w, col_w}, {h, c->n * h + (c->n - 1) * gap}, h, gap, c->d->room_ft > 0 ? 600 : 150};
  placed best = on_rings(c, st, pl, &sh, cx, cy, rr, dir);
  /* a leader where the marks are not plainly their room's: stray, or on a drawn graph (where rooms
   * are not dice) all but (within a few points) */
  bool unsure = best.strays ||
                (c->d->room_ft <= 0 &&
                 strays_in(c, best.x, best.y, sh.w[best.col], sh.h[best.col], best.col, h, gap, LEAD_SPARE));
  bool crossing = unsure && c->d->room_ft <= 0 &&
                  leader_crossings(c, st, best.x, best.y, sh.w[best.col], sh.h[best.col]) > 0;
  if ((best.strays || crossing ||
       passages_under(c, best.x, best.y, sh.w[best.col], sh.h[best.col], st->line / 2)) &&
      c->n > 1) {
    /* no row or column fits by its own room, off other rooms' ways: each badge goes where it fits alone */
    for (int k = 0; k < c->n; k++) {
      cluster one = *c;
      one.n = 1, one.marks[0] = c->marks[k], one.widths[0] = c->widths[k];
      place_marks(p, st, pl, &one, cx, cy, rr, dir, used);
    }
    return;
  }
  if (crossing || (c->d->room_ft <= 0 && best.cost >= OWN_UNDER)) {
    /* that leader would cross another room's way: a spot between the rings, or on the room's own rim */
    placed grid =
        crossing ? on_grid(c, st, pl, &sh, cx, cy, rr, best.cost) : (placed){INFINITY, cx, cy, 0, 0};
    spot rim = c->n == 1 ? on_rim(c, st, pl, cx, cy, rr, dir, row_w, h) : (spot){INFINITY, cx, cy};
    if (rim.cost < fmin(best.cost, grid.cost) - 1e-9)
      best = (placed){rim.cost, rim.x, rim.y, 0, 0}, unsure = false;
    else if (grid.cost < best.cost - 1e-9)
      best = grid, unsure = best.strays || strays_in(c, best.x, best.y, sh.w[best.col], sh.h[best.col],
                                                     best.col, h, gap, LEAD_SPARE);
  }
  double bw = sh.w[best.col], bh = sh.h[best.col];
  if (cb_place_box(pl, cb_box_centered(best.x, best.y, bw, bh))) p->oom = true;
  if (unsure) lead(p, st, pl, cx, cy, rr, best.x, best.y, bw, bh);
  double x = best.x - bw / 2, y = best.y - bh / 2;
  for (int k = 0; k < c->n; k++) {
    double mx = best.col ? best.x : x + c->widths[k] / 2, my = best.col ? y + h / 2 : best.y;
    draw_mark(p, st, &c->marks[k], mx, my, used);
    if (best.col)
      y += h + gap;
    else
      x += c->widths[k] + gap;
  }
}

/* The boxes the marks of passage dp ink (cb_symbol_passage_kinds), into out; how many. A mark drawn
 * over a stretch of the line (a trap's zigzag) reaches along it, a slanting one in both axes. */
static int own_marks(const cb_symbols *st, const drawn_passage *dp, cb_box *out) {
  double dx = dp->x1 - dp->x0, dy = dp->y1 - dp->y0, len = hypot(dx, dy), ux = dx / len, uy = dy / len;
  int n = 0;
  for (int k = 0; k < dp->nkinds && k < CB_PASSAGE_KINDS; k++) {
    double t = dp->nkinds > 1 ? CB_PASSAGE_KIND_AT[k] : 0.5, mx = dp->x0 + dx * t, my = dp->y0 + dy * t,
           along = cb_symbol_passage_stretch(st, dp->kinds[k], dp->nkinds, len), ink[4], w, h;
    cb_symbol_passage_mark(st, dp->kinds[k], &w, &h);
    if (w <= 0) continue;
    if (along > 0) {
      double across = h / 2 + st->line / 2, ax = fabs(ux) * along + fabs(uy) * across,
             ay = fabs(uy) * along + fabs(ux) * across;
      out[n++] = (cb_box){mx - ax, my - ay, mx + ax, my + ay};
      continue;
    }
    cb_symbol_passage_mark_ink(st, dp->kinds[k], ink);
    out[n++] = (cb_box){mx + ink[0], my + ink[1], mx + ink[2], my + ink[3]};
  }
  return n;
}

static bool boxes_meet(cb_box a, cb_box b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* What a lock's key id costs over its own passage's marks: it hides what it covers (issue 22: it sat
 * over its padlock's shackle); beyond the spots next to its padlock, the hairline that leads it there,
 * and each passage that hairline crosses (less than a line under the key id, which it would hide). */
static const double OVER_OWN_MARK = 500, KEY_LEADER = 2, KEY_CROSSING = 20;
/* How far out from its padlock (steps of 0.6 of its height) and along its line (0.8 badges) a key id
 * looks for a spot: next to it ([0]), and on a map of dice (issue 22) further, led to it by a
 * hairline, before it lies over another passage; the other maps as they were measured (their own
 * counts in test_map_clear). */
static const struct key_reach { int steps, along; } KEY_REACH[2] = {{4, 1}, {8, 2}};

/* How many of the n passages in all but `own` the segment e (x0, y0, x1, y1) crosses. */
static int passages_crossed(const drawn_passage *all, int n, const drawn_passage *own, const double *e) {
  int crossed = 0;
  for (int i = 0; i < n; i++) {
    const drawn_passage *q = &all[i];
    crossed +=
        q != own &&
        side_of(e[0], e[1], e[2], e[3], q->x0, q->y0) * side_of(e[0], e[1], e[2], e[3], q->x1, q->y1) < 0 &&
        side_of(q->x0, q->y0, q->x1, q->y1, e[0], e[1]) * side_of(q->x0, q->y0, q->x1, q->y1, e[2], e[3]) < 0;
  }
  return crossed;
}

/* A lock's key id to place: its passage among the level's n passages (all), its padlock in the
 * middle, reaching `lock_r` round it; the dungeon's rooms, drawn at (px, py) with radius rr, those of
 * `level` (0: all) on this map. */
typedef struct key_id {
  const char *text;
  const drawn_passage *dp, *all;
  int n;
  double lock_r;
  const cb_dungeon *d;
  int level;
  const double *px, *py;
  double rr;
} key_id;

/* How many of the map's rooms the segment e (x0, y0, x1, y1) runs into. */
static int rooms_crossed(const key_id *k, const double *e) {
  int crossed = 0;
  double lx = e[2] - e[0], ly = e[3] - e[1], len2 = lx * lx + ly * ly;
  for (int i = 0; i < k->d->nrooms && len2 > 0; i++) {
    if (k->level && k->d->rooms[i].level != k->level) continue;
    double t = fmin(1, fmax(0, ((k->px[i] - e[0]) * lx + (k->py[i] - e[1]) * ly) / len2));
    crossed += hypot(e[0] + t * lx - k->px[i], e[1] + t * ly - k->py[i]) < k->rr + 1;
  }
  return crossed;
}

/* What a key id w x h at (px, py) away from its padlock at (mx, my) costs for its leader: each
 * passage it crosses, and a room it runs into (as much as a key id over its own marks). */
static double leader_cost(const cb_symbols *st, const key_id *k, double mx, double my, double px, double py,
                          double w, double h) {
  double e[4];
  if (!leader_ends(st, mx, my, k->lock_r, px, py, w, h, e)) return KEY_LEADER;
  return KEY_LEADER + KEY_CROSSING * passages_crossed(k->all, k->n, k->dp, e) +
         OVER_OWN_MARK * rooms_crossed(k, e);
}

/* A passage's label (a lock's key id) beside its middle mark, on the side and at the distance where
 * it covers least; on a map of dice (`dice`) clear of its own passage's marks, led to its padlock by a
 * hairline when it is not next to it, and where no spot is clear of lines, rooms and marks the map
 * says it is cramped (the sheet then tries it bigger: mapfit). */
static void place_label(cb_page *p, const cb_symbols *st, cb_place *pl, const key_id *k, bool dice) {
  const drawn_passage *dp = k->dp;
  double w, h, len = hypot(dp->x1 - dp->x0, dp->y1 - dp->y0), ux = (dp->x1 - dp->x0) / len,
               uy = (dp->y1 - dp->y0) / len, mx = (dp->x0 + dp->x1) / 2, my = (dp->y0 + dp->y1) / 2;
  cb_box own[CB_PASSAGE_KINDS];
  int nown = dice ? own_marks(st, dp, own) : 0;
  struct key_reach r = KEY_REACH[dice], near = KEY_REACH[0];
  cb_symbol_label_size(st, k->text, &w, &h);
  double best = INFINITY, bx = mx, by = my;
  bool led = false;
  for (int side = -1; side <= 1; side += 2)
    for (int step = 0; step < r.steps; step++)
      for (int along = -r.along; along <= r.along; along++) {
        double off = st->badge * 0.6 + step * h * 0.6 + (fabs(ux) * h + fabs(uy) * w) / 2;
        double px = mx - uy * off * side + ux * along * st->badge * 0.8;
        double py = my + ux * off * side + uy * along * st->badge * 0.8;
        cb_box b = cb_box_grow(cb_box_centered(px, py, w, h), 0.5);
        bool far = step >= near.steps || abs(along) > near.along;
        double cost = cb_place_cost(pl, b) + step + abs(along) * 0.5;
        for (int i = 0; i < nown; i++)
          cost += boxes_meet(b, own[i]) ? OVER_OWN_MARK : 0;
        if (far && cost < best - 1e-9) cost += leader_cost(st, k, mx, my, px, py, w, h);
        if (cost < best - 1e-9) best = cost, bx = px, by = py, led = far;
      }
  if (dice && best >= r.steps + r.along + KEY_LEADER) p->cramped++;
  if (led) lead(p, st, pl, mx, my, k->lock_r, bx, by, w, h);
  if (cb_place_box(pl, cb_box_centered(bx, by, w, h))) p->oom = true;
  cb_symbol_label(p, st, k->text, bx, by);
}

/* How far mark k of a passage's n (kinds[k]) reaches along a passage len long from its place, edge
 * to edge: an upright box's half diagonal (a box on a slanting line), or the stretch it draws over. */
static double mark_along(const cb_symbols *st, const cb_symbol *kinds, int k, int n, double len) {
  double w, h, stretch = cb_symbol_passage_stretch(st, kinds[k], n, len);
  cb_symbol_passage_mark(st, kinds[k], &w, &h);
  return stretch > 0 ? stretch + st->line : hypot(w, h) / 2;
}

/* What two marks of one passage keep between them, in badges: enough of the line that they read as
 * two marks, not one (issue 22: a padlock touched its trap's zigzag on short passages). */
static const double MARKS_GAP = 0.3;

/* How long a passage must be for marks k and j (a fraction dt of the way apart) to keep MARKS_GAP
 * apart: their reach grows with the passage where a mark draws over a stretch of it, so the length
 * is found by steps. */
static double marks_apart(const cb_symbols *st, const cb_symbol *kinds, int k, int j, int n, double dt) {
  double len = 0;
  for (int i = 0; i < 40; i++)
    len = (mark_along(st, kinds, k, n, len) + mark_along(st, kinds, j, n, len) + MARKS_GAP * st->badge) / dt;
  return len;
}

/* How far apart, edge to edge, two dice must lie for each mark of the
 * passage between them to sit clear of both and of each other where
 * cb_symbol_passage_kinds puts it (the middle, or CB_PASSAGE_KIND_AT of the
 * way). A mark's box is upright, so along a slanting passage it reaches up
 * to a half-diagonal (0.71 of its side) towards a room or its neighbour. */
static double marks_length(const cb_symbols *st, const cb_passage *ps) {
  cb_symbol kinds[CB_PASSAGE_KINDS];
  int n = cb_map_passage_symbols(ps, kinds);
  double size[CB_PASSAGE_KINDS], need = 0, clear = st->line;
  for (int k = 0; k < n; k++) {
    double w, h;
    cb_symbol_passage_mark(st, kinds[k], &w, &h);
    size[k] = fmax(w, h) * 0.6;
  }
  for (int k = 0; k < n && k < CB_PASSAGE_KINDS; k++) {
    double t = n > 1 ? CB_PASSAGE_KIND_AT[k] : 0.5;
    if (size[k] <= 0) continue;
    need = fmax(need, (size[k] + clear) / fmin(t, 1 - t));
    for (int j = 0; j < k; j++)
      if (size[j] > 0) need = fmax(need, marks_apart(st, kinds, k, j, n, fabs(t - CB_PASSAGE_KIND_AT[j])));
  }
  return need;
}

/* How far the marks of a passage reach across it from its line: the most
 * of each mark's box's half diagonal (an upright box on a slanting line). */
static double marks_reach(const cb_symbols *st, const cb_passage *ps) {
  cb_symbol kinds[CB_PASSAGE_KINDS];
  int n = cb_map_passage_symbols(ps, kinds);
  double reach = 0;
  for (int k = 0; k < n; k++) {
    double w, h;
    cb_symbol_passage_mark(st, kinds[k], &w, &h);
    reach = fmax(reach, hypot(w, h) / 2);
  }
  return reach;
}

/* What the rooms keep clear for the passages' marks (issue 22): for each
 * passage, its marks' reach across it (every map), and where rooms are
 * dice (room_ft) its marks_length too, else need is NULL. */
typedef struct mark_room {
  double *need, *reach;
} mark_room;

static mark_room marks_room(cb_page *p, const cb_symbols *st, const cb_dungeon *d) {
  mark_room m = {NULL, cb_malloc(((size_t)d->npassages + 1) * sizeof *m.reach)};
  if (d->room_ft > 0) m.need = cb_malloc(((size_t)d->npassages + 1) * sizeof *m.need);
  if (!m.reach || (d->room_ft > 0 && !m.need)) {
    p->oom = true;
    free(m.need), free(m.reach);
    return (mark_room){NULL, NULL};
  }
  for (int k = 0; k < d->npassages; k++) {
    m.reach[k] = marks_reach(st, &d->passages[k]);
    if (m.need) m.need[k] = marks_length(st, &d->passages[k]);
  }
  return m;
}

/* Whether passage k joins two rooms of the level (0: any) drawn on one map, their indices into *ia, *ib. */
static bool joins_on_level(const cb_dungeon *d, int k, int level, int *ia, int *ib) {
  const cb_room *a = cb_dungeon_room(d, d->passages[k].from), *b = cb_dungeon_room(d, d->passages[k].to);
  if (!a || !b || a == b || a->level != b->level || (level && a->level != level)) return false;
  *ia = (int)(a - d->rooms), *ib = (int)(b - d->rooms);
  return true;
}

/* How many passages of the level nudge_rooms left too short for their marks (need[k], edge to edge):
 * dice boxed in by the frame, whose marks then touch; the map is too small (mapfit). */
static int short_of_marks(const cb_dungeon *d, int level, const double *px, const double *py, double rr,
                          const double *need) {
  int n = 0, ia, ib;
  for (int k = 0; need && k < d->npassages; k++)
    if (joins_on_level(d, k, level, &ia, &ib))
      n += need[k] > 0 && hypot(px[ib] - px[ia], py[ib] - py[ia]) < 2 * rr + need[k] - 0.5;
  return n;
}

/* Pushes apart the two dice of each passage too short for its marks
 * (need[k], edge to edge, from marks_length); returns whether any moved. */
static int spread_marked(const cb_dungeon *d, int level, double *px, double *py, double rr,
                         const double *need) {
  int moved = 0, ia, ib;
  for (int k = 0; need && k < d->npassages; k++) {
    if (!joins_on_level(d, k, level, &ia, &ib)) continue;
    double dx = px[ib] - px[ia], dy = py[ib] - py[ia], want = 2 * rr + need[k], dist = hypot(dx, dy);
    if (need[k] <= 0 || dist >= want || dist < 1e-6) continue;
    double push = (want - dist) / 2 + 0.05;
    px[ia] -= dx / dist * push, py[ia] -= dy / dist * push;
    px[ib] += dx / dist * push, py[ib] += dy / dist * push;
    moved = 1;
  }
  return moved;
}

/* Keeps the procedure's positions but nudges rooms apart until no two
 * circles touch and no passage runs through a room it does not join
 * (a few relaxation rounds; positions move as little as they must). */
static void nudge_rooms(const cb_dungeon *d, int level, double *px, double *py, double rr, double x0,
                        double y0, double x1, double y1, const mark_room *mr) {
  const double want = 2 * rr + 7;
  for (int round = 0; round < 60; round++) {
    int moved = spread_marked(d, level, px, py, rr, mr->need);
    for (int i = 0; i < d->nrooms; i++) {
      if (level && d->rooms[i].level != level) continue;
      for (int j = i + 1; j < d->nrooms; j++) {
        if (level && d->rooms[j].level != level) continue;
        double dx = px[j] - px[i], dy = py[j] - py[i];
        if (surely_apart(dx, dy, want)) continue;
        double dist = hypot(dx, dy);
        if (dist >= want) continue;
        if (dist < 1e-6) dx = 1, dy = 0.5 * ((i + j) % 3 - 1), dist = hypot(dx, dy);
        double push = (want - dist) / 2 + 0.05;
        px[i] -= dx / dist * push, py[i] -= dy / dist * push;
        px[j] += dx / dist * push, py[j] += dy / dist * push;
        moved = 1;
      }
    }
    for (int k = 0; k < d->npassages; k++) {
      const cb_room *a = cb_dungeon_room(d, d->passages[k].from), *b = cb_dungeon_room(d, d->passages[k].to);
      if (!a || !b || a->level != b->level || (level && a->level != level)) continue;
      int ia = (int)(a - d->rooms), ib = (int)(b - d->rooms);
      /* clear of the line by 3 pt, and of its marks by 1 */
      double ax = px[ia], ay = py[ia], bx = px[ib], by = py[ib],
             len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay),
             clear = rr + fmax(3, mr->reach ? mr->reach[k] + 1 : 0);
      if (len2 < 1e-9) continue;
      /* a room outside the passage's box grown by `clear` is clear of it (the cheap test first) */
      double lx = fmin(ax, bx) - clear - 1, hx = fmax(ax, bx) + clear + 1, ly = fmin(ay, by) - clear - 1,
             hy = fmax(ay, by) + clear + 1;
      for (int i = 0; i < d->nrooms; i++) {
        if (px[i] < lx || px[i] > hx || py[i] < ly || py[i] > hy) continue;
        if (i == ia || i == ib || (level && d->rooms[i].level != level) || d->rooms[i].level != a->level)
          continue;
        double t = ((px[i] - ax) * (bx - ax) + (py[i] - ay) * (by - ay)) / len2;
        if (t <= 0 || t >= 1) continue;
        double qx = ax + t * (bx - ax), qy = ay + t * (by - ay), dx = px[i] - qx, dy = py[i] - qy;
        if (surely_apart(dx, dy, clear)) continue;
        double dist = hypot(dx, dy);
        if (dist >= clear) continue;
        if (dist < 1e-6) dx = -(by - ay), dy = bx - ax, dist = hypot(dx, dy);
        /* the room steps off the line and the line off the room, each half the way (a room boxed in
         * by its neighbours cannot leave alone) */
        double push = (clear - dist) / 2 + 0.05, ux = dx / dist, uy = dy / dist;
        px[i] += ux * push, py[i] += uy * push;
        px[ia] -= ux * push * (1 - t), py[ia] -= uy * push * (1 - t);
        px[ib] -= ux * push * t, py[ib] -= uy * push * t;
        moved = 1;
      }
    }
    for (int i = 0; i < d->nrooms; i++) {
      px[i] = fmin(fmax(px[i], x0 + rr), x1 - rr);
      py[i] = fmin(fmax(py[i], y0 + rr), y1 - rr);
    }
    if (!moved) break;
  }
}

/* The rooms' extent on level `level` (0: all); false when it has none. */
static bool extent(const cb_dungeon *d, int level, double *minx, double *miny, double *maxx, double *maxy) {
  *minx = *miny = INFINITY, *maxx = *maxy = -INFINITY;
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (level && r->level != level) continue;
    *minx = fmin(*minx, r->x), *maxx = fmax(*maxx, r->x);
    *miny = fmin(*miny, r->y), *maxy = fmax(*maxy, r->y);
  }
  return isfinite(*minx);
}

double cb_map_pad(const cb_symbols *st) { return ROOM_MAX_R + st->badge * 1.6; }

double cb_map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  double minx, miny, maxx, maxy, pad = cb_map_pad(st);
  if (!extent(d, level, &minx, &miny, &maxx, &maxy)) return 2 * pad;
  if (maxx - minx <= 0) return maxy - miny > 0 ? 0 : 2 * pad;
  return (maxy - miny) * (w - 2 * pad) / (maxx - minx) + 2 * pad;
}

double cb_map_height_at(const cb_dungeon *d, int level, double scale, double pad) {
  double minx, miny, maxx, maxy;
  if (!extent(d, level, &minx, &miny, &maxx, &maxy)) return 2 * pad;
  return (maxy - miny) * scale + 2 * pad;
}

double cb_map_fit_scale(const cb_dungeon *d, int level, double w, double h, double pad) {
  double minx, miny, maxx, maxy;
  if (!extent(d, level, &minx, &miny, &maxx, &maxy)) return INFINITY;
  double rx = maxx - minx, ry = maxy - miny, sx = rx > 0 ? (w - 2 * pad) / rx : INFINITY,
         sy = ry > 0 ? (h - 2 * pad) / ry : INFINITY;
  return fmin(sx, sy);
}

void cb_map_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                 double w, double h, cb_symbol_set *used) {
  cb_map_panel panel = {INFINITY, cb_map_pad(st), 0};
  cb_map_draw_scaled(p, st, d, level, x, y, w, h, &panel, used);
}

/* One map being drawn: the room positions on the page (nudged apart), the
 * passages as drawn between the rooms' rims, and what is placed so far. */
typedef struct map_drawing {
  cb_page *p;
  const cb_symbols *st;
  const cb_dungeon *d;
  int level;
  double x, y, w, h; /* the box */
  double rr;         /* the rooms' radius */
  double *px, *py;   /* each room's centre */
  drawn_passage *dp;
  int ndp;
  cb_place *pl;
  double cover;     /* cb_map_panel's */
  double beside[2]; /* cb_map_panel's */
} map_drawing;

/* The passages of the level between the rooms' rims, each placed (its line
 * and its kinds' marks) for the labels to keep clear of. */
static void map_passages(map_drawing *md) {
  const cb_dungeon *d = md->d;
  const cb_symbols *st = md->st;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    const cb_room *a = cb_dungeon_room(d, ps->from), *b = cb_dungeon_room(d, ps->to);
    if (!a || !b || (md->level && (a->level != md->level || b->level != md->level))) continue;
    double ax = md->px[a - d->rooms], ay = md->py[a - d->rooms], bx = md->px[b - d->rooms],
           by = md->py[b - d->rooms], rr = md->rr;
    double len = hypot(bx - ax, by - ay);
    if (len <= 2 * rr) continue;
    double ux = (bx - ax) / len, uy = (by - ay) / len;
    drawn_passage *e = &md->dp[md->ndp++];
    *e = (drawn_passage){
        .ps = ps, .x0 = ax + ux * rr, .y0 = ay + uy * rr, .x1 = bx - ux * rr, .y1 = by - uy * rr};
    e->nkinds = cb_map_passage_symbols(ps, e->kinds);
    if (cb_place_segment(md->pl, e->x0, e->y0, e->x1, e->y1, st->line)) md->p->oom = true;
    /* each kind's mark where cb_symbol_passage_kinds puts it */
    for (int k = 0, nk = e->nkinds; k < nk; k++) {
      double mw, mh, t = nk > 1 ? CB_PASSAGE_KIND_AT[k] : 0.5;
      cb_symbol_passage_mark(st, e->kinds[k], &mw, &mh);
      if (mw > 0 &&
          cb_place_box(md->pl, cb_box_centered(e->x0 + (e->x1 - e->x0) * t, e->y0 + (e->y1 - e->y0) * t,
                                               fmax(mw, mh), fmax(mw, mh))))
        md->p->oom = true;
    }
    /* on a map of dice, what the marks ink beyond those squares too (a padlock's shackle): key ids keep
     * off it (issue 22) */
    cb_box ink[CB_PASSAGE_KINDS];
    for (int k = 0, n = d->room_ft > 0 ? own_marks(st, e, ink) : 0; k < n; k++)
      if (cb_place_box(md->pl, ink[k])) md->p->oom = true;
  }
}

/* The rooms: circles (the start ringed), their numbers in them. */
static void map_rooms(const map_drawing *md) {
  cb_page *p = md->p;
  const cb_symbols *st = md->st;
  const cb_dungeon *d = md->d;
  double rr = md->rr;
  cb_ink room_ink = {.fill = true,
                     .stroke = true,
                     .fill_color = cb_symbol_room_fill(st),
                     .stroke_color = st->ink,
                     .width = st->line * 1.2};
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (md->level && r->level != md->level) continue;
    double cx = md->px[i], cy = md->py[i];
    cb_page_role(p, CB_ROLE_ROOM, r->id, 0);
    cb_page_circle(p, cx, cy, rr);
    cb_page_ink(p, &room_ink);
    if (r->tags & CB_TAG_MAIN_START) {
      cb_page_circle(p, cx, cy, rr - st->line * 1.6);
      cb_ink inner = cb_ink_stroke(st->ink, st->line * 0.7);
      cb_page_ink(p, &inner);
    }
    char num[16];
    snprintf(num, sizeof num, "%d", r->number);
    double size = number_size(rr), tw = cb_text_width(st->m, CB_FONT_BOLD, size, num);
    cb_page_role(p, CB_ROLE_NUMBER, r->id, 0);
    cb_page_text(p, CB_FONT_BOLD, size, cx - tw / 2, cy + size * 0.34, st->ink, num);
  }
}

/* The level's passages and rooms filed for near_in (grids a few badges a cell); a grid left NULL
 * (out of memory) has near_in read every one. */
static near_index near_index_of(const map_drawing *md) {
  near_index ni = {cb_boxgrid_new(md->st->badge * 4), cb_boxgrid_new(md->st->badge * 10), NULL, 0};
  for (int i = 0; ni.passages && i < md->ndp; i++) {
    const drawn_passage *q = &md->dp[i];
    if (cb_boxgrid_add(ni.passages, i, fmin(q->x0, q->x1), fmin(q->y0, q->y1), fmax(q->x0, q->x1),
                       fmax(q->y0, q->y1)) != 0)
      cb_boxgrid_free(ni.passages), ni.passages = NULL;
  }
  for (int i = 0; ni.rooms && i < md->d->nrooms; i++)
    if (cb_boxgrid_add(ni.rooms, i, md->px[i], md->py[i], md->px[i], md->py[i]) != 0)
      cb_boxgrid_free(ni.rooms), ni.rooms = NULL;
  return ni;
}

/* Whether room i lies on the hull of its level's rooms: no room of the level in some half-plane
 * beside it (a level of 256 rooms or more, all on it: the order is only a help). */
static bool on_hull(const map_drawing *md, int i) {
  double ang[256];
  int n = 0;
  for (int j = 0; j < md->d->nrooms && n < 256; j++)
    if (j != i && (!md->level || md->d->rooms[j].level == md->level))
      ang[n++] = atan2(md->py[j] - md->py[i], md->px[j] - md->px[i]);
  if (n < 3 || n >= 256) return true;
  qsort(ang, (size_t)n, sizeof *ang, angle_cmp);
  double widest = ang[0] + 2 * CB_PI - ang[n - 1];
  for (int k = 1; k < n; k++)
    widest = fmax(widest, ang[k] - ang[k - 1]);
  return widest >= CB_PI;
}

/* The rooms' marks; rooms with the most marks choose first (each room's count found once), and on a
 * drawn graph the rooms inside the drawing (off its hull) before those on its edge, which have the
 * space outside it (issue 22: marks_battleships' leaders across ways 117 -> 107). */
static void map_room_marks(const map_drawing *md, cb_symbol_set *used) {
  cb_page *p = md->p;
  const cb_dungeon *d = md->d;
  int level = md->level;
  int *marks = cb_malloc(((size_t)d->nrooms + 1) * sizeof *marks);
  bool *inner = cb_malloc(((size_t)d->nrooms + 1) * sizeof *inner);
  if (!marks || !inner) free(marks), marks = NULL, p->oom = true;
  near_index ni = near_index_of(md);
  for (int i = 0; marks && i < d->nrooms; i++) {
    mark m[MAX_MARKS];
    marks[i] = level && d->rooms[i].level != level ? 0 : map_marks(p, d, &d->rooms[i], m);
    inner[i] = marks[i] && d->room_ft <= 0 && !on_hull(md, i);
  }
  for (int pass = 0; pass < 2; pass++)
    for (int want = MAX_MARKS; marks && want >= 1; want--)
      for (int i = 0; i < d->nrooms; i++) {
        const cb_room *r = &d->rooms[i];
        if (marks[i] != want) continue;
        if (inner[i] != (pass == 0)) continue;
        cluster c = {.d = d,
                     .level = level,
                     .self = i,
                     .px = md->px,
                     .py = md->py,
                     .rr = md->rr,
                     .frame = {md->x, md->y, md->x + md->w, md->y + md->h},
                     .dp = md->dp,
                     .ndp = md->ndp,
                     .near = &ni,
                     .cover = md->cover,
                     .far = d->room_ft > 0 ? 0 : md->st->badge * FAR_OFF,
                     .beside = {md->beside[0], md->beside[1]}};
        c.n = map_marks(p, d, r, c.marks);
        if (c.n != want) continue;
        for (int k = 0; k < c.n; k++)
          c.widths[k] = mark_width(md->st, &c.marks[k]);
        double gapw;
        cb_page_role(p, CB_ROLE_ROOM_MARK, r->id, 0);
        place_marks(p, md->st, md->pl, &c, md->px[i], md->py[i], md->rr, free_direction(d, r, &gapw), used);
      }
  free(marks), free(inner);
  cb_boxgrid_free(ni.passages), cb_boxgrid_free(ni.rooms), free(ni.ids);
}

/* Passages, then rooms, then the labels, where they cover least: a lock's
 * key id first, as it must sit by its lock, then the rooms' marks. */
static void map_paint(map_drawing *md, cb_symbol_set *used) {
  cb_page *p = md->p;
  const cb_dungeon *d = md->d;
  map_passages(md);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if ((!md->level || r->level == md->level) && cb_place_circle(md->pl, md->px[i], md->py[i], md->rr + 0.5))
      p->oom = true;
  }
  const drawn_passage *dp = md->dp;
  for (int i = 0; i < md->ndp; i++) {
    cb_page_role(p, CB_ROLE_PASSAGE, dp[i].ps->from, dp[i].ps->to);
    cb_symbol_passage_kinds(p, md->st, dp[i].kinds, dp[i].nkinds, dp[i].x0, dp[i].y0, dp[i].x1, dp[i].y1);
    for (int k = 0; k < dp[i].nkinds; k++)
      *used |= CB_SYMBOL_BIT(dp[i].kinds[k]);
  }
  map_rooms(md);
  double ink[4];
  cb_symbol_passage_mark_ink(md->st, CB_SYM_LOCKED, ink);
  double lock_r = hypot(fmax(-ink[0], ink[2]), fmax(-ink[1], ink[3]));
  for (int i = 0; i < md->ndp; i++) {
    if (!dp[i].ps->lock) continue;
    cb_page_role(p, CB_ROLE_PASSAGE_MARK, dp[i].ps->from, dp[i].ps->to);
    key_id k = {dp[i].ps->lock, &dp[i], dp, md->ndp, lock_r, d, md->level, md->px, md->py, md->rr};
    place_label(p, md->st, md->pl, &k, d->room_ft > 0);
  }
  map_room_marks(md, used);
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

void cb_map_draw_scaled(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                        double w, double h, const cb_map_panel *panel, cb_symbol_set *used) {
  double minx, miny, maxx, maxy;
  if (!extent(d, level, &minx, &miny, &maxx, &maxy)) return;
  double rx = maxx - minx, ry = maxy - miny;
  view v = {fmin(cb_map_fit_scale(d, level, w, h, panel->pad), panel->max_scale), 0, 0, minx, miny};
  if (!isfinite(v.scale) || v.scale <= 0) v.scale = 1;
  v.ox = x + (w - rx * v.scale) / 2;
  v.oy = y + (h - ry * v.scale) / 2;
  map_drawing md = {p,
                    st,
                    d,
                    level,
                    x,
                    y,
                    w,
                    h,
                    room_radius(d, &v, level),
                    .cover = panel->cover,
                    .beside = {panel->beside[0], panel->beside[1]}};
  md.pl = cb_place_new((cb_box){x, y, x + w, y + h});
  md.dp = cb_malloc(((size_t)d->npassages + 1) * sizeof *md.dp);
  md.px = cb_malloc(((size_t)d->nrooms + 1) * sizeof *md.px);
  md.py = cb_malloc(((size_t)d->nrooms + 1) * sizeof *md.py);
  if (md.pl && md.dp && md.px && md.py) {
    for (int i = 0; i < d->nrooms; i++)
      md.px[i] = vx(&v, d->rooms[i].x), md.py[i] = vy(&v, d->rooms[i].y);
    mark_room mr = marks_room(p, st, d);
    nudge_rooms(d, level, md.px, md.py, md.rr, x, y, x + w, y + h, &mr);
    p->cramped += short_of_marks(d, level, md.px, md.py, md.rr, mr.need);
    free(mr.need), free(mr.reach);
    map_paint(&md, used);
  } else
    p->oom = true;
  cb_place_free(md.pl);
  free(md.dp);
  free(md.px);
  free(md.py);
}
