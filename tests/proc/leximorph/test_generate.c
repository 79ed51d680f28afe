/* leximorph (seed 001): the rules of generators.md checked on the output
 * over many seeds, the letter table's errors, and the JSON round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/json.h"
#include "model/check.h"
#include "proc/leximorph/proc.h"
#include "registry/registry.h"
#include "run/job.h"
#include "testlib.h"

/* The options as these tests give them: the common ones and leximorph's own
 * in one value. */
typedef struct opts {
  uint64_t seed;
  int rooms, levels;
  bool faithful;
  const char *title;
  int sector_cols, sector_rows, sector_ft;
  bool no_rotate;
  const char *letters, *junctions, *walls, *doors;
} opts;

/* o as the procedure reads it: the common record pointing to its own. */
static cb_gen_options split(const opts *o, cb_leximorph_options *own) {
  *own = (cb_leximorph_options){o->sector_cols, o->sector_rows, o->sector_ft, o->no_rotate,
                                o->letters,     o->junctions,   o->walls,     o->doors};
  return (cb_gen_options){o->seed, o->rooms, o->levels, o->faithful, o->title, own};
}

static cb_status generate(const opts *o, cb_dungeon **d, cb_error *err) {
  cb_leximorph_options own;
  cb_gen_options g = split(o, &own);
  return cb_generator_run(&cb_gen_leximorph, &g, d, err);
}

static cb_status validate(const opts *o, cb_error *err) {
  cb_leximorph_options own;
  cb_gen_options g = split(o, &own);
  return cb_generator_check(&cb_gen_leximorph, &g, err);
}

static cb_dungeon *make(const opts *o) {
  cb_dungeon *d = NULL;
  cb_error err = {0};
  cb_status st = generate(o, &d, &err);
  if (st != CB_OK) fail_msg("seed %llu: %s", (unsigned long long)o->seed, err.msg);
  return d;
}

static int same(double ax, double ay, double bx, double by) {
  return fabs(ax - bx) < 0.02 && fabs(ay - by) < 0.02;
}

static int junction_at(const cb_sketch *sk, double x, double y) {
  for (int j = 0; j < sk->njunctions; j++)
    if (same(sk->junctions[j].x, sk->junctions[j].y, x, y)) return j;
  return -1;
}

static int find(int *parent, int i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

static double length(const cb_sketch_tunnel *t) {
  double l = 0;
  for (int i = 0; i + 1 < t->npoints; i++)
    l += hypot(t->points[i + 1].x - t->points[i].x, t->points[i + 1].y - t->points[i].y);
  return l;
}

/* Strokes meeting within this many feet are joined into one point (on either side of an edge). */
static const double SNAP = 0.6;

/* Loops of the default letters, upright: they must survive every turn. */
static int letter_loops(const char *letter) {
  static const struct {
    const char *l;
    int loops;
  } t[] = {{"A", 1}, {"B", 2}, {"D", 1}, {"O", 1}, {"P", 1},
           {"Q", 1}, {"T", 0}, {"L", 0}, {"g", 1}, {"X", 0}};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (strcmp(t[i].l, letter) == 0) return t[i].loops;
  return -1;
}

/* Cycle rank (edges - vertices + pieces) of the tunnels wholly inside sector k. */
static int sector_loops(const cb_sketch *sk, int k, int *parent) {
  double x0 = (k % sk->cols) * sk->sector_ft, y0 = (k / sk->cols) * sk->sector_ft, S = sk->sector_ft;
  int edges = 0, verts = 0, pieces = 0;
  char *seen = calloc((size_t)sk->njunctions + 1, 1);
  for (int j = 0; j < sk->njunctions; j++)
    parent[j] = j;
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    int inside = 1;
    for (int i = 0; i < tu->npoints && inside; i++)
      inside = tu->points[i].x > x0 - SNAP && tu->points[i].x < x0 + S + SNAP &&
               tu->points[i].y > y0 - SNAP && tu->points[i].y < y0 + S + SNAP;
    if (!inside) continue;
    int a = junction_at(sk, tu->points[0].x, tu->points[0].y);
    int b = junction_at(sk, tu->points[tu->npoints - 1].x, tu->points[tu->npoints - 1].y);
    edges++;
    if (!seen[a]) seen[a] = 1, verts++;
    if (!seen[b]) seen[b] = 1, verts++;
    parent[find(parent, a)] = find(parent, b);
  }
  for (int j = 0; j < sk->njunctions; j++)
    pieces += seen[j] && find(parent, j) == j;
  free(seen);
  return edges - verts + pieces;
}

/* Is `id` the room or chamber beyond one of the doors? */
static int door_room(const cb_sketch *sk, int id) {
  for (int k = 0; k < sk->ndoors; k++)
    if (sk->doors[k].room == id) return 1;
  return 0;
}

