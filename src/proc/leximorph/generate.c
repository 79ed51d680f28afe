/* leximorph: pre-loading tunnel templates (seed 001, generators.md).
 * Each sector of the map gets a letter rolled on a d10 table, turned by a d4;
 * the letters' strokes become tunnels, joined across the sectors' shared
 * edges into one network. A d6 at every junction and a d8 on both sides of
 * every 60 ft of tunnel place rooms, doors, traps and side passages; the
 * rooms and the tunnels between them make the point-crawl.
 *
 * Encodings: a letter is a list of polylines in its unit box (x right, y
 * down, 0..1). The network is a planar graph in feet: nodes where strokes
 * end, bend, touch or cross; junctions are the nodes a d6 is rolled for;
 * tunnels are the chains of edges between junctions. The point-crawl walks a
 * second graph whose nodes are the junctions and the 60-ft wall stations. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/heap.h"
#include "base/table.h"
#include "base/units.h"
#include "layout.h"
#include "model/rng.h"
#include "proc.h"
#include "proc/proc.h"

enum {
  DEFAULT_SECTORS = 2,
  MAX_SECTORS = 12,
  DEFAULT_SECTOR_FT = 240,
  MIN_SECTOR_FT = 120,
  MAX_SECTOR_FT = 1200
};
enum { LETTER_ROWS = 10, JUNCTION_ROWS = 6, WALL_ROWS = 8, DOOR_ROWS = 20, MAX_STROKE_POINTS = 256 };
/* The most work a letter table may ask for (see letter_pieces). */
enum { MAX_LETTER_SEGMENTS = 100, MAX_LETTER_PIECES = 100 };
static const double MIN_STROKE_LENGTH = 0.01; /* of the unit box */
static const double WALL_FT = 60.0;           /* a wall check every 60 ft of tunnel */
static const double SNAP_FT = 0.5;            /* points closer than this are one point */
static const double CORNER_DEG = 35.0;        /* a bend sharper than this is a corner */
static const double ARC_STEP_DEG = 12.0;      /* arcs are flattened in steps this size */
static const double DOOR_FT = 25.0;           /* a room behind a door sits this far off the tunnel */
static const double PAIR_FT = 12.0;           /* half the gap between a pair of doors */
static const double ROOM_FT = 15.0;           /* a room's side on the sketch, for spacing */
static const double HALF_TUNNEL_FT = 5.0;     /* a door stands in the wall, half a tunnel from its middle */
static const double STUB_FT = 30.0; /* a passage beyond a door, drawn this far until it ends blind */

/* ---- tables ---- */

typedef struct upoint {
  double u, v;
} upoint;
typedef struct polyline {
  int n;
  upoint *p;
} polyline;
typedef struct letter {
  char name[16];
  int npolys;
  polyline *polys;
} letter;
typedef struct result_row {
  char text[128];
  int effect;
} result_row;

typedef struct tables {
  letter letters[LETTER_ROWS];
  result_row junctions[JUNCTION_ROWS], walls[WALL_ROWS];
} tables;

static void tables_free(tables *t) {
  for (int i = 0; i < LETTER_ROWS; i++) {
    for (int k = 0; k < t->letters[i].npolys; k++)
      free(t->letters[i].polys[k].p);
    free(t->letters[i].polys);
  }
}

static int add_point(polyline *pl, double u, double v) {
  if (pl->n >= MAX_STROKE_POINTS) return -1;
  pl->p[pl->n++] = (upoint){u, v};
  return 0;
}

static int parse_pair(const char *w, double *a, double *b) {
  char *end;
  *a = strtod(w, &end);
  if (end == w || *end != ',') return 0;
  const char *q = end + 1;
  *b = strtod(q, &end);
  return end != q && *end == '\0' && isfinite(*a) && isfinite(*b);
}

static int parse_num(const char *w, double *a) {
  char *end;
  *a = strtod(w, &end);
  return end != w && *end == '\0' && isfinite(*a);
}

/* One stroke ("L 0,0 1,1", "A cx,cy rx,ry from to", ...) into pl. */
static cb_status parse_stroke(const cb_table *t, const cb_table_row *row, int k, char *text, polyline *pl,
                              cb_error *err) {
  char *words[MAX_STROKE_POINTS + 2];
  int nw = 0;
  for (char *at, *w = strtok_r(text, " \t", &at); w; w = strtok_r(NULL, " \t", &at)) {
    if (nw == MAX_STROKE_POINTS + 2) return cb_table_fail(t, row, err, "stroke %d has too many points", k);
    words[nw++] = w;
  }
  if (nw == 0) return cb_table_fail(t, row, err, "stroke %d is empty", k);
  const char *cmd = words[0];
  if (strcmp(cmd, "L") == 0 || strcmp(cmd, "O") == 0) {
    int closed = cmd[0] == 'O';
    if (nw - 1 < (closed ? 3 : 2))
      return cb_table_fail(t, row, err, "stroke %d: '%s' needs at least %d points x,y", k, cmd,
                           closed ? 3 : 2);
    for (int i = 1; i < nw; i++) {
      double u, v;
      if (!parse_pair(words[i], &u, &v))
        return cb_table_fail(t, row, err, "stroke %d: '%s' is not a point x,y", k, words[i]);
      add_point(pl, u, v);
    }
    if (closed) add_point(pl, pl->p[0].u, pl->p[0].v);
    return CB_OK;
  }
  if (strcmp(cmd, "A") == 0 || strcmp(cmd, "E") == 0) {
    int whole = cmd[0] == 'E';
    double cx, cy, rx, ry, a0 = 0, a1 = 360;
    if (nw != (whole ? 3 : 5))
      return cb_table_fail(t, row, err, "stroke %d: '%s' takes %s", k, cmd,
                           whole ? "a centre cx,cy and radii rx,ry"
                                 : "a centre cx,cy, radii rx,ry, and two angles");
    if (!parse_pair(words[1], &cx, &cy) || !parse_pair(words[2], &rx, &ry) ||
        (!whole && (!parse_num(words[3], &a0) || !parse_num(words[4], &a1))))
      return cb_table_fail(t, row, err, "stroke %d: '%s' takes numbers: %s", k, cmd,
                           whole ? "E cx,cy rx,ry" : "A cx,cy rx,ry from to");
    if (rx <= 0 || ry <= 0) return cb_table_fail(t, row, err, "stroke %d: the radii must be above 0", k);
    if (fabs(a1 - a0) > 360 || a1 == a0)
      return cb_table_fail(t, row, err, "stroke %d: the arc must turn by more than 0 and at most 360 degrees",
                           k);
    int steps = (int)ceil(fabs(a1 - a0) / ARC_STEP_DEG);
    for (int i = 0; i <= steps; i++) {
      double a = (a0 + (a1 - a0) * i / steps) * CB_PI / 180;
      add_point(pl, cx + rx * cos(a), cy + ry * sin(a));
    }
    if (whole) pl->p[pl->n - 1] = pl->p[0];
    return CB_OK;
  }
  return cb_table_fail(t, row, err, "stroke %d: unknown command '%s' (expected L, O, A or E)", k, cmd);
}

static double stroke_length(const polyline *pl) {
  double len = 0;
  for (int i = 1; i < pl->n; i++)
    len += hypot(pl->p[i].u - pl->p[i - 1].u, pl->p[i].v - pl->p[i - 1].v);
  return len;
}

static double cross3(upoint o, upoint a, upoint b) {
  return (a.u - o.u) * (b.v - o.v) - (a.v - o.v) * (b.u - o.u);
}

/* Segments a-b and c-d cross (strictly, or touch at a point). */
static int segs_meet(upoint a, upoint b, upoint c, upoint d) {
  double d1 = cross3(c, d, a), d2 = cross3(c, d, b), d3 = cross3(a, b, c), d4 = cross3(a, b, d);
  return ((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) && ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0));
}