static void check_dungeon(const cb_dungeon *d, const opts *o) {
  const cb_sketch *sk = cb_leximorph_sketch(d);
  const cb_leximorph_proc *p = cb_leximorph_of(d);
  assert_non_null(sk);
  assert_non_null(p);
  assert_int_equal(p->nsectors, sk->cols * sk->rows);
  assert_ptr_equal(p->junctions, sk->junctions);
  cb_error err = {0};
  if (cb_check_structure(d, &err) != CB_OK) fail_msg("seed %llu: %s", (unsigned long long)o->seed, err.msg);
  /* sectors: a d10 on the default table, a d4 turn */
  static const char *const letters[] = {"A", "B", "D", "O", "P", "Q", "T", "L", "g", "X"};
  int *parent = malloc(((size_t)sk->njunctions + 1) * sizeof *parent);
  for (int k = 0; k < p->nsectors; k++) {
    const cb_sketch_sector *s = &p->sectors[k];
    assert_true(s->roll >= 1 && s->roll <= 10);
    assert_string_equal(s->letter, letters[s->roll - 1]);
    assert_true(s->rotation >= 1 && s->rotation <= 4);
    if (o->no_rotate) assert_int_equal(s->rotation, 1);
    int loops = sector_loops(sk, k, parent);
    /* letters fill their sectors, so a neighbour's stroke on a shared edge may close another loop */
    if (loops < letter_loops(s->letter))
      fail_msg("seed %llu: sector %d,%d (%s, turn %d) has %d loops", (unsigned long long)o->seed, s->col,
               s->row, s->letter, s->rotation, loops);
  }
  /* every tunnel runs from junction to junction; the network is one piece */
  for (int j = 0; j < sk->njunctions; j++)
    parent[j] = j;
  int *degree = calloc((size_t)sk->njunctions + 1, sizeof *degree), repaired = 0, rooms_behind = 0;
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    assert_true(tu->npoints >= 2);
    int a = junction_at(sk, tu->points[0].x, tu->points[0].y);
    int b = junction_at(sk, tu->points[tu->npoints - 1].x, tu->points[tu->npoints - 1].y);
    if (a < 0 || b < 0)
      fail_msg("seed %llu: tunnel %d does not end at junctions", (unsigned long long)o->seed, t + 1);
    parent[find(parent, a)] = find(parent, b);
    degree[a]++, degree[b]++;
  }
  for (int j = 0; j < sk->njunctions; j++) {
    if (find(parent, j) != find(parent, 0))
      fail_msg("seed %llu: junction %d is cut off", (unsigned long long)o->seed, j + 1);
    /* one d6 per junction, read on the default table */
    const cb_sketch_junction *J = &sk->junctions[j];
    assert_true(J->roll >= 1 && J->roll <= 6);
    assert_int_equal((int)J->effect, J->roll - 1);
    assert_true(degree[j] >= 1);
    if (J->effect == CB_JUNCTION_ROOM)
      assert_non_null(cb_dungeon_room(d, J->room));
    else if (J->effect == CB_JUNCTION_DOOR && J->room)
      assert_true(door_room(sk, J->room));
    else if (J->room)
      repaired++; /* the way in made where no roll made an open room */
  }
  assert_true(repaired <= 1);
  free(degree);
  /* one d20 a door: rooms and chambers are rooms, passages are stubs inside the map */
  int want_doors = 0;
  for (int j = 0; j < sk->njunctions; j++)
    want_doors += sk->junctions[j].effect == CB_JUNCTION_DOOR;
  for (int i = 0; i < sk->nwalls; i++)
    want_doors += sk->walls[i].effect == CB_WALL_DOORS
                      ? 2
                      : sk->walls[i].effect == CB_WALL_DOOR || sk->walls[i].effect == CB_WALL_SECRET_DOOR;
  assert_int_equal(sk->ndoors, want_doors);
  for (int k = 0; k < sk->ndoors; k++) {
    const cb_sketch_door *dr = &sk->doors[k];
    static const int effect_of[21] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4};
    assert_true(dr->roll >= 1 && dr->roll <= 20);
    assert_int_equal((int)dr->effect, effect_of[dr->roll]);
    int is_room = dr->effect == CB_DOOR_ROOM || dr->effect == CB_DOOR_CHAMBER;
    assert_int_equal(dr->room != 0, is_room);
    if (is_room) assert_non_null(cb_dungeon_room(d, dr->room));
    for (int i = 0; !is_room && i < CB_STUB_POINTS; i++)
      assert_true(dr->stub[i].x >= 0 && dr->stub[i].x <= sk->cols * sk->sector_ft && dr->stub[i].y >= 0 &&
                  dr->stub[i].y <= sk->rows * sk->sector_ft);
    rooms_behind += is_room;
  }
  /* one d8 per side for every 60 ft of tunnel, counted over the whole network */
  int left = 0, right = 0;
  double total = 0;
  for (int i = 0; i < sk->nwalls; i++) {
    const cb_sketch_wall *w = &sk->walls[i];
    assert_true(w->tunnel >= 0 && w->tunnel < sk->ntunnels);
    assert_true(w->roll >= 1 && w->roll <= 8);
    assert_int_equal((int)w->effect, w->roll - 1);
    (w->right ? &right : &left)[0]++;
    int want = w->effect == CB_WALL_DOORS ? 2 : w->effect == CB_WALL_DOOR || w->effect == CB_WALL_SECRET_DOOR;
    for (int k = 0; k < 2; k++)
      if (k >= want)
        assert_int_equal(w->rooms[k], 0);
      else if (w->rooms[k])
        assert_true(door_room(sk, w->rooms[k]));
  }
  for (int t = 0; t < sk->ntunnels; t++)
    total += length(&sk->tunnels[t]);
  if (abs(left - (int)floor(total / 60 + 1e-6)) > 1 || left != right)
    fail_msg("seed %llu: %.1f ft of tunnel but %d/%d wall checks", (unsigned long long)o->seed, total, left,
             right);
  /* rooms: one per room junction, one behind every door that found a room or chamber */
  int at_junctions = 0;
  for (int j = 0; j < sk->njunctions; j++)
    at_junctions += sk->junctions[j].effect == CB_JUNCTION_ROOM;
  assert_int_equal(d->nrooms, at_junctions + rooms_behind + repaired);
  if (repaired) assert_false(o->faithful && at_junctions + rooms_behind == 0);
  /* every room can be reached along the tunnels; stairs lead out */
  if (d->nrooms > 0) {
    cb_graph g;
    assert_int_equal(cb_graph_build(d, &g), 0);
    bool *reached = calloc((size_t)d->nrooms + 1, sizeof *reached);
    assert_int_equal(cb_check_walk(d, &g, 0, reached), 0);
    for (int i = 0; i < d->nrooms; i++)
      if (!reached[i]) fail_msg("seed %llu: room %d cannot be reached", (unsigned long long)o->seed, i + 1);
    free(reached);
    cb_graph_free(&g);
  }
  int stairs = 0, stair_walls = 0;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (ps->to == 0) {
      assert_int_equal(ps->kind, CB_PASSAGE_STAIRS);
      stairs++;
    } else {
      assert_true(ps->kind == CB_PASSAGE_TUNNEL || ps->kind == CB_PASSAGE_DOOR);
    }
  }
  for (int i = 0; i < sk->nwalls; i++)
    stair_walls += sk->walls[i].effect == CB_WALL_STAIRS;
  if (d->nrooms) assert_true(stairs <= stair_walls && (stairs > 0) == (stair_walls > 0));
  int entrances = 0;
  for (int i = 0; i < d->nrooms; i++)
    entrances += (d->rooms[i].tags & CB_TAG_ENTRANCE) != 0;
  assert_int_equal(entrances, d->nrooms ? 1 : 0);
  free(parent);
}

/* How wide and tall the default letters are in their unit box (turned by the d4). */
static void letter_box(const char *letter, int rotation, double wh[2]) {
  static const struct {
    const char *l;
    double w, h;
  } t[] = {{"A", 1, 1},   {"B", 1, 1}, {"D", 1, 1},   {"O", 0.9, 1}, {"P", 0.95, 1},
           {"Q", 0.9, 1}, {"T", 1, 1}, {"L", 0.8, 1}, {"g", 0.7, 1}, {"X", 1, 1}};
  wh[0] = wh[1] = 1;
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (strcmp(t[i].l, letter) == 0) wh[0] = t[i].w, wh[1] = t[i].h;
  if (rotation == 2 || rotation == 4) {
    double w = wh[0];
    wh[0] = wh[1], wh[1] = w;
  }
}

/* Issue 12's rules, counted over many seeds so that a failure says how often
 * each rule is broken (generators.md "leximorph"). */
typedef struct rule_counts {
  int maps, cut_off, secret_entrance, not_nearest, inset, checks, blocked, stairs_twice;
  long rooms;
} rule_counts;

static int behind_secret(const cb_sketch *sk, int id) {
  for (int i = 0; i < sk->nwalls; i++)
    if (sk->walls[i].effect == CB_WALL_SECRET_DOOR &&
        (sk->walls[i].rooms[0] == id || sk->walls[i].rooms[1] == id))
      return 1;
  return 0;
}