/* How far p lies from the segment a-b. */
static double seg_distance(upoint p, upoint a, upoint b) {
  double dx = b.u - a.u, dy = b.v - a.v, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((p.u - a.u) * dx + (p.v - a.v) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return hypot(p.u - (a.u + t * dx), p.v - (a.v + t * dy));
}

/* Where segments a-b and c-d meet as the map sees them: 1 where they cross
 * or touch; else each end of one that lies closer to the other than the
 * map tells points apart (SNAP_FT at the smallest sector) splits it there,
 * so near-parallel strokes count up to 4. */
static int meetings(upoint a, upoint b, upoint c, upoint d) {
  if (segs_meet(a, b, c, d)) return 1;
  double snap = SNAP_FT / MIN_SECTOR_FT;
  return (seg_distance(a, c, d) < snap) + (seg_distance(b, c, d) < snap) + (seg_distance(c, a, b) < snap) +
         (seg_distance(d, a, b) < snap);
}

/* The pieces a letter becomes on the map: its segments and where they meet
 * (neighbours in a stroke excepted), touches within the map's snap counted
 * as the map counts them. The network's cost grows with the square of these
 * over every sector, so a table may ask for a few only. */
static int letter_pieces(const letter *l) {
  int n = 0;
  for (int a = 0; a < l->npolys; a++)
    n += l->polys[a].n - 1;
  for (int a = 0; a < l->npolys; a++)
    for (int i = 1; i < l->polys[a].n; i++)
      for (int b = a; b < l->npolys; b++)
        for (int k = b == a ? i + 2 : 1; k < l->polys[b].n; k++)
          n += meetings(l->polys[a].p[i - 1], l->polys[a].p[i], l->polys[b].p[k - 1], l->polys[b].p[k]);
  return n;
}

/* A stroke must have length (one of none makes no tunnel, and no room), and
 * a letter at most MAX_LETTER_SEGMENTS segments (checked as strokes come). */
static cb_status check_stroke(const cb_table *t, const cb_table_row *row, const letter *l, int k,
                              int *segments, cb_error *err) {
  const polyline *pl = &l->polys[l->npolys - 1];
  if (stroke_length(pl) < MIN_STROKE_LENGTH)
    return cb_table_fail(t, row, err,
                         "stroke %d of letter '%s' has no length (under %g of the box): it would make "
                         "no tunnel",
                         k, l->name, MIN_STROKE_LENGTH);
  *segments += pl->n - 1;
  if (*segments > MAX_LETTER_SEGMENTS)
    return cb_table_fail(t, row, err,
                         "letter '%s' has more than %d segments (an arc or ellipse is one every %g "
                         "degrees): that is the most a letter may ask for",
                         l->name, MAX_LETTER_SEGMENTS, ARC_STEP_DEG);
  return CB_OK;
}

/* A letter's strokes: "L ... ; A ... ; E ...", every point inside the unit box. */
static cb_status parse_letter(const cb_table *t, const cb_table_row *row, letter *l, cb_error *err) {
  char *text = cb_malloc(strlen(row->fields[2]) + 1);
  if (!text) return cb_error_oom(err);
  strcpy(text, row->fields[2]);
  cb_status st = CB_OK;
  int k = 0, segments = 0;
  char *save = text;
  for (char *s = text; s && st == CB_OK; s = save) {
    char *semi = strchr(s, ';');
    save = semi ? semi + 1 : NULL;
    if (semi) *semi = '\0';
    k++;
    polyline pl = {0, cb_malloc(MAX_STROKE_POINTS * sizeof(upoint))};
    polyline *grown = cb_realloc(l->polys, (size_t)(l->npolys + 1) * sizeof *l->polys);
    if (!pl.p || !grown) {
      free(pl.p);
      if (grown) l->polys = grown;
      st = cb_error_oom(err);
      break;
    }
    l->polys = grown;
    l->polys[l->npolys++] = pl;
    polyline *cur = &l->polys[l->npolys - 1];
    if ((st = parse_stroke(t, row, k, s, cur, err)) != CB_OK) break;
    for (int i = 0; i < cur->n; i++)
      if (cur->p[i].u < -1e-9 || cur->p[i].u > 1 + 1e-9 || cur->p[i].v < -1e-9 || cur->p[i].v > 1 + 1e-9) {
        st = cb_table_fail(t, row, err,
                           "stroke %d of letter '%s' leaves its box at %.3g,%.3g (the box is 0..1 "
                           "both ways)",
                           k, l->name, cur->p[i].u, cur->p[i].v);
        break;
      }
    if (st == CB_OK) st = check_stroke(t, row, l, k, &segments, err);
  }
  free(text);
  int pieces = st == CB_OK ? letter_pieces(l) : 0;
  if (pieces > MAX_LETTER_PIECES)
    st = cb_table_fail(t, row, err,
                       "letter '%s' makes %d pieces (segments and where they cross or touch, strokes "
                       "closer than %g ft at the smallest sector touching); a letter may make at "
                       "most %d, twice the busiest shipped one, so that a 12x12 map stays quick",
                       l->name, pieces, SNAP_FT, MAX_LETTER_PIECES);
  return st;
}

/* A die table with exactly `rows` rows, each roll 1..rows once. */
static cb_status read_die_table(const char *name, int rows, int fields, cb_table *t, int *order,
                                cb_error *err) {
  char path[1024];
  cb_status st = cb_table_read(cb_table_path(name, path, sizeof path), fields, fields, t, err);
  if (st != CB_OK) return st;
  if (t->nrows != rows) {
    st = cb_table_fail(t, NULL, err, "expected %d rows, one for each roll of a d%d; found %d", rows, rows,
                       t->nrows);
    cb_table_free(t);
    return st;
  }
  for (int i = 0; i < rows; i++)
    order[i] = -1;
  for (int i = 0; i < rows; i++) {
    long v;
    if (!cb_table_int(t->rows[i].fields[0], 1, rows, &v)) {
      st = cb_table_fail(t, &t->rows[i], err, "'%s' is not a roll of a d%d (1 to %d)", t->rows[i].fields[0],
                         rows, rows);
      break;
    }
    if (order[v - 1] >= 0) {
      st =
          cb_table_fail(t, &t->rows[i], err, "roll %ld is already on line %d", v, t->rows[order[v - 1]].line);
      break;
    }
    order[v - 1] = i;
  }
  if (st != CB_OK) cb_table_free(t);
  return st;
}

static cb_status read_results(const char *name, int rows, result_row *out, int (*parse)(const char *),
                              const char *kinds, cb_error *err) {
  cb_table t;
  int order[DOOR_ROWS];
  cb_status st = read_die_table(name, rows, 3, &t, order, err);
  if (st != CB_OK) return st;
  for (int r = 0; r < rows && st == CB_OK; r++) {
    const cb_table_row *row = &t.rows[order[r]];
    int e = parse(row->fields[2]);
    if (e < 0)
      st = cb_table_fail(&t, row, err, "unknown effect '%s' (expected one of %s)", row->fields[2], kinds);
    else if (!row->fields[1][0] || strlen(row->fields[1]) >= sizeof out[r].text)
      st = cb_table_fail(&t, row, err, "the result must be 1 to %zu bytes", sizeof out[r].text - 1);
    else {
      out[r].effect = e;
      strcpy(out[r].text, row->fields[1]);
    }
  }
  cb_table_free(&t);
  return st;
}

static cb_status read_tables(const cb_leximorph_options *o, tables *tb, cb_error *err) {
  cb_table t;
  int order[LETTER_ROWS];
  cb_status st =
      read_die_table(o->letters ? o->letters : "leximorph-letters", LETTER_ROWS, 3, &t, order, err);
  if (st != CB_OK) return st;
  for (int r = 0; r < LETTER_ROWS && st == CB_OK; r++) {
    const cb_table_row *row = &t.rows[order[r]];
    letter *l = &tb->letters[r];
    if (!row->fields[1][0] || strlen(row->fields[1]) >= sizeof l->name || strpbrk(row->fields[1], " \t"))
      st = cb_table_fail(&t, row, err, "a letter's name must be 1 to %zu bytes without spaces",
                         sizeof l->name - 1);
    else {
      strcpy(l->name, row->fields[1]);
      st = parse_letter(&t, row, l, err);
    }
  }
  cb_table_free(&t);
  if (st != CB_OK) return st;
  st = read_results(o->junctions ? o->junctions : "leximorph-junctions", JUNCTION_ROWS, tb->junctions,
                    cb_junction_effect_parse, "ordinary, trapped, disabled-trap, obstacle, door, room", err);
  if (st != CB_OK) return st;
  return read_results(o->walls ? o->walls : "leximorph-walls", WALL_ROWS, tb->walls, cb_wall_effect_parse,
                      "blank, secret-door, branch, diagonals, blocked, door, doors, stairs", err);
}

/* ---- the network ---- */

typedef struct seg {
  double ax, ay, bx, by;
  int s1, s2; /* the sectors it belongs to (equal unless it joins two) */
  int join;
} seg;

typedef struct node {
  double x, y;
  int deg, junction, join;
} node;

typedef struct edge {
  int a, b, used;
} edge;

typedef struct lx {
  cb_dungeon *d;
  cb_rng rng;
  const cb_gen_options *o;
  const cb_leximorph_options *own;
  tables tb;
  cb_sketch *sk;
  int cols, rows;
  double S; /* sector side: a letter fills its sector (no inset) */
  seg *segs;
  int nsegs;
  size_t cap_segs;
  int *sector_first; /* first seg of each sector's letter; [nsectors] = letters' end */
  node *nodes;
  int nnodes;
  size_t cap_nodes;
  edge *edges;
  int nedges;
  size_t cap_edges;
  int *adj_start, *adj;    /* CSR: edge indices per node */
  int *junction_of;        /* node -> junction index or -1 */
  int *edge_tunnel;        /* edge -> the tunnel it lies in */
  double *edge_at;         /* edge -> how far along its tunnel it starts */
  unsigned char *edge_rev; /* edge -> 1 when its tunnel runs from b to a */
  struct station *st;      /* the wall checks' places, by tunnel and distance along it */
  int nst;
  result_row doors[DOOR_ROWS]; /* the d20 table: what lies beyond a door */
  int *door_of; /* junction j, then wall w's door k at nj + 2w + k -> index in sk->doors, or -1 */
} lx;

static int add_seg(lx *s, seg g) {
  if (hypot(g.bx - g.ax, g.by - g.ay) < 1e-9) return 0;
  if (cb_grow(&s->segs, &s->cap_segs, (size_t)s->nsegs + 1, sizeof *s->segs)) return -1;
  s->segs[s->nsegs++] = g;
  return 0;
}

static void sector_of(const lx *s, double x, double y, int *col, int *row) {
  int c = (int)floor(x / s->S), r = (int)floor(y / s->S);
  *col = c < 0 ? 0 : c >= s->cols ? s->cols - 1 : c;
  *row = r < 0 ? 0 : r >= s->rows ? s->rows - 1 : r;
}

/* The letter's box point (u, v) turned by `rotation` and placed in sector k. */
static void place(const lx *s, int k, int rotation, double u, double v, double *x, double *y) {
  double a = u, b = v;
  switch (rotation) {
  case 2: a = 1 - v, b = u; break; /* 90 degrees clockwise */
  case 3: a = 1 - u, b = 1 - v; break;
  case 4: a = v, b = 1 - u; break; /* 90 degrees counter-clockwise */
  default: break;
  }
  int col = k % s->cols, row = k / s->cols;
  *x = (col + a) * s->S;
  *y = (row + b) * s->S;
}

static const char *turn_words(int rotation) {
  static const char *const w[] = {"upright", "upright", "turned 90 degrees clockwise", "turned upside down",
                                  "turned 90 degrees counter-clockwise"};
  return rotation >= 1 && rotation <= 4 ? w[rotation] : "upright";
}

/* Roll the letters: a d10 per sector on the letter table, and a d4 for its turn. */
static cb_status roll_letters(lx *s, cb_error *err) {
  cb_dungeon *d = s->d;
  int n = s->cols * s->rows;
  cb_dungeon_log(d,
                 "The map is %d by %d sectors of %.0f ft (%.0f by %.0f ft); sectors are named column,row "
                 "from the top left.",
                 s->cols, s->rows, s->S, s->cols * s->S, s->rows * s->S);
  s->sector_first = cb_malloc(((size_t)n + 1) * sizeof *s->sector_first);
  if (!s->sector_first) return cb_error_oom(err);
  for (int k = 0; k < n; k++) {
    cb_sketch_sector *sec = &s->sk->sectors[k];
    sec->col = k % s->cols + 1;
    sec->row = k / s->cols + 1;
    sec->roll = cb_d10(&s->rng);
    sec->rotation = s->own->no_rotate ? 1 : cb_d4(&s->rng);
    const letter *l = &s->tb.letters[sec->roll - 1];
    sec->letter = cb_arena_strdup(d->arena, l->name);
    if (!sec->letter) return cb_error_oom(err);
    if (s->own->no_rotate)
      cb_dungeon_log(d, "Sector %d,%d: rolled %d -> %s.", sec->col, sec->row, sec->roll, l->name);
    else
      cb_dungeon_log(d, "Sector %d,%d: rolled %d -> %s, %s (d4: %d).", sec->col, sec->row, sec->roll, l->name,
                     turn_words(sec->rotation), sec->rotation);
    s->sector_first[k] = s->nsegs;
    for (int p = 0; p < l->npolys; p++)
      for (int i = 0; i + 1 < l->polys[p].n; i++) {
        seg g = {0, 0, 0, 0, k, k, 0};
        place(s, k, sec->rotation, l->polys[p].p[i].u, l->polys[p].p[i].v, &g.ax, &g.ay);
        place(s, k, sec->rotation, l->polys[p].p[i + 1].u, l->polys[p].p[i + 1].v, &g.bx, &g.by);
        if (add_seg(s, g)) return cb_error_oom(err);
      }
  }
  s->sector_first[n] = s->nsegs;
  return CB_OK;
}

static void project(double px, double py, const seg *g, double *qx, double *qy) {
  double dx = g->bx - g->ax, dy = g->by - g->ay, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((px - g->ax) * dx + (py - g->ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  *qx = g->ax + dx * t;
  *qy = g->ay + dy * t;
}

/* The closest points of two segments that do not cross; where several pairs
 * are equally close (parallel strokes) their middle. Returns the distance. */
static double closest(const seg *a, const seg *b, double p[4]) {
  double c[4][4];
  c[0][0] = a->ax, c[0][1] = a->ay, project(a->ax, a->ay, b, &c[0][2], &c[0][3]);
  c[1][0] = a->bx, c[1][1] = a->by, project(a->bx, a->by, b, &c[1][2], &c[1][3]);
  c[2][2] = b->ax, c[2][3] = b->ay, project(b->ax, b->ay, a, &c[2][0], &c[2][1]);
  c[3][2] = b->bx, c[3][3] = b->by, project(b->bx, b->by, a, &c[3][0], &c[3][1]);
  double best = INFINITY, dist[4];
  for (int i = 0; i < 4; i++) {
    double dx = c[i][2] - c[i][0], dy = c[i][3] - c[i][1];
    dist[i] = sqrt(dx * dx + dy * dy);
    if (dist[i] < best) best = dist[i];
  }
  int n = 0;
  p[0] = p[1] = p[2] = p[3] = 0;
  for (int i = 0; i < 4; i++)
    if (dist[i] < best + 0.01) {
      for (int k = 0; k < 4; k++)
        p[k] += c[i][k];
      n++;
    }
  for (int k = 0; k < 4; k++)
    p[k] /= n;
  return best;
}

/* The closest points between two sets of segments; returns the distance. */
static double closest_sets(const lx *s, int a0, int a1, int b0, int b1, const int *only_a, const int *only_b,
                           double p[4], int *sa, int *sb) {
  double best = INFINITY;
  for (int i = a0; i < a1; i++) {
    if (only_a && !only_a[i]) continue;
    for (int j = b0; j < b1; j++) {
      if (only_b && !only_b[j]) continue;
      const seg *a = &s->segs[i], *b = &s->segs[j];
      double gx =
          fmax(0, fmax(fmin(a->ax, a->bx) - fmax(b->ax, b->bx), fmin(b->ax, b->bx) - fmax(a->ax, a->bx)));
      double gy =
          fmax(0, fmax(fmin(a->ay, a->by) - fmax(b->ay, b->by), fmin(b->ay, b->by) - fmax(a->ay, a->by)));
      if (gx * gx + gy * gy > (best + 0.01) * (best + 0.01))
        continue; /* their boxes are already further apart */
      double q[4], dd = closest(a, b, q);
      if (dd < best - 1e-6) {
        best = dd;
        memcpy(p, q, sizeof q);
        *sa = i;
        *sb = j;
      }
    }
  }
  return best;
}

/* Join the letters: across every shared edge, the nearest strokes of the two
 * sectors are joined by a short tunnel so that the letters touch. */
static cb_status join_letters(lx *s, cb_error *err) {
  for (int k = 0; k < s->cols * s->rows; k++)
    for (int dir = 0; dir < 2; dir++) {
      int col = k % s->cols, row = k / s->cols;
      if ((dir == 0 && col + 1 >= s->cols) || (dir == 1 && row + 1 >= s->rows)) continue;
      int m = dir == 0 ? k + 1 : k + s->cols, sa, sb;
      double p[4] = {0, 0, 0, 0};
      double dist = closest_sets(s, s->sector_first[k], s->sector_first[k + 1], s->sector_first[m],
                                 s->sector_first[m + 1], NULL, NULL, p, &sa, &sb);
      const cb_sketch_sector *A = &s->sk->sectors[k], *B = &s->sk->sectors[m];
      if (!isfinite(dist)) continue;
      if (dist < SNAP_FT) {
        cb_dungeon_log(s->d, "Sectors %d,%d and %d,%d: the letters already touch.", A->col, A->row, B->col,
                       B->row);
        continue;
      }
      if (add_seg(s, (seg){p[0], p[1], p[2], p[3], k, m, 1})) return cb_error_oom(err);
      cb_dungeon_log(s->d,
                     "Sectors %d,%d (%s) and %d,%d (%s): the letters do not touch, so a %.0f ft tunnel joins "
                     "their nearest strokes across the edge between them.",
                     A->col, A->row, A->letter, B->col, B->row, B->letter, dist);
    }
  return CB_OK;
}

typedef struct split {
  int seg;
  double t;
} split;

static int split_cmp(const void *pa, const void *pb) {
  const split *a = pa, *b = pb;
  if (a->seg != b->seg) return a->seg - b->seg;
  return (a->t > b->t) - (a->t < b->t);
}

static int add_split(split **sp, int *n, size_t *cap, int which, double t) {
  if (cb_grow(sp, cap, (size_t)*n + 1, sizeof **sp)) return -1;
  (*sp)[(*n)++] = (split){which, t < 0 ? 0 : t > 1 ? 1 : t};
  return 0;
}

static int sectors_near(const lx *s, int p, int q) {
  return abs(p % s->cols - q % s->cols) <= 1 && abs(p / s->cols - q / s->cols) <= 1;
}

/* Letters fill their sectors, so strokes of neighbouring sectors may meet on
 * the edges and corners between them. */
static int may_meet(const lx *s, const seg *a, const seg *b) {
  return sectors_near(s, a->s1, b->s1) || sectors_near(s, a->s1, b->s2) || sectors_near(s, a->s2, b->s1) ||
         sectors_near(s, a->s2, b->s2);
}

/* Where a and b meet (cross, touch or overlap), as parameters on each. */
static int intersect(split **sp, int *n, size_t *cap, const lx *s, int i, int j) {
  const seg *a = &s->segs[i], *b = &s->segs[j];
  double rx = a->bx - a->ax, ry = a->by - a->ay, qx = b->bx - b->ax, qy = b->by - b->ay;
  double la = hypot(rx, ry), lb = hypot(qx, qy), den = rx * qy - ry * qx;
  double ea = SNAP_FT / la, eb = SNAP_FT / lb;
  double wx = b->ax - a->ax, wy = b->ay - a->ay;
  if (fabs(den) > 1e-9 * la * lb) {
    double t = (wx * qy - wy * qx) / den, u = (wx * ry - wy * rx) / den;
    if (t >= -ea && t <= 1 + ea && u >= -eb && u <= 1 + eb)
      if (add_split(sp, n, cap, i, t) || add_split(sp, n, cap, j, u)) return -1;
    return 0;
  }
  /* parallel: where one's ends lie on the other */
  const double ends[4][2] = {{a->ax, a->ay}, {a->bx, a->by}, {b->ax, b->ay}, {b->bx, b->by}};
  for (int e = 0; e < 4; e++) {
    const seg *on = e < 2 ? b : a;
    double px, py;
    project(ends[e][0], ends[e][1], on, &px, &py);
    if (hypot(px - ends[e][0], py - ends[e][1]) > SNAP_FT) continue;
    double ox = on->bx - on->ax, oy = on->by - on->ay;
    double t = ((px - on->ax) * ox + (py - on->ay) * oy) / (ox * ox + oy * oy);
    if (add_split(sp, n, cap, e < 2 ? j : i, t)) return -1;
  }
  return 0;
}

static int node_at(lx *s, double x, double y) {
  for (int i = s->nnodes - 1; i >= 0; i--)
    if (fabs(s->nodes[i].x - x) < SNAP_FT && fabs(s->nodes[i].y - y) < SNAP_FT) return i;
  if (cb_grow(&s->nodes, &s->cap_nodes, (size_t)s->nnodes + 1, sizeof *s->nodes)) return -1;
  s->nodes[s->nnodes] = (node){x, y, 0, 0, 0};
  return s->nnodes++;
}

static int add_edge(lx *s, int a, int b) {
  if (a == b) return 0;
  for (int i = 0; i < s->nedges; i++)
    if ((s->edges[i].a == a && s->edges[i].b == b) || (s->edges[i].a == b && s->edges[i].b == a)) return 0;
  if (cb_grow(&s->edges, &s->cap_edges, (size_t)s->nedges + 1, sizeof *s->edges)) return -1;
  s->edges[s->nedges++] = (edge){a, b, 0};
  return 0;
}

/* The planar graph of the strokes: split every segment where it meets
 * another of its own or a neighbouring sector, then one node per distinct
 * point. */
static cb_status build_graph(lx *s, cb_error *err) {
  split *sp = NULL;
  int nsp = 0;
  size_t cap = 0;
  s->nnodes = s->nedges = 0;
  for (int i = 0; i < s->nsegs; i++) {
    if (add_split(&sp, &nsp, &cap, i, 0) || add_split(&sp, &nsp, &cap, i, 1)) goto fail;
    for (int j = i + 1; j < s->nsegs; j++)
      if (may_meet(s, &s->segs[i], &s->segs[j]) && intersect(&sp, &nsp, &cap, s, i, j)) goto fail;
  }
  qsort(sp, (size_t)nsp, sizeof *sp, split_cmp);
  for (int k = 0; k < nsp;) {
    const seg *g = &s->segs[sp[k].seg];
    int prev = -1;
    for (int end = k; k < nsp && sp[k].seg == sp[end].seg; k++) {
      int nd = node_at(s, g->ax + (g->bx - g->ax) * sp[k].t, g->ay + (g->by - g->ay) * sp[k].t);
      if (nd < 0 || (prev >= 0 && add_edge(s, prev, nd))) goto fail;
      if (g->join && (sp[k].t == 0 || sp[k].t == 1)) s->nodes[nd].join = 1;
      prev = nd;
    }
  }
  free(sp);
  free(s->adj_start);
  free(s->adj);
  s->adj_start = cb_calloc((size_t)s->nnodes + 1, sizeof *s->adj_start);
  s->adj = cb_malloc(((size_t)s->nedges * 2 + 1) * sizeof *s->adj);
  if (!s->adj_start || !s->adj) return cb_error_oom(err);
  for (int i = 0; i < s->nnodes; i++)
    s->nodes[i].deg = 0;
  for (int e = 0; e < s->nedges; e++)
    s->nodes[s->edges[e].a].deg++, s->nodes[s->edges[e].b].deg++;
  for (int i = 0; i < s->nnodes; i++)
    s->adj_start[i + 1] = s->adj_start[i] + s->nodes[i].deg;
  int *fill = cb_calloc((size_t)s->nnodes + 1, sizeof *fill);
  if (!fill) return cb_error_oom(err);
  for (int e = 0; e < s->nedges; e++) {
    int a = s->edges[e].a, b = s->edges[e].b;
    s->adj[s->adj_start[a] + fill[a]++] = e;
    s->adj[s->adj_start[b] + fill[b]++] = e;
  }
  free(fill);
  return CB_OK;
fail:
  free(sp);
  return cb_error_oom(err);
}

static int other_end(const lx *s, int e, int n) { return s->edges[e].a == n ? s->edges[e].b : s->edges[e].a; }

static int find_root(int *parent, int i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* Joins piece `root` (its segments marked in in_a, the other pieces' in
 * in_b) to the nearest stroke of another piece, unless an earlier join of
 * this round already linked the two (joined: a union-find over nodes). */
static cb_status join_piece(lx *s, int nsegs, const int *piece, int root, int *in_a, int *in_b, int *joined,
                            int *left, cb_error *err) {
  for (int i = 0; i < nsegs; i++)
    in_a[i] = piece[i] == root, in_b[i] = piece[i] >= 0 && piece[i] != root;
  double p[4] = {0, 0, 0, 0};
  int sa = -1, sb = -1;
  double dist = closest_sets(s, 0, nsegs, 0, nsegs, in_a, in_b, p, &sa, &sb);
  if (sa < 0 || find_root(joined, root) == find_root(joined, piece[sb])) return CB_OK;
  joined[find_root(joined, root)] = find_root(joined, piece[sb]);
  /* add_seg may move the segments: keep the sectors, not pointers */
  int sector_a = s->segs[sa].s1, sector_b = s->segs[sb].s1;
  if (add_seg(s, (seg){p[0], p[1], p[2], p[3], sector_a, sector_b, 1})) return cb_error_oom(err);
  const cb_sketch_sector *sec = &s->sk->sectors[sector_b];
  cb_dungeon_log(s->d,
                 "A stroke of %s in sector %d,%d touched nothing: joined it to the nearest stroke with a "
                 "%.0f ft tunnel (%d pieces were left).",
                 sec->letter, sec->col, sec->row, dist, (*left)--);
  return CB_OK;
}

/* One round: every piece but the first is joined to the nearest stroke of
 * the rest, so the pieces at least halve and the graph is rebuilt a few
 * times only (once per piece made strokes that run side by side crawl). */
static cb_status join_round(lx *s, int *parent, int pieces, cb_error *err) {
  int nsegs = s->nsegs; /* the segments of the round's start: its joins wait for the next */
  size_t n = (size_t)nsegs + 1;
  int *piece = cb_malloc(n * sizeof *piece), *in_a = cb_malloc(n * sizeof *in_a),
      *in_b = cb_malloc(n * sizeof *in_b);
  cb_status st = piece && in_a && in_b ? CB_OK : cb_error_oom(err);
  /* a segment's piece is its first point's */
  for (int i = 0; st == CB_OK && i < nsegs; i++) {
    int nd = node_at(s, s->segs[i].ax, s->segs[i].ay);
    piece[i] = nd >= 0 && nd < s->nnodes ? find_root(parent, nd) : -1;
  }
  int root0 = s->nnodes ? find_root(parent, 0) : 0, *joined = parent; /* reused: roots stay roots */
  for (int i = 0; i < s->nnodes && st == CB_OK; i++)
    if (find_root(parent, i) == i && i != root0)
      st = join_piece(s, nsegs, piece, i, in_a, in_b, joined, &pieces, err);
  free(piece), free(in_a), free(in_b);
  return st;
}

/* Beyond the seed: a letter from a user's table may hold a stroke that
 * touches nothing; join each lost piece to the nearest stroke of the rest. */
static cb_status connect_pieces(lx *s, cb_error *err) {
  for (int round = 0;; round++) {
    cb_status st = build_graph(s, err);
    if (st != CB_OK) return st;
    int *parent = cb_malloc(((size_t)s->nnodes + 1) * sizeof *parent);
    if (!parent) return cb_error_oom(err);
    for (int i = 0; i < s->nnodes; i++)
      parent[i] = i;
    for (int e = 0; e < s->nedges; e++)
      parent[find_root(parent, s->edges[e].a)] = find_root(parent, s->edges[e].b);
    int pieces = 0;
    for (int i = 0; i < s->nnodes; i++)
      pieces += find_root(parent, i) == i;
    if (pieces > 1 && round <= 10000) st = join_round(s, parent, pieces, err);
    free(parent);
    if (st != CB_OK || pieces <= 1 || round > 10000) return st;
  }
}

/* Junctions: every end, corner, crossing and join of the strokes. */
static int is_junction(const lx *s, int n) {
  const node *v = &s->nodes[n];
  if (v->deg != 2 || v->join) return 1;
  int e0 = s->adj[s->adj_start[n]], e1 = s->adj[s->adj_start[n] + 1];
  const node *a = &s->nodes[other_end(s, e0, n)], *b = &s->nodes[other_end(s, e1, n)];
  double ux = v->x - a->x, uy = v->y - a->y, wx = b->x - v->x, wy = b->y - v->y;
  double turn = atan2(fabs(ux * wy - uy * wx), ux * wx + uy * wy) * 180 / CB_PI;
  return turn > CORNER_DEG;
}

typedef struct jorder {
  int node, col, row;
  double x, y;
} jorder;

static int jorder_cmp(const void *pa, const void *pb) {
  const jorder *a = pa, *b = pb;
  if (a->row != b->row) return a->row - b->row;
  if (a->col != b->col) return a->col - b->col;
  if (fabs(a->y - b->y) > 1e-6) return a->y < b->y ? -1 : 1;
  if (fabs(a->x - b->x) > 1e-6) return a->x < b->x ? -1 : 1;
  return a->node - b->node;
}

typedef struct pts {
  cb_sketch_point *p;
  int n;
  size_t cap;
} pts;

static int push_pt(pts *t, double x, double y) {
  if (cb_grow(&t->p, &t->cap, (size_t)t->n + 1, sizeof *t->p)) return -1;
  t->p[t->n++] = (cb_sketch_point){x, y};
  return 0;
}

/* Walks from junction node j along edge e to the next junction; appends the tunnel. */
static cb_status walk_tunnel(lx *s, int j, int e, cb_sketch_tunnel **tun, int *ntun, size_t *cap,
                             cb_error *err) {
  pts t = {0};
  int cur = j;
  double at = 0;
  if (push_pt(&t, s->nodes[j].x, s->nodes[j].y)) return cb_error_oom(err);
  for (;;) {
    s->edges[e].used = 1;
    s->edge_tunnel[e] = *ntun, s->edge_at[e] = at, s->edge_rev[e] = s->edges[e].a != cur;
    int was = cur;
    cur = other_end(s, e, cur);
    at += hypot(s->nodes[cur].x - s->nodes[was].x, s->nodes[cur].y - s->nodes[was].y);
    if (push_pt(&t, s->nodes[cur].x, s->nodes[cur].y)) {
      free(t.p);
      return cb_error_oom(err);
    }
    if (s->junction_of[cur] >= 0) break;
    int next = -1;
    for (int k = s->adj_start[cur]; k < s->adj_start[cur + 1]; k++)
      if (!s->edges[s->adj[k]].used) next = s->adj[k];
    if (next < 0) break;
    e = next;
  }
  if (cb_grow(tun, cap, (size_t)*ntun + 1, sizeof **tun)) {
    free(t.p);
    return cb_error_oom(err);
  }
  cb_sketch_tunnel *out = &(*tun)[(*ntun)++];
  out->npoints = t.n;
  out->points = cb_arena_alloc(s->d->arena, (size_t)t.n, sizeof *out->points);
  if (!out->points) {
    free(t.p);
    return cb_error_oom(err);
  }
  memcpy(out->points, t.p, (size_t)t.n * sizeof *t.p);
  free(t.p);
  /* a join tunnel is one whose ends are both join points */
  out->join = s->nodes[j].join && s->nodes[cur].join && t.n == 2;
  return CB_OK;
}

/* Trace the tunnels: the network's edges, chained from junction to junction. */
static cb_status trace_tunnels(lx *s, cb_error *err) {
  cb_dungeon *d = s->d;
  s->junction_of = cb_malloc(((size_t)s->nnodes + 1) * sizeof *s->junction_of);
  jorder *jo = cb_malloc(((size_t)s->nnodes + 1) * sizeof *jo);
  cb_sketch_tunnel *tun = NULL;
  int ntun = 0, nj = 0;
  size_t cap = 0;
  cb_status st = CB_OK;
  s->edge_tunnel = cb_malloc(((size_t)s->nedges + 1) * sizeof *s->edge_tunnel);
  s->edge_at = cb_malloc(((size_t)s->nedges + 1) * sizeof *s->edge_at);
  s->edge_rev = cb_calloc((size_t)s->nedges + 1, 1);
  if (!s->junction_of || !jo || !s->edge_tunnel || !s->edge_at || !s->edge_rev) goto fail_oom;
  for (int e = 0; e < s->nedges; e++)
    s->edge_tunnel[e] = -1, s->edge_at[e] = 0;
  for (int i = 0; i < s->nnodes; i++)
    s->junction_of[i] = is_junction(s, i) ? 0 : -1;
  /* a loop without a corner (an O) gets a junction at its top */
  for (int i = 0; i < s->nedges; i++)
    s->edges[i].used = 0;
  for (int i = 0; i < s->nnodes; i++)
    if (s->junction_of[i] >= 0)
      for (int k = s->adj_start[i]; k < s->adj_start[i + 1]; k++) {
        int cur = i, e = s->adj[k];
        while (!s->edges[e].used) {
          s->edges[e].used = 1;
          cur = other_end(s, e, cur);
          if (s->junction_of[cur] >= 0) break;
          for (int q = s->adj_start[cur]; q < s->adj_start[cur + 1]; q++)
            if (!s->edges[s->adj[q]].used) e = s->adj[q];
        }
      }
  for (int e = 0; e < s->nedges; e++) {
    if (s->edges[e].used) continue;
    int top = s->edges[e].a, cur = top, ed = e;
    while (!s->edges[ed].used) {
      s->edges[ed].used = 1;
      cur = other_end(s, ed, cur);
      if (s->nodes[cur].y < s->nodes[top].y - 1e-9 ||
          (fabs(s->nodes[cur].y - s->nodes[top].y) <= 1e-9 && s->nodes[cur].x < s->nodes[top].x))
        top = cur;
      for (int q = s->adj_start[cur]; q < s->adj_start[cur + 1]; q++)
        if (!s->edges[s->adj[q]].used) ed = s->adj[q];
    }
    s->junction_of[top] = 0;
  }
  for (int i = 0; i < s->nnodes; i++)
    if (s->junction_of[i] >= 0) {
      jo[nj] = (jorder){i, 0, 0, s->nodes[i].x, s->nodes[i].y};
      sector_of(s, s->nodes[i].x, s->nodes[i].y, &jo[nj].col, &jo[nj].row);
      nj++;
    }
  qsort(jo, (size_t)nj, sizeof *jo, jorder_cmp);
  cb_sketch *sk = s->sk;
  sk->junctions = cb_arena_alloc(d->arena, (size_t)nj + 1, sizeof *sk->junctions);
  if (!sk->junctions) goto fail_oom;
  sk->njunctions = nj;
  for (int k = 0; k < nj; k++) {
    s->junction_of[jo[k].node] = k;
    sk->junctions[k].x = round(jo[k].x * 100) / 100;
    sk->junctions[k].y = round(jo[k].y * 100) / 100;
  }
  for (int i = 0; i < s->nedges; i++)
    s->edges[i].used = 0;
  for (int k = 0; k < nj && st == CB_OK; k++)
    for (int q = s->adj_start[jo[k].node]; q < s->adj_start[jo[k].node + 1] && st == CB_OK; q++)
      if (!s->edges[s->adj[q]].used) st = walk_tunnel(s, jo[k].node, s->adj[q], &tun, &ntun, &cap, err);
  if (st != CB_OK) goto done;
  sk->tunnels = cb_arena_alloc(d->arena, (size_t)ntun + 1, sizeof *sk->tunnels);
  if (!sk->tunnels) goto fail_oom;
  if (ntun) memcpy(sk->tunnels, tun, (size_t)ntun * sizeof *tun);
  sk->ntunnels = ntun;
  double total = 0;
  for (int t = 0; t < ntun; t++)
    for (int i = 0; i + 1 < tun[t].npoints; i++) {
      cb_sketch_point *p = tun[t].points;
      total += hypot(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
    }
  for (int t = 0; t < ntun; t++)
    for (int i = 0; i < tun[t].npoints; i++) {
      tun[t].points[i].x = round(tun[t].points[i].x * 100) / 100;
      tun[t].points[i].y = round(tun[t].points[i].y * 100) / 100;
    }
  cb_dungeon_log(
      d,
      "The tunnel network: %d junctions (ends, corners, crossings and joins) and %d tunnels between "
      "them, %.0f ft in all.",
      nj, ntun, total);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(jo);
  free(tun);
  return st;
}

/* ---- rolls, rooms and passages ---- */

static double tunnel_length(const cb_sketch_tunnel *t) {
  double l = 0;
  for (int i = 0; i + 1 < t->npoints; i++)
    l += hypot(t->points[i + 1].x - t->points[i].x, t->points[i + 1].y - t->points[i].y);
  return l;
}

typedef struct station {
  int tunnel;
  double along, x, y, ux, uy; /* ft along the tunnel; its direction there */
} station;

static int station_cmp(const void *pa, const void *pb) {
  const station *a = pa, *b = pb;
  if (a->tunnel != b->tunnel) return a->tunnel - b->tunnel;
  return (a->along > b->along) - (a->along < b->along);
}

static double edge_len(const lx *s, int e) {
  if (s->edge_tunnel[e] < 0) return 0;
  const node *a = &s->nodes[s->edges[e].a], *b = &s->nodes[s->edges[e].b];
  return hypot(b->x - a->x, b->y - a->y);
}

/* The wall checks' places: one every 60 ft counted along the strokes from
 * end to end and on from one stroke to the next (the edges were made in
 * stroke order), never restarted at a junction; so the map gets a check for
 * every 60 ft of tunnel it has. */
static cb_status place_stations(lx *s, cb_error *err) {
  double total = 0, walked = 0;
  for (int e = 0; e < s->nedges; e++)
    total += edge_len(s, e);
  int n = (int)floor(total / WALL_FT + 1e-9), e = 0;
  s->st = cb_malloc(((size_t)n + 1) * sizeof *s->st);
  if (!s->st) return cb_error_oom(err);
  for (int k = 0; k < n; k++) {
    double at = (k + 0.5) * total / n;
    while (e + 1 < s->nedges && (s->edge_tunnel[e] < 0 || walked + edge_len(s, e) < at))
      walked += edge_len(s, e++);
    const node *a = &s->nodes[s->edges[e].a], *b = &s->nodes[s->edges[e].b];
    double l = edge_len(s, e), f = l > 0 ? (at - walked) / l : 0, dir = s->edge_rev[e] ? -1 : 1;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    station *p = &s->st[k];
    p->tunnel = s->edge_tunnel[e];
    p->along = s->edge_at[e] + (s->edge_rev[e] ? 1 - f : f) * l;
    p->x = a->x + (b->x - a->x) * f, p->y = a->y + (b->y - a->y) * f;
    p->ux = l > 0 ? (b->x - a->x) / l * dir : 1, p->uy = l > 0 ? (b->y - a->y) / l * dir : 0;
  }
  qsort(s->st, (size_t)n, sizeof *s->st, station_cmp);
  s->nst = n;
  return CB_OK;
}

typedef struct pending {
  double x, y;
  int station;    /* node of the point-crawl graph it hangs on */
  int door;       /* reached through a door */
  int secret;     /* through a secret door */
  int junction;   /* source: junction index or -1 */
  int wall, slot; /* source: wall index and 0/1, or -1 */
  int id;
  double nx, ny; /* the way from the tunnel to a room behind a door */
  int sdoor;     /* its door in sk->doors, or -1 */
  int chamber;   /* a large chamber */
} pending;

typedef struct crawl {
  int n; /* junctions then wall stations */
  int *start, *to;
  double *len;
  unsigned *flags; /* passage flags picked up passing the node */
} crawl;

static int pend_cmp(const void *pa, const void *pb) {
  const pending *a = pa, *b = pb;
  double dy = a->y - b->y, dx = a->x - b->x;
  if (fabs(dy) > 1e-6) return dy < 0 ? -1 : 1;
  if (fabs(dx) > 1e-6) return dx < 0 ? -1 : 1;
  return (a->junction * 1000 + a->wall * 2 + a->slot) - (b->junction * 1000 + b->wall * 2 + b->slot);
}

/* The middle of the widest gap between the tunnels leaving a junction. */
static void free_direction(const cb_sketch *sk, int j, double *ux, double *uy) {
  double ang[64];
  int n = 0;
  const cb_sketch_junction *J = &sk->junctions[j];
  for (int t = 0; t < sk->ntunnels && n < 62; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    const cb_sketch_point *a = &tu->points[0], *b = &tu->points[tu->npoints - 1];
    if (fabs(a->x - J->x) < 0.01 && fabs(a->y - J->y) < 0.01)
      ang[n++] = atan2(tu->points[1].y - a->y, tu->points[1].x - a->x);
    if (fabs(b->x - J->x) < 0.01 && fabs(b->y - J->y) < 0.01)
      ang[n++] = atan2(tu->points[tu->npoints - 2].y - b->y, tu->points[tu->npoints - 2].x - b->x);
  }
  double best = -1, dir = -CB_PI / 2;
  for (int i = 0; i < n; i++) {
    double next = INFINITY;
    for (int k = 0; k < n; k++) {
      double g = ang[k] - ang[i];
      while (g <= 1e-9)
        g += 2 * CB_PI;
      if (g < next) next = g;
    }
    if (n == 1) next = 2 * CB_PI;
    if (next > best + 1e-9) best = next, dir = ang[i] + next / 2;
  }
  *ux = cos(dir);
  *uy = sin(dir);
}

static const char *wall_side(const cb_sketch_wall *w) { return w->right ? "right" : "left"; }

static void clamp_point(const lx *s, cb_sketch_point *p) {
  double W = s->cols * s->S, H = s->rows * s->S;
  p->x = round(fmin(W, fmax(0, p->x)) * 100) / 100;
  p->y = round(fmin(H, fmax(0, p->y)) * 100) / 100;
}

/* The passage beyond a door as a short blind stub: straight on, at 45
 * degrees, or turning to run beside the tunnel (along u). */
static void stub_points(const lx *s, cb_sketch_door *dr, double ux, double uy) {
  double nx = dr->ux, ny = dr->uy, dx = nx, dy = ny, bend = STUB_FT / 2;
  if (dr->effect == CB_DOOR_DIAGONAL) dx = (nx + ux) / sqrt(2), dy = (ny + uy) / sqrt(2);
  if (dr->effect == CB_DOOR_PARALLEL) bend = 8;
  dr->stub[0] = (cb_sketch_point){dr->x, dr->y};
  dr->stub[1] = (cb_sketch_point){dr->x + dx * bend, dr->y + dy * bend};
  if (dr->effect == CB_DOOR_PARALLEL) dx = ux, dy = uy, bend = 0;
  dr->stub[2] =
      (cb_sketch_point){dr->stub[1].x + dx * (STUB_FT - bend), dr->stub[1].y + dy * (STUB_FT - bend)};
  for (int i = 0; i < CB_STUB_POINTS; i++)
    clamp_point(s, &dr->stub[i]);
}

typedef struct pend_list {
  pending *p;
  int n;
  size_t cap;
} pend_list;

/* A door off the tunnel at (cx, cy), opening the way (nx, ny); (ux, uy) runs
 * along the tunnel. The d20 says what lies beyond: a room or chamber is
 * noted for the point-crawl, a passage becomes a stub on the sketch. */
static cb_status open_door(lx *s, double cx, double cy, double nx, double ny, double ux, double uy,
                           pending from, int slot_of, pend_list *pl, cb_error *err) {
  cb_sketch *sk = s->sk;
  int k = sk->ndoors++;
  cb_sketch_door *dr = &sk->doors[k];
  cb_sketch_point at = {cx + nx * HALF_TUNNEL_FT, cy + ny * HALF_TUNNEL_FT};
  clamp_point(s, &at); /* a tunnel along the map's edge has its door in the edge */
  dr->x = at.x, dr->y = at.y;
  dr->ux = round(nx * 1e4) / 1e4, dr->uy = round(ny * 1e4) / 1e4;
  dr->roll = cb_rng_die(&s->rng, DOOR_ROWS);
  dr->effect = (cb_door_effect)s->doors[dr->roll - 1].effect;
  dr->result = cb_arena_strdup(s->d->arena, s->doors[dr->roll - 1].text);
  dr->secret = from.secret;
  s->door_of[slot_of] = k;
  if (!dr->result) return cb_error_oom(err);
  if (dr->effect != CB_DOOR_ROOM && dr->effect != CB_DOOR_CHAMBER) {
    stub_points(s, dr, ux, uy);
    return CB_OK;
  }
  if (cb_grow(&pl->p, &pl->cap, (size_t)pl->n + 1, sizeof *pl->p)) return cb_error_oom(err);
  from.x = cx + nx * DOOR_FT, from.y = cy + ny * DOOR_FT, from.nx = nx, from.ny = ny;
  from.sdoor = k, from.chamber = dr->effect == CB_DOOR_CHAMBER, from.door = 1;
  pl->p[pl->n++] = from;
  return CB_OK;
}

/* A d6 at every junction: a room sits on it, or a door opens off it. */
static cb_status roll_junctions(lx *s, pend_list *pl, cb_error *err) {
  cb_sketch *sk = s->sk;
  for (int j = 0; j < sk->njunctions; j++) {
    cb_sketch_junction *J = &sk->junctions[j];
    J->roll = cb_d6(&s->rng);
    const result_row *r = &s->tb.junctions[J->roll - 1];
    J->effect = (cb_junction_effect)r->effect;
    J->result = cb_arena_strdup(s->d->arena, r->text);
    if (!J->result) return cb_error_oom(err);
    pending at = {.x = J->x, .y = J->y, .station = j, .junction = j, .wall = -1, .sdoor = -1};
    if (J->effect == CB_JUNCTION_ROOM) {
      if (cb_grow(&pl->p, &pl->cap, (size_t)pl->n + 1, sizeof *pl->p)) return cb_error_oom(err);
      pl->p[pl->n++] = at;
    } else if (J->effect == CB_JUNCTION_DOOR) {
      double ux = 0, uy = 0;
      free_direction(sk, j, &ux, &uy);
      cb_status st = open_door(s, J->x, J->y, ux, uy, -uy, ux, at, j, pl, err);
      if (st != CB_OK) return st;
    }
  }
  return CB_OK;
}

/* A d8 on both walls at every station; doors roll on beyond. */
static cb_status roll_walls(lx *s, pend_list *pl, cb_error *err) {
  cb_sketch *sk = s->sk;
  for (int k = 0; k < s->nst; k++) {
    const station *p = &s->st[k];
    for (int side = 0; side < 2; side++) {
      cb_sketch_wall *w = &sk->walls[sk->nwalls++];
      w->x = round(p->x * 100) / 100;
      w->y = round(p->y * 100) / 100;
      w->tunnel = p->tunnel;
      w->right = side == 1;
      w->roll = cb_d8(&s->rng);
      const result_row *r = &s->tb.walls[w->roll - 1];
      w->effect = (cb_wall_effect)r->effect;
      w->result = cb_arena_strdup(s->d->arena, r->text);
      if (!w->result) return cb_error_oom(err);
      /* the side's outward normal: left of the direction of travel, y down */
      double nx = side ? -p->uy : p->uy, ny = side ? p->ux : -p->ux;
      int doors =
          w->effect == CB_WALL_DOORS ? 2 : w->effect == CB_WALL_DOOR || w->effect == CB_WALL_SECRET_DOOR;
      for (int slot = 0; slot < doors; slot++) {
        /* a pair's passages part, each away from the other */
        double along = doors == 2 ? (slot ? PAIR_FT : -PAIR_FT) : 0, away = doors == 2 && !slot ? -1 : 1;
        pending from = {.station = s->sk->njunctions + k,
                        .secret = w->effect == CB_WALL_SECRET_DOOR,
                        .junction = -1,
                        .wall = sk->nwalls - 1,
                        .slot = slot,
                        .sdoor = -1};
        cb_status st = open_door(s, w->x + p->ux * along, w->y + p->uy * along, nx, ny, p->ux * away,
                                 p->uy * away, from, sk->njunctions + 2 * (sk->nwalls - 1) + slot, pl, err);
        if (st != CB_OK) return st;
      }
    }
  }
  return CB_OK;
}

/* Roll the junctions (d6 each), the walls (d8 each side at every station)
 * and what lies beyond every door (d20), noting the rooms they make. */
static cb_status roll_features(lx *s, pending **out, int *nout, int *nstations, cb_error *err) {
  cb_dungeon *d = s->d;
  cb_sketch *sk = s->sk;
  pend_list pl = {0};
  int nwalls = 2 * s->nst, nslots = sk->njunctions + 2 * nwalls;
  sk->walls = cb_arena_alloc(d->arena, (size_t)nwalls + 1, sizeof *sk->walls);
  sk->doors = cb_arena_alloc(d->arena, (size_t)nslots + 1, sizeof *sk->doors);
  s->door_of = cb_malloc(((size_t)nslots + 1) * sizeof *s->door_of);
  if (!sk->walls || !sk->doors || !s->door_of) return cb_error_oom(err);
  for (int i = 0; i < nslots; i++)
    s->door_of[i] = -1;
  cb_status st = roll_junctions(s, &pl, err);
  if (st == CB_OK) st = roll_walls(s, &pl, err);
  if (st != CB_OK) {
    free(pl.p);
    return st;
  }
  *out = pl.p;
  *nout = pl.n;
  *nstations = s->nst;
  return CB_OK;
}

/* Beyond the seed: the way in must be an open room (generators.md). When
 * no roll made one, the junction nearest the bottom edge's middle becomes a
 * room, so that the party has somewhere to go. */
static cb_status ensure_a_room(lx *s, pending **pend, int *np, cb_error *err) {
  for (int i = 0; i < *np; i++)
    if (!(*pend)[i].secret) return CB_OK;
  if (s->sk->njunctions == 0 || (*np == 0 && s->o->faithful)) return CB_OK;
  cb_sketch *sk = s->sk;
  double cx = s->cols * s->S / 2, cy = s->rows * s->S;
  int best = 0;
  for (int j = 1; j < sk->njunctions; j++)
    if (hypot(sk->junctions[j].x - cx, sk->junctions[j].y - cy) <
        hypot(sk->junctions[best].x - cx, sk->junctions[best].y - cy))
      best = j;
  pending *p = cb_realloc(*pend, ((size_t)*np + 1) * sizeof *p);
  if (!p) return cb_error_oom(err);
  p[*np] = (pending){.x = sk->junctions[best].x,
                     .y = sk->junctions[best].y,
                     .station = best,
                     .junction = best,
                     .wall = -1,
                     .sdoor = -1};
  *pend = p;
  (*np)++;
  cb_dungeon_log(
      s->d,
      "No roll made an open room: junction %d, nearest the middle of the bottom edge, is taken as "
      "the way in and becomes a room (our repair; --faithful leaves a dungeon without any room so).",
      best + 1);
  return CB_OK;
}

static const char *const room_texts[] = {
    "A room where the tunnels meet.",
    "Behind a door at a junction of the tunnels.",
    "Behind a door in the tunnel wall.",
    "Behind a secret door in the tunnel wall.",
    "One of a pair of doors side by side in the tunnel wall.",
};

static double seg_dist2(double x, double y, const cb_sketch_point *a, const cb_sketch_point *b) {
  double dx = b->x - a->x, dy = b->y - a->y, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((x - a->x) * dx + (y - a->y) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = a->x + dx * t - x, ey = a->y + dy * t - y;
  return ex * ex + ey * ey;
}

/* Is a room at (x, y) clear of the tunnels and of rooms 0..n-1? */
static int room_clear(const lx *s, const pending *pend, int n, double x, double y) {
  const double gap = ROOM_FT + 3, W = s->cols * s->S, H = s->rows * s->S;
  if (x < ROOM_FT / 2 || y < ROOM_FT / 2 || x > W - ROOM_FT / 2 || y > H - ROOM_FT / 2) return 0;
  for (int i = 0; i < n; i++)
    if (fabs(pend[i].x - x) < gap && fabs(pend[i].y - y) < gap) return 0;
  const double clear = ROOM_FT * 0.75 + 5;
  for (int t = 0; t < s->sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &s->sk->tunnels[t];
    for (int i = 0; i + 1 < tu->npoints; i++)
      if (seg_dist2(x, y, &tu->points[i], &tu->points[i + 1]) < clear * clear) return 0;
  }
  return 1;
}

/* Where the sketch has no space for a room behind a door, its corridor runs
 * on a little further (the room keeps its door). */
static void make_space(const lx *s, pending *pend, int np) {
  for (int i = 0; i < np; i++) {
    pending *r = &pend[i];
    if (r->nx == 0 && r->ny == 0) continue;
    double bx = r->x - r->nx * DOOR_FT, by = r->y - r->ny * DOOR_FT;
    for (int k = 0; k < 6; k++) {
      double x = bx + r->nx * (DOOR_FT + 8 * k), y = by + r->ny * (DOOR_FT + 8 * k);
      if (room_clear(s, pend, i, x, y)) {
        r->x = x, r->y = y;
        break;
      }
    }
  }
}

/* The rooms: numbered from the top of the map down, left to right. */
static cb_status place_rooms(lx *s, pending *pend, int np, cb_error *err) {
  cb_dungeon *d = s->d;
  make_space(s, pend, np);
  qsort(pend, (size_t)np, sizeof *pend, pend_cmp);
  for (int i = 0; i < np; i++) {
    cb_room *r = cb_dungeon_add_room(d, 1, round(pend[i].x * 100) / 100, round(pend[i].y * 100) / 100);
    if (!r) return cb_error_oom(err);
    pend[i].id = r->id;
    const char *base = room_texts[0];
    if (pend[i].junction >= 0) {
      base = room_texts[pend[i].door ? 1 : 0];
      s->sk->junctions[pend[i].junction].room = r->id;
    } else {
      cb_sketch_wall *w = &s->sk->walls[pend[i].wall];
      w->rooms[pend[i].slot] = r->id;
      base = room_texts[pend[i].secret ? 3 : w->effect == CB_WALL_DOORS ? 4 : 2];
    }
    if (pend[i].sdoor >= 0) s->sk->doors[pend[i].sdoor].room = r->id;
    r->text = cb_arena_printf(d->arena, "%s%s Roll its size, shape and contents on your usual tables.",
                              pend[i].chamber ? "A large chamber. " : "", base);
    if (!r->text) return cb_error_oom(err);
  }
  return CB_OK;
}

/* The way in (the seed names none): the open room nearest the middle of the
 * bottom edge; never one behind a secret door. */
static cb_status choose_entrance(lx *s, const pending *pend, int np, cb_error *err) {
  cb_dungeon *d = s->d;
  double cx = s->cols * s->S / 2, cy = s->rows * s->S, best = INFINITY;
  cb_room *in = NULL;
  for (int i = 0; i < np; i++) {
    cb_room *r = cb_dungeon_room(d, pend[i].id);
    if (pend[i].secret || !r) continue;
    double dist = hypot(r->x - cx, r->y - cy);
    if (dist < best - 1e-9 || (dist < best + 1e-9 && in && r->id < in->id)) best = dist, in = r;
  }
  if (!in) return CB_OK;
  in->tags |= CB_TAG_ENTRANCE;
  in->text = cb_arena_printf(d->arena, "The way in. %s", in->text);
  cb_dungeon_log(
      d,
      "Room %d, the open room nearest the middle of the bottom edge, is the way in (the seed names "
      "none).",
      in->id);
  return in->text ? CB_OK : cb_error_oom(err);
}

/* What the d20 found beyond the door in slot k (see lx.door_of), for the log. */
static void door_words(const lx *s, int k, const char *which, char *buf, size_t n) {
  int i = s->door_of ? s->door_of[k] : -1;
  if (i < 0) return;
  const cb_sketch_door *dr = &s->sk->doors[i];
  size_t len = strlen(buf);
  if (dr->room)
    snprintf(buf + len, n - len, "; beyond %s (d20 %d) %s: room %d", which, dr->roll, dr->result, dr->room);
  else
    snprintf(buf + len, n - len, "; beyond %s (d20 %d) %s, ending blind", which, dr->roll, dr->result);
}

static void log_rolls(lx *s) {
  cb_dungeon *d = s->d;
  const cb_sketch *sk = s->sk;
  for (int j = 0; j < sk->njunctions; j++) {
    const cb_sketch_junction *J = &sk->junctions[j];
    int col, row;
    sector_of(s, J->x, J->y, &col, &row);
    if (J->effect == CB_JUNCTION_DOOR) {
      char beyond[192] = "";
      door_words(s, j, "it", beyond, sizeof beyond);
      cb_dungeon_log(d, "Junction %d (sector %d,%d): rolled %d -> %s%s.", j + 1, col + 1, row + 1, J->roll,
                     J->result, beyond);
    } else if (J->room)
      cb_dungeon_log(d, "Junction %d (sector %d,%d): rolled %d -> %s: room %d.", j + 1, col + 1, row + 1,
                     J->roll, J->result, J->room);
    else
      cb_dungeon_log(d, "Junction %d (sector %d,%d): rolled %d -> %s.", j + 1, col + 1, row + 1, J->roll,
                     J->result);
  }
  for (int i = 0; i < sk->nwalls; i += 2) {
    const cb_sketch_wall *L = &sk->walls[i], *R = &sk->walls[i + 1];
    char beyond[2][400] = {"", ""};
    for (int side = 0; side < 2; side++)
      for (int slot = 0; slot < 2; slot++)
        door_words(s, sk->njunctions + 2 * (i + side) + slot,
                   sk->walls[i + side].effect != CB_WALL_DOORS ? "it"
                   : slot                                      ? "the second"
                                                               : "the first",
                   beyond[side], sizeof beyond[side]);
    cb_dungeon_log(d, "Tunnel %d, %.0f ft in: %s wall rolled %d -> %s%s; %s wall rolled %d -> %s%s.",
                   L->tunnel + 1, s->st[i / 2].along, wall_side(L), L->roll, L->result, beyond[0],
                   wall_side(R), R->roll, R->result, beyond[1]);
  }
}

/* The point-crawl graph: junctions and wall stations, joined along the tunnels. */
static cb_status build_crawl(lx *s, int nstations, crawl *c, cb_error *err) {
  const cb_sketch *sk = s->sk;
  int nj = sk->njunctions, n = nj + nstations, ne = 0;
  c->n = n;
  c->start = cb_calloc((size_t)n + 2, sizeof *c->start);
  c->flags = cb_calloc((size_t)n + 1, sizeof *c->flags);
  int *ea = cb_malloc(((size_t)sk->ntunnels + (size_t)nstations + 1) * sizeof *ea);
  int *eb = cb_malloc(((size_t)sk->ntunnels + (size_t)nstations + 1) * sizeof *eb);
  double *el = cb_malloc(((size_t)sk->ntunnels + (size_t)nstations + 1) * sizeof *el);
  if (!c->start || !c->flags || !ea || !eb || !el) goto fail;
  for (int j = 0; j < nj; j++) {
    if (sk->junctions[j].effect == CB_JUNCTION_TRAPPED) c->flags[j] |= CB_FLAG_TRAPPED;
    if (sk->junctions[j].effect == CB_JUNCTION_OBSTACLE) c->flags[j] |= CB_FLAG_OBSTRUCTED;
  }
  /* a blocked passage is a side stub: it never blocks the tunnel */
  int k = 0;
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    double len = tunnel_length(tu);
    int prev = -1;
    for (int j = 0; j < nj && prev < 0; j++)
      if (fabs(sk->junctions[j].x - tu->points[0].x) < 0.01 &&
          fabs(sk->junctions[j].y - tu->points[0].y) < 0.01)
        prev = j;
    int last = -1;
    for (int j = 0; j < nj && last < 0; j++)
      if (fabs(sk->junctions[j].x - tu->points[tu->npoints - 1].x) < 0.01 &&
          fabs(sk->junctions[j].y - tu->points[tu->npoints - 1].y) < 0.01)
        last = j;
    double at = 0;
    for (; k < s->nst && s->st[k].tunnel == t; k++) {
      double here = fmin(len, fmax(at, s->st[k].along));
      ea[ne] = prev, eb[ne] = nj + k, el[ne++] = here - at;
      prev = nj + k;
      at = here;
    }
    ea[ne] = prev, eb[ne] = last, el[ne++] = len - at;
  }
  for (int e = 0; e < ne; e++)
    if (ea[e] >= 0 && eb[e] >= 0) c->start[ea[e] + 1]++, c->start[eb[e] + 1]++;
  for (int i = 0; i < n; i++)
    c->start[i + 1] += c->start[i];
  c->to = cb_malloc(((size_t)c->start[n] + 1) * sizeof *c->to);
  c->len = cb_malloc(((size_t)c->start[n] + 1) * sizeof *c->len);
  int *fill = cb_calloc((size_t)n + 1, sizeof *fill);
  if (!c->to || !c->len || !fill) {
    free(fill);
    goto fail;
  }
  for (int e = 0; e < ne; e++) {
    if (ea[e] < 0 || eb[e] < 0) continue;
    int a = ea[e], b = eb[e];
    c->to[c->start[a] + fill[a]] = b, c->len[c->start[a] + fill[a]++] = el[e];
    c->to[c->start[b] + fill[b]] = a, c->len[c->start[b] + fill[b]++] = el[e];
  }
  free(fill);
  free(ea), free(eb), free(el);
  return CB_OK;
fail:
  free(ea), free(eb), free(el);
  return cb_error_oom(err);
}

static void crawl_free(crawl *c) { free(c->start), free(c->to), free(c->len), free(c->flags); }

typedef struct search {
  double *dist;
  unsigned *flags;
  cb_heap heap; /* of node ints, reserved for every push a walk makes */
  int *touched, ntouched;
  int *via; /* the edge (index in crawl.to) the walk left `from` by */
  double *key;
} search;

/* Nearest first: dist is read at each compare, as a walk lowers it. */
static int nearer(const void *a, const void *b, void *ctx) {
  const search *q = ctx;
  return q->dist[*(const int *)a] < q->dist[*(const int *)b];
}

/* Shortest walks along the tunnels from `from`, not past another node that
 * holds rooms (is_key); flags gather what the walk passes on the way. */
static void walk_from(const crawl *c, const int *is_key, int from, search *q) {
  for (int i = 0; i < q->ntouched; i++)
    q->dist[q->touched[i]] = INFINITY, q->flags[q->touched[i]] = 0;
  q->ntouched = 0;
  q->heap.n = 0;
  q->dist[from] = 0;
  q->touched[q->ntouched++] = from;
  cb_heap_push(&q->heap, &from);
  while (q->heap.n) {
    int v;
    cb_heap_pop(&q->heap, &v);
    if (v != from && is_key[v]) continue;
    unsigned pass = v == from ? 0 : c->flags[v];
    for (int k = c->start[v]; k < c->start[v + 1]; k++) {
      int w = c->to[k];
      double nd = q->dist[v] + c->len[k];
      if (nd < q->dist[w] - 1e-9) {
        if (!isfinite(q->dist[w])) q->touched[q->ntouched++] = w;
        q->dist[w] = nd;
        q->flags[w] = q->flags[v] | pass;
        q->via[w] = v == from ? k : q->via[v];
        cb_heap_push(&q->heap, &w);
      }
    }
  }
}

/* The key place nearest along the last walk, or -1. */
static int nearest_key(const int *order, int nkeys, const search *q) {
  int best = -1;
  for (int k = 0; k < nkeys; k++)
    if (isfinite(q->dist[order[k]]) && (best < 0 || q->dist[order[k]] < q->dist[best] - 1e-9))
      best = order[k];
  return best;
}

/* A way along the tunnels between two rooms' places (key indices lo < hi)
 * that passes no other room: its length, what it passes, and whether it is
 * kept as a passage. */
typedef struct link {
  int lo, hi;
  double len;
  unsigned flags;
  int keep; /* 2: the next room along a branch out of lo or hi; 1: a join */
} link;

static int link_cmp(const void *pa, const void *pb) {
  const link *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo - b->lo;
  if (a->hi != b->hi) return a->hi - b->hi;
  return b->keep - a->keep;
}

static int link_len_cmp(const void *pa, const void *pb) {
  const link *a = pa, *b = pb;
  if (a->len != b->len) return (a->len > b->len) - (a->len < b->len);
  return link_cmp(pa, pb);
}

/* The ways out of key place k: one link to every place the walk reached,
 * marked keep where it is the nearest along its branch out of k. */
static int links_from(const crawl *c, const int *order, int nkeys, int k, const search *q, int *best,
                      link **ln, int *nl, size_t *cap) {
  int a = order[k], deg = c->start[a + 1] - c->start[a], at = *nl;
  for (int i = 0; i < deg; i++)
    best[i] = -1;
  for (int m = 0; m < nkeys; m++) {
    int b = order[m];
    if (m == k || !isfinite(q->dist[b])) continue;
    if (cb_grow(ln, cap, (size_t)*nl + 1, sizeof **ln)) return 1;
    (*ln)[(*nl)++] =
        (link){.lo = k < m ? k : m, .hi = k < m ? m : k, .len = q->dist[b], .flags = q->flags[b]};
    int *bb = &best[q->via[b] - c->start[a]];
    if (*bb < 0 || q->dist[b] < (*ln)[*bb].len - 1e-9) *bb = *nl - 1;
  }
  for (int i = 0; i < deg; i++)
    if (best[i] >= 0) (*ln)[best[i]].keep = 2;
  /* a way walked from the higher place reads as the one from the lower */
  for (int i = at; i < *nl; i++)
    if ((*ln)[i].lo != k) (*ln)[i].flags = ~0u;
  return 0;
}

/* Two records of one way become one: kept if either end keeps it, the
 * length and flags as walked from its lower place. */
static int merge_links(link *ln, int nl) {
  if (nl == 0) return 0; /* ln is NULL then */
  qsort(ln, (size_t)nl, sizeof *ln, link_cmp);
  int out = 0;
  for (int i = 0; i < nl; i++) {
    if (out && ln[out - 1].lo == ln[i].lo && ln[out - 1].hi == ln[i].hi) {
      if (ln[out - 1].flags == ~0u) ln[out - 1].flags = ln[i].flags, ln[out - 1].len = ln[i].len;
      continue;
    }
    ln[out++] = ln[i];
  }
  return out;
}

/* The passages along the tunnels: from each room's place, the next room
 * along every branch out of it (not every room the tunnels reach); where
 * those leave the rooms in parts that the tunnels join, the shortest ways
 * between the parts join them (a spanning tree's edges), so the point-crawl
 * keeps every way the tunnels give. Sorted by (lo, hi). */
static int next_rooms(const crawl *c, const int *is_key, const int *order, int nkeys, search *q, link **ln,
                      int *nl) {
  size_t cap = 0;
  int maxdeg = 1;
  for (int k = 0; k < nkeys; k++)
    if (c->start[order[k] + 1] - c->start[order[k]] > maxdeg)
      maxdeg = c->start[order[k] + 1] - c->start[order[k]];
  int *best = cb_malloc((size_t)maxdeg * sizeof *best),
      *parent = cb_malloc(((size_t)nkeys + 1) * sizeof *parent);
  int fail = !best || !parent;
  for (int k = 0; k < nkeys && !fail; k++) {
    walk_from(c, is_key, order[k], q);
    fail = links_from(c, order, nkeys, k, q, best, ln, nl, &cap);
  }
  if (!fail && *nl > 0) {
    *nl = merge_links(*ln, *nl);
    for (int k = 0; k < nkeys; k++)
      parent[k] = k;
    for (int i = 0; i < *nl; i++)
      if ((*ln)[i].keep) parent[find_root(parent, (*ln)[i].lo)] = find_root(parent, (*ln)[i].hi);
    qsort(*ln, (size_t)*nl, sizeof **ln, link_len_cmp);
    for (int i = 0; i < *nl; i++) {
      link *x = &(*ln)[i];
      int ra = find_root(parent, x->lo), rb = find_root(parent, x->hi);
      if (!x->keep && ra != rb) x->keep = 1, parent[ra] = rb;
    }
    qsort(*ln, (size_t)*nl, sizeof **ln, link_cmp);
  }
  free(best), free(parent);
  return fail;
}

static cb_status add_passage(cb_dungeon *d, const pending *a, const pending *b, double len, unsigned flags,
                             int *ndoor, int *nsecret) {
  int door = a->door || (b && b->door), secret = a->secret || (b && b->secret);
  cb_passage *p = cb_dungeon_add_passage(
      d, a->id, b ? b->id : 0, b ? (door ? CB_PASSAGE_DOOR : CB_PASSAGE_TUNNEL) : CB_PASSAGE_STAIRS);
  if (!p) return CB_EINTERNAL;
  p->flags = flags | (b && secret ? CB_FLAG_SECRET : 0);
  p->length_ft = round(len);
  if (b) *ndoor += door, *nsecret += secret;
  return CB_OK;
}

/* Follow the tunnels: a passage between every two rooms whose places are
 * next to each other along the tunnels; stairs lead down from the room
 * nearest them. */
static cb_status follow_tunnels(lx *s, pending *pend, int np, int nstations, cb_error *err) {
  cb_dungeon *d = s->d;
  crawl c = {0};
  cb_status st = build_crawl(s, nstations, &c, err);
  if (st != CB_OK) {
    crawl_free(&c);
    return st;
  }
  int n = c.n, ndoor = 0, nsecret = 0, nstairs = 0;
  char *has_stairs = NULL;
  search q = {0};
  link *ln = NULL;
  int *is_key = cb_calloc((size_t)n + 1, sizeof *is_key), *first = cb_malloc(((size_t)n + 1) * sizeof *first);
  int *order = cb_malloc(((size_t)n + 1) * sizeof *order);
  q.dist = cb_malloc(((size_t)n + 1) * sizeof *q.dist);
  q.flags = cb_calloc((size_t)n + 1, sizeof *q.flags);
  q.heap = cb_heap_make(sizeof(int), nearer, &q);
  int no_heap = cb_heap_reserve(&q.heap, (size_t)c.start[n] + (size_t)n + 1);
  q.touched = cb_malloc(((size_t)n + 1) * sizeof *q.touched);
  q.via = cb_malloc(((size_t)n + 1) * sizeof *q.via);
  if (!is_key || !first || !order || !q.dist || !q.flags || no_heap || !q.touched || !q.via) goto fail_oom;
  for (int i = 0; i < n; i++)
    q.dist[i] = INFINITY, first[i] = -1;
  /* a place's rooms meet the tunnel through its first open room (rooms are
   * sorted by id); a place with only rooms behind secret doors does not cut
   * the tunnel: only the step through the secret door is hidden */
  for (int i = np - 1; i >= 0; i--)
    if (!pend[i].secret) first[pend[i].station] = i, is_key[pend[i].station] = 1;
  int nkeys = 0, nl = 0, l = 0;
  for (int i = 0; i < np; i++)
    if (is_key[pend[i].station] == 1) order[nkeys++] = pend[i].station, is_key[pend[i].station] = 2;
  if (next_rooms(&c, is_key, order, nkeys, &q, &ln, &nl)) goto fail_oom;
  for (int k = 0; k < nkeys; k++) {
    int a = order[k];
    /* the rooms at one place along the tunnel open onto it side by side */
    for (int i = 0; i < np; i++)
      if (pend[i].station == a && i != first[a] &&
          add_passage(d, &pend[first[a]], &pend[i], 0, 0, &ndoor, &nsecret))
        goto fail_oom;
    for (; l < nl && ln[l].lo == k; l++)
      if (ln[l].keep && add_passage(d, &pend[first[a]], &pend[first[order[ln[l].hi]]], ln[l].len, ln[l].flags,
                                    &ndoor, &nsecret))
        goto fail_oom;
  }
  /* a room behind a secret door off the open tunnel: a secret step to the nearest room along it */
  for (int i = 0; i < np; i++) {
    if (!pend[i].secret || is_key[pend[i].station]) continue;
    walk_from(&c, is_key, pend[i].station, &q);
    int best = nearest_key(order, nkeys, &q);
    if (best >= 0 &&
        add_passage(d, &pend[first[best]], &pend[i], q.dist[best], q.flags[best], &ndoor, &nsecret))
      goto fail_oom;
  }
  /* stairs down: from the nearest room along the tunnels, listed once a room */
  has_stairs = cb_calloc((size_t)np + 1, 1);
  if (!has_stairs) goto fail_oom;
  for (int i = 0; i < s->sk->nwalls && np > 0; i++) {
    if (s->sk->walls[i].effect != CB_WALL_STAIRS) continue;
    int from = s->sk->njunctions + i / 2, best = -1;
    for (int t = 0; t < q.ntouched; t++)
      q.dist[q.touched[t]] = INFINITY, q.flags[q.touched[t]] = 0;
    q.ntouched = 0;
    /* walk without stopping at rooms, then take the nearest room's node */
    int *open = cb_calloc((size_t)n + 1, sizeof *open);
    if (!open) goto fail_oom;
    walk_from(&c, open, from, &q);
    free(open);
    best = nearest_key(order, nkeys, &q);
    if (best < 0) continue;
    if (has_stairs[first[best]]) {
      cb_dungeon_log(
          d, "Stairs in tunnel %d lead down near room %d, %.0f ft away, which lists its stairs already.",
          s->sk->walls[i].tunnel + 1, pend[first[best]].id, q.dist[best]);
      continue;
    }
    has_stairs[first[best]] = 1;
    if (add_passage(d, &pend[first[best]], NULL, q.dist[best], 0, &ndoor, &nsecret)) goto fail_oom;
    nstairs++;
    cb_dungeon_log(d, "Stairs in tunnel %d lead down; room %d is the nearest room, %.0f ft away.",
                   s->sk->walls[i].tunnel + 1, pend[first[best]].id, q.dist[best]);
  }
  cb_dungeon_log(d,
                 "Followed the tunnels between the rooms: %d passages, %d of them through doors (%d secret), "
                 "and %d %s down to another level.",
                 d->npassages - nstairs, ndoor, nsecret, nstairs, nstairs == 1 ? "stair" : "stairs");
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  crawl_free(&c);
  free(is_key), free(first), free(order), free(has_stairs);
  free(q.dist), free(q.flags), cb_heap_free(&q.heap), free(q.touched), free(q.via), free(ln);
  return st;
}

/* ---- the generator ---- */

static cb_status validate(const cb_gen_options *opts, cb_error *err) {
  const cb_leximorph_options *o = cb_leximorph_options_of(opts);
  if (opts->levels > 1)
    return cb_error_set(err, CB_EINPUT, "--levels %d: leximorph makes one level (its stairs lead down)",
                        opts->levels);
  if (o->sector_cols < 0 || o->sector_cols > MAX_SECTORS || o->sector_rows < 0 ||
      o->sector_rows > MAX_SECTORS || (o->sector_cols == 0) != (o->sector_rows == 0))
    return cb_error_set(err, CB_EINPUT, "--sectors %dx%d: expected 1x1 to %dx%d sectors", o->sector_cols,
                        o->sector_rows, MAX_SECTORS, MAX_SECTORS);
  if (o->sector_ft != 0 && (o->sector_ft < MIN_SECTOR_FT || o->sector_ft > MAX_SECTOR_FT))
    return cb_error_set(err, CB_EINPUT, "--sector-ft %d: expected %d to %d feet", o->sector_ft, MIN_SECTOR_FT,
                        MAX_SECTOR_FT);
  return CB_OK;
}

static void record_options(lx *s) {
  cb_leximorph_options used = *s->own;
  used.sector_cols = s->cols;
  used.sector_rows = s->rows;
  used.sector_ft = (int)s->S;
  cb_option_record_all(s->d, &cb_leximorph_option_specs, s->o, &used);
}

static cb_status steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)ctx;
  cb_status st;
  lx s = {0};
  pending *pend = NULL;
  int np = 0, nstations = 0;
  const cb_leximorph_options *own = cb_leximorph_options_of(o);
  s.o = o, s.own = own;
  s.cols = own->sector_cols ? own->sector_cols : DEFAULT_SECTORS;
  s.rows = own->sector_rows ? own->sector_rows : DEFAULT_SECTORS;
  s.S = own->sector_ft ? own->sector_ft : DEFAULT_SECTOR_FT;
  if ((st = read_tables(own, &s.tb, err)) != CB_OK) goto done;
  if ((st = read_results(own->doors ? own->doors : "leximorph-doors", DOOR_ROWS, s.doors,
                         cb_door_effect_parse, "parallel, ahead, diagonal, room, chamber", err)) != CB_OK)
    goto done;
  cb_rng_seed(&s.rng, o->seed, 0);
  s.d = d;
  s.sk = cb_arena_alloc(d->arena, 1, sizeof *s.sk);
  cb_leximorph_proc *proc = cb_arena_alloc(d->arena, 1, sizeof *proc);
  if (!s.sk || !proc || !cb_dungeon_add_level(d, 1, "Level 1")) goto fail_oom;
  proc->sketch = s.sk;
  d->procedure = proc;
  s.sk->cols = s.cols, s.sk->rows = s.rows, s.sk->sector_ft = s.S;
  s.sk->nsectors = s.cols * s.rows;
  s.sk->sectors = cb_arena_alloc(d->arena, (size_t)s.sk->nsectors, sizeof *s.sk->sectors);
  if (!s.sk->sectors) goto fail_oom;
  record_options(&s);
  if ((st = roll_letters(&s, err)) != CB_OK) goto done;
  if ((st = join_letters(&s, err)) != CB_OK) goto done;
  if ((st = connect_pieces(&s, err)) != CB_OK) goto done;
  if ((st = trace_tunnels(&s, err)) != CB_OK) goto done;
  if ((st = place_stations(&s, err)) != CB_OK) goto done;
  if ((st = roll_features(&s, &pend, &np, &nstations, err)) != CB_OK) goto done;
  if ((st = ensure_a_room(&s, &pend, &np, err)) != CB_OK) goto done;
  if ((st = place_rooms(&s, pend, np, err)) != CB_OK) goto done;
  log_rolls(&s);
  if ((st = choose_entrance(&s, pend, np, err)) != CB_OK) goto done;
  if ((st = follow_tunnels(&s, pend, np, nstations, err)) != CB_OK) goto done;
  proc->nsectors = s.sk->nsectors, proc->sectors = s.sk->sectors;
  proc->njunctions = s.sk->njunctions, proc->junctions = s.sk->junctions;
  proc->nwalls = s.sk->nwalls, proc->walls = s.sk->walls;
  proc->ndoors = s.sk->ndoors, proc->doors = s.sk->doors;
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  tables_free(&s.tb);
  free(pend);
  free(s.segs);
  free(s.sector_first);
  free(s.nodes);
  free(s.edges);
  free(s.adj_start);
  free(s.adj);
  free(s.junction_of);
  free(s.edge_tunnel), free(s.edge_at), free(s.edge_rev), free(s.st), free(s.door_of);
  return st;
}

const cb_generator cb_gen_leximorph = {
    .name = "leximorph",
    .title_noun = "Tunnels",
    .max_rooms = 0,
    .rooms_note = "leximorph's rooms come from the dice (junctions and doors); use --sectors to make the map "
                  "bigger",
    .validate = validate,
    .steps = steps,
    .what = "A leximorph tunnel dungeon",
    .io = &cb_proc_io_leximorph,
    .layout = &cb_leximorph_layout,
    .options = &cb_leximorph_option_specs,
};