/* Every room not behind a secret door is reached from the entrance without
 * a secret passage. */
static int open_rooms_cut_off(const cb_dungeon *d, const cb_sketch *sk, int entrance) {
  int n = d->nrooms, *seen = calloc((size_t)n + 1, sizeof *seen),
      *stack = malloc(((size_t)n + 1) * sizeof *stack);
  int top = 0, cut = 0;
  seen[entrance] = 1, stack[top++] = entrance;
  while (top > 0) {
    int r = stack[--top];
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *ps = &d->passages[i];
      if (ps->to == 0 || (ps->flags & CB_FLAG_SECRET)) continue;
      int a = ps->from - 1, b = ps->to - 1, o = a == r ? b : b == r ? a : -1;
      if (o >= 0 && !seen[o]) seen[o] = 1, stack[top++] = o;
    }
  }
  for (int i = 0; i < n; i++)
    cut += !seen[i] && !behind_secret(sk, d->rooms[i].id);
  free(seen), free(stack);
  return cut;
}

static void count_rules(const cb_dungeon *d, rule_counts *c) {
  const cb_sketch *sk = cb_leximorph_sketch(d);
  c->maps++;
  c->rooms += d->nrooms;
  /* letters fill their sectors: the strokes in a sector span as much of it as the letter spans its box */
  for (int k = 0; k < sk->nsectors; k++) {
    double want[2];
    letter_box(sk->sectors[k].letter, sk->sectors[k].rotation, want);
    double S = sk->sector_ft, x0 = (k % sk->cols) * S, y0 = (k / sk->cols) * S;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int t = 0; t < sk->ntunnels; t++)
      for (int i = 0; i < sk->tunnels[t].npoints; i++) {
        const cb_sketch_point *q = &sk->tunnels[t].points[i];
        if (q->x < x0 - SNAP || q->x > x0 + S + SNAP || q->y < y0 - SNAP || q->y > y0 + S + SNAP) continue;
        lo[0] = fmin(lo[0], q->x), hi[0] = fmax(hi[0], q->x), lo[1] = fmin(lo[1], q->y),
        hi[1] = fmax(hi[1], q->y);
      }
    if (hi[0] - lo[0] < (want[0] - 0.01) * S || hi[1] - lo[1] < (want[1] - 0.01) * S) {
      c->inset++;
      break;
    }
  }
  /* a check on both walls for every 60 ft of the whole network */
  double total = 0;
  int left = 0;
  for (int t = 0; t < sk->ntunnels; t++)
    total += length(&sk->tunnels[t]);
  for (int i = 0; i < sk->nwalls; i++)
    left += !sk->walls[i].right;
  if (abs(left - (int)floor(total / 60 + 1e-6)) > 1 || sk->nwalls != 2 * left) c->checks++;
  /* a blocked side passage blocks nothing: only an obstacle junction does */
  int obstacles = 0, obstructed = 0;
  for (int j = 0; j < sk->njunctions; j++)
    obstacles += sk->junctions[j].effect == CB_JUNCTION_OBSTACLE;
  for (int i = 0; i < d->npassages; i++)
    obstructed += (d->passages[i].flags & CB_FLAG_OBSTRUCTED) != 0;
  if (obstructed && !obstacles) c->blocked++;
  /* stairs: once per room */
  int *stairs = calloc((size_t)d->nrooms + 1, sizeof *stairs), twice = 0;
  for (int i = 0; i < d->npassages; i++)
    if (d->passages[i].to == 0 && ++stairs[d->passages[i].from - 1] == 2) twice = 1;
  c->stairs_twice += twice;
  free(stairs);
  /* the entrance: open, nearest the middle of the bottom edge among the open rooms */
  int in = cb_check_start_room(d);
  if (in < 0) return;
  double cx = sk->cols * sk->sector_ft / 2, cy = sk->rows * sk->sector_ft;
  if (behind_secret(sk, d->rooms[in].id)) c->secret_entrance++;
  for (int i = 0; i < d->nrooms; i++)
    if (!behind_secret(sk, d->rooms[i].id) && hypot(d->rooms[i].x - cx, d->rooms[i].y - cy) <
                                                  hypot(d->rooms[in].x - cx, d->rooms[in].y - cy) - 1e-6) {
      c->not_nearest++;
      break;
    }
  c->cut_off += open_rooms_cut_off(d, sk, in) > 0;
}

/* generators.md's rules on 10,000 default maps, issue 12's counted (see rule_counts) */
static void property_default(void **state) {
  (void)state;
  rule_counts c = {0};
  int n = cb_test_seeds(10000);
  for (int i = 0; i < n; i++) {
    opts o = {0};
    o.seed = (uint64_t)i * 2654435761u + 1;
    cb_dungeon *d = make(&o);
    check_dungeon(d, &o);
    count_rules(d, &c);
    cb_dungeon_free(d);
  }
  double mean = (double)c.rooms / c.maps;
  print_message(
      "%d maps (2x2): %.1f rooms a map; open rooms cut off by a secret door in %d, entrance behind a "
      "secret door in %d, entrance not the open room nearest the bottom middle in %d, letters inset in "
      "%d, wall checks not one per 60 ft in %d, blocked passage blocking the tunnel in %d, stairs twice "
      "on a room in %d\n",
      c.maps, mean, c.cut_off, c.secret_entrance, c.not_nearest, c.inset, c.checks, c.blocked,
      c.stairs_twice);
  assert_int_equal(c.cut_off, 0);
  assert_int_equal(c.secret_entrance, 0);
  assert_int_equal(c.not_nearest, 0);
  assert_int_equal(c.inset, 0);
  assert_int_equal(c.checks, 0);
  assert_int_equal(c.blocked, 0);
  assert_int_equal(c.stairs_twice, 0);
  /* only rooms and chambers beyond doors are rooms (every door made one before: 39.5 a map) */
  assert_true(mean < 32);
}

/* A 3x3 map fits the printed page's limit on rooms (crawlbook.h). */
static void three_by_three_fits_paper(void **state) {
  (void)state;
  int n = cb_test_seeds(10000) / 10, most = 0;
  long sum = 0;
  for (int i = 0; i < n; i++) {
    opts o = {0};
    o.seed = (uint64_t)i + 1;
    o.sector_cols = o.sector_rows = 3;
    cb_dungeon *d = make(&o);
    sum += d->nrooms;
    if (d->nrooms > most) most = d->nrooms;
    cb_dungeon_free(d);
  }
  print_message("%d maps (3x3): %.1f rooms a map, %d at most\n", n, (double)sum / n, most);
  assert_true(most <= CB_MAX_PAGE_ROOMS);
}

/* The most ways a room of a c x c map lists to other rooms, over seeds 1..n. */
static int most_exits(int c, int n) {
  int most = 0;
  for (int i = 1; i <= n; i++) {
    opts o = {0};
    o.seed = (uint64_t)i;
    o.sector_cols = o.sector_rows = c;
    cb_dungeon *d = make(&o);
    int *ways = calloc((size_t)d->nrooms + 2, sizeof *ways);
    assert_non_null(ways);
    for (int k = 0; k < d->npassages; k++) {
      const cb_passage *ps = &d->passages[k];
      if (ps->kind == CB_PASSAGE_STAIRS || ps->to <= 0) continue;
      ways[ps->from]++, ways[ps->to]++;
    }
    for (int r = 1; r <= d->nrooms; r++)
      most = ways[r] > most ? ways[r] : most;
    free(ways);
    cb_dungeon_free(d);
  }
  return most;
}

/* A room's exits are the next rooms along each tunnel out of it, not every
 * room the tunnels reach: 30 seeds listed up to 13 exits a room at 2x2 and
 * 17 at 3x3 when every room reached before another was an exit. */
static void exits_are_next_rooms(void **state) {
  (void)state;
  int two = most_exits(2, 30), three = most_exits(3, 30);
  print_message("most exits a room over 30 seeds: %d at 2x2, %d at 3x3\n", two, three);
  assert_true(two <= 10);
  assert_true(three <= 10);
}

/* Other shapes, upright letters and the faithful procedure, fewer seeds each. */
static void property_options(void **state) {
  (void)state;
  int n = cb_test_seeds(10000) / 10;
  for (int i = 0; i < n; i++) {
    opts o = {0};
    o.seed = (uint64_t)i + 777;
    o.sector_cols = 1 + i % 3;
    o.sector_rows = 1 + (i / 3) % 3;
    o.sector_ft = i % 2 ? 240 : 180 + 60 * (i % 4);
    o.no_rotate = i % 5 == 0;
    o.faithful = i % 7 == 0;
    cb_dungeon *d = make(&o);
    check_dungeon(d, &o);
    cb_dungeon_free(d);
  }
}

/* Where two tunnels cross or touch, the place is a junction (the d6 was rolled there). */
static void crossings_are_junctions(void **state) {
  (void)state;
  int n = cb_test_seeds(10000) / 20;
  for (int i = 0; i < n; i++) {
    opts o = {0};
    o.seed = (uint64_t)i * 7919 + 3;
    cb_dungeon *d = make(&o);
    const cb_sketch *sk = cb_leximorph_sketch(d);
    for (int t = 0; t < sk->ntunnels; t++)
      for (int u = t + 1; u < sk->ntunnels; u++) {
        const cb_sketch_tunnel *A = &sk->tunnels[t], *B = &sk->tunnels[u];
        for (int a = 0; a + 1 < A->npoints; a++)
          for (int b = 0; b + 1 < B->npoints; b++) {
            const cb_sketch_point *p0 = &A->points[a], *p1 = &A->points[a + 1], *q0 = &B->points[b],
                                  *q1 = &B->points[b + 1];
            double rx = p1->x - p0->x, ry = p1->y - p0->y, sx = q1->x - q0->x, sy = q1->y - q0->y;
            double den = rx * sy - ry * sx;
            if (fabs(den) < 1e-9) continue;
            double wx = q0->x - p0->x, wy = q0->y - p0->y;
            double tt = (wx * sy - wy * sx) / den, uu = (wx * ry - wy * rx) / den;
            if (tt < -1e-3 || tt > 1 + 1e-3 || uu < -1e-3 || uu > 1 + 1e-3) continue;
            double x = p0->x + rx * tt, y = p0->y + ry * tt;
            int found = 0;
            for (int j = 0; j < sk->njunctions && !found; j++)
              found = hypot(sk->junctions[j].x - x, sk->junctions[j].y - y) < 1.0;
            if (!found)
              fail_msg("seed %llu: tunnels %d and %d cross at %.1f,%.1f, not at a junction",
                       (unsigned long long)o.seed, t + 1, u + 1, x, y);
          }
      }
    cb_dungeon_free(d);
  }
}

static void no_rotate_keeps_letters_upright(void **state) {
  (void)state;
  opts o = {0};
  o.no_rotate = true;
  o.sector_cols = 3, o.sector_rows = 3;
  for (int s = 0; s < 50; s++) {
    o.seed = (uint64_t)s;
    cb_dungeon *d = make(&o);
    for (int k = 0; k < 9; k++)
      assert_int_equal(cb_leximorph_of(d)->sectors[k].rotation, 1);
    cb_dungeon_free(d);
  }
}

static void same_seed_same_dungeon(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 42;
  cb_dungeon *a = make(&o), *b = make(&o);
  assert_int_equal(a->nrooms, b->nrooms);
  assert_int_equal(a->npassages, b->npassages);
  assert_int_equal(a->nlog, b->nlog);
  for (int i = 0; i < a->nlog; i++)
    assert_string_equal(a->log[i], b->log[i]);
  cb_dungeon_free(a);
  cb_dungeon_free(b);
}

typedef struct membuf {
  char *data;
  size_t len, cap;
} membuf;

static cb_status sink_write(void *closure, const unsigned char *data, size_t len) {
  membuf *m = closure;
  if (m->len + len + 1 > m->cap) {
    m->cap = (m->len + len + 1) * 2;
    m->data = realloc(m->data, m->cap);
    if (!m->data) return CB_EINTERNAL;
  }
  memcpy(m->data + m->len, data, len);
  m->len += len;
  m->data[m->len] = '\0';
  return CB_OK;
}

static char *to_json(const cb_dungeon *d, size_t *len) {
  membuf m = {NULL, 0, 0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&m, sink_write}, &err), CB_OK);
  *len = m.len;
  return m.data;
}

static void json_round_trip(void **state) {
  (void)state;
  for (int s = 0; s < 200; s++) {
    opts o = {0};
    o.seed = (uint64_t)s * 31 + 5;
    o.sector_cols = 1 + s % 3, o.sector_rows = 1 + s % 2;
    cb_dungeon *d = make(&o);
    size_t n1, n2;
    char *a = to_json(d, &n1);
    cb_dungeon *back = NULL;
    cb_error err = {0};
    if (cb_json_parse(a, n1, "mem.json", cb_proc_json(), &back, &err) != CB_OK)
      fail_msg("seed %d: %s", s, err.msg);
    char *b = to_json(back, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    assert_non_null(cb_leximorph_sketch(back));
    assert_int_equal(cb_leximorph_sketch(back)->ntunnels, cb_leximorph_sketch(d)->ntunnels);
    free(a);
    free(b);
    cb_dungeon_free(d);
    cb_dungeon_free(back);
  }
}

/* Hand-edited JSON is untrusted: a bad sketch or procedure is refused. */
static void json_refuses_bad_sketch(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 9;
  cb_dungeon *d = make(&o);
  size_t n;
  char *a = to_json(d, &n);
  static const struct {
    const char *from, *to, *says;
  } edits[] = {
      {"\"rotation\":", "\"rotation\":7,\"x\":", "rotation"},
      {"\"side\":\"left\"", "\"side\":\"up\"", "side"},
      {"\"result\":\"room\"", "\"result\":\"castle\"", "unknown result"},
      {"\"cols\":2", "\"cols\":3", "sectors"},
      {"\"tunnel\":1}", "\"tunnel\":99999}", "wall"},
      {"\"secret\":false", "\"secret\":3", "'secret' must be true or false"},
      {"\"roll\":2,\"result\":\"parallel\"", "\"roll\":21,\"result\":\"parallel\"", "doors"},
  };
  for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
    char *hit = strstr(a, edits[i].from);
    if (!hit) fail_msg("edit %zu: '%s' not in the JSON", i, edits[i].from);
    size_t before = (size_t)(hit - a), fl = strlen(edits[i].from), tl = strlen(edits[i].to);
    char *e = malloc(n + tl + 1);
    memcpy(e, a, before);
    memcpy(e + before, edits[i].to, tl);
    memcpy(e + before + tl, hit + fl, n - before - fl);
    cb_dungeon *back = NULL;
    cb_error err = {0};
    assert_int_equal(cb_json_parse(e, n - fl + tl, "edit.json", cb_proc_json(), &back, &err), CB_EINPUT);
    if (!strstr(err.msg, edits[i].says))
      fail_msg("edit %zu: message '%s' lacks '%s'", i, err.msg, edits[i].says);
    assert_null(back);
    free(e);
  }
  free(a);
  cb_dungeon_free(d);
}

static const char *write_table(const char *dir, const char *name, const char *text) {
  static char path[4][512];
  static int k;
  char *p = path[k++ % 4];
  snprintf(p, 512, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  fputs(text, f);
  fclose(f);
  return p;
}

static const char *const good_rows =
    "1 | A | L 0,1 0.5,0 1,1 ; L 0.25,0.5 0.75,0.5\n"
    "2 | B | L 0,0 0,1\n3 | D | E 0.5,0.5 0.5,0.5\n4 | O | E 0.5,0.5 0.4,0.4\n"
    "5 | P | O 0,0 1,0 1,1\n6 | Q | A 0.5,0.5 0.5,0.5 0 270\n7 | T | L 0,0 1,0\n"
    "8 | L | L 0,0 0,1 1,1\n9 | g | L 0,0 1,1\n";

static void expect_table_error(const char *letters, const char *needle) {
  const char *dir = cb_test_tmpdir();
  opts o = {0};
  o.letters = write_table(dir, "letters.txt", letters);
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_null(d);
  if (!strstr(err.msg, needle)) fail_msg("message '%s' lacks '%s'", err.msg, needle);
  assert_non_null(strstr(err.msg, "letters.txt"));
  cb_test_rmdir(dir);
}

static void letter_table_errors(void **state) {
  (void)state;
  char ten[1024];
  expect_table_error(good_rows, "expected 10 rows, one for each roll of a d10; found 9");
  snprintf(ten, sizeof ten, "%s10 | X | L 0,0 1.2,1\n", good_rows);
  expect_table_error(ten, "letters.txt:10: stroke 1 of letter 'X' leaves its box at 1.2,1");
  snprintf(ten, sizeof ten, "%s10 | X | L 0,0 1,1 ; Z 0,0\n", good_rows);
  expect_table_error(ten, "letters.txt:10: stroke 2: unknown command 'Z'");
  snprintf(ten, sizeof ten, "%s9 | X | L 0,0 1,1\n", good_rows);
  expect_table_error(ten, "roll 9 is already on line 9");
  snprintf(ten, sizeof ten, "%s10 | X | L 0,0 1\n", good_rows);
  expect_table_error(ten, "'1' is not a point x,y");
  snprintf(ten, sizeof ten, "%s10 | X | A 0.5,0.5 0.6,0.5 0 90\n", good_rows);
  expect_table_error(ten, "leaves its box");
  snprintf(ten, sizeof ten, "%s10 | X\n", good_rows);
  expect_table_error(ten, "letters.txt:10: expected 3 fields");
}

/* A user's letters: pieces that touch nothing are joined, so the network
 * stays one piece. */
static void user_letters_with_lost_strokes(void **state) {
  (void)state;
  char ten[1024];
  snprintf(ten, sizeof ten, "%s10 | i | L 0.5,0 0.5,0.1 ; L 0.5,0.3 0.5,1\n", good_rows);
  const char *dir = cb_test_tmpdir();
  opts o = {0};
  o.letters = write_table(dir, "letters.txt", ten);
  o.sector_cols = 3, o.sector_rows = 3;
  for (int s = 0; s < 100; s++) {
    o.seed = (uint64_t)s;
    cb_dungeon *d = make(&o);
    const cb_sketch *sk = cb_leximorph_sketch(d);
    int *parent = malloc(((size_t)sk->njunctions + 1) * sizeof *parent);
    for (int j = 0; j < sk->njunctions; j++)
      parent[j] = j;
    for (int t = 0; t < sk->ntunnels; t++) {
      const cb_sketch_tunnel *tu = &sk->tunnels[t];
      int a = junction_at(sk, tu->points[0].x, tu->points[0].y);
      int b = junction_at(sk, tu->points[tu->npoints - 1].x, tu->points[tu->npoints - 1].y);
      assert_true(a >= 0 && b >= 0);
      parent[find(parent, a)] = find(parent, b);
    }
    for (int j = 0; j < sk->njunctions; j++)
      assert_int_equal(find(parent, j), find(parent, 0));
    free(parent);
    cb_dungeon_free(d);
  }
  cb_test_rmdir(dir);
}

static void result_table_errors(void **state) {
  (void)state;
  const char *dir = cb_test_tmpdir();
  opts o = {0};
  o.junctions = write_table(
      dir, "j.txt", "1|a|ordinary\n2|b|trapped\n3|c|disabled-trap\n4|d|obstacle\n5|e|door\n6|f|lair\n");
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "j.txt:6: unknown effect 'lair'"));
  o.junctions = NULL;
  o.walls = write_table(dir, "w.txt", "1|a|blank\n");
  err = (cb_error){0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "expected 8 rows"));
  /* the d20 beyond a door: twenty rows, known effects */
  o.walls = NULL;
  char doors[1024] = "";
  for (int r = 1; r <= 20; r++)
    snprintf(doors + strlen(doors), sizeof doors - strlen(doors), "%d | x | %s\n", r,
             r == 20 ? "cellar" : "room");
  o.doors = write_table(dir, "d.txt", doors);
  err = (cb_error){0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  if (!strstr(err.msg, "d.txt:20: unknown effect 'cellar'")) fail_msg("%s", err.msg);
  o.doors = write_table(dir, "d.txt", "1 | x | room\n");
  err = (cb_error){0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "expected 20 rows, one for each roll of a d20"));
  cb_test_rmdir(dir);
}

static void bad_options(void **state) {
  (void)state;
  cb_error err = {0};
  opts o = {0};
  o.sector_cols = 0, o.sector_rows = 3;
  assert_int_equal(validate(&o, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "--sectors 0x3"));
  o = (opts){0};
  o.rooms = 5;
  err = (cb_error){0};
  assert_int_equal(validate(&o, &err), CB_EINPUT);
  o = (opts){0};
  o.sector_ft = 30;
  err = (cb_error){0};
  assert_int_equal(validate(&o, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "--sector-ft 30"));
}

static void explain_in_game_master_words(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 1;
  cb_dungeon *d = make(&o);
  int sector = 0, junction = 0, wall = 0;
  for (int i = 0; i < d->nlog; i++) {
    sector +=
        strncmp(d->log[i], "Sector ", 7) == 0 && strstr(d->log[i], ": rolled ") && strstr(d->log[i], " -> ");
    junction += strncmp(d->log[i], "Junction ", 9) == 0;
    wall += strncmp(d->log[i], "Tunnel ", 7) == 0 && strstr(d->log[i], "left wall rolled") != NULL;
  }
  assert_int_equal(sector, 4);
  assert_int_equal(junction, cb_leximorph_sketch(d)->njunctions);
  assert_int_equal(wall * 2, cb_leximorph_sketch(d)->nwalls);
  cb_dungeon_free(d);
}

/* Every allocation may fail: the generator reports it and leaks nothing. */
static void out_of_memory_anywhere(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 5;
  for (long n = 0;; n++) {
    cb_dungeon *d = NULL;
    cb_error err = {0};
    cb_alloc_fail_after(n);
    cb_status st = generate(&o, &d, &err);
    cb_alloc_fail_after(-1);
    if (st == CB_OK) {
      assert_non_null(d);
      cb_dungeon_free(d);
      break;
    }
    if (st != CB_EINTERNAL) fail_msg("allocation %ld: %s", n, err.msg);
    assert_null(d);
    assert_true(n < 100000);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(three_by_three_fits_paper),
      cmocka_unit_test(property_default),
      cmocka_unit_test(property_options),
      cmocka_unit_test(exits_are_next_rooms),
      cmocka_unit_test(crossings_are_junctions),
      cmocka_unit_test(no_rotate_keeps_letters_upright),
      cmocka_unit_test(same_seed_same_dungeon),
      cmocka_unit_test(json_round_trip),
      cmocka_unit_test(json_refuses_bad_sketch),
      cmocka_unit_test(letter_table_errors),
      cmocka_unit_test(user_letters_with_lost_strokes),
      cmocka_unit_test(result_table_errors),
      cmocka_unit_test(bad_options),
      cmocka_unit_test(explain_in_game_master_words),
      cmocka_unit_test(out_of_memory_anywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
