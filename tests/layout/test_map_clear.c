/* Nothing on the map draws through anything (booklet.md, "The map"), read
 * from the page model of the one-page sheet for every generator over many
 * seeds: no passage crosses a room or a room number it does not join, no
 * mark sits nearer another room than its own nor on a passage of other rooms,
 * no leader to a room's marks crosses a passage of other rooms,
 * room numbers are at least 8 pt
 * and no text on the sheet is under 7 pt; on maps of dice a passage's own
 * marks (padlock, trap, secret door, key id) keep apart, and a key id (and
 * its leader) keeps off other passages. The layout tags what each item
 * stands for (cb_item_role); the geometry is checked here. CB_MAP_SEEDS sets
 * the number of seeds, CB_MAP_VERBOSE=1 prints every finding.
 *
 * The players' map keeps every secret (booklet.md, "Player map"): a sweep
 * written apart from model/view.c works out from the game master's model
 * which rooms a party can find without a secret, and reads the players'
 * sheet for any room, passage, number, mark or legend entry that tells more
 * (CB_PLAYER_SEEDS seeds, 1000 unless told). CB_TEST_ONLY=NAME runs only
 * the tests of that name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/layout/fake_measure.h"
#include "layout/map.h"
#include "layout/sheet.h"
#include "layout/symbols.h"
#include "layout/template.h"
#include "model/view.h"
#include "proc/cards/proc.h"
#include "proc/leximorph/proc.h"
#include "registry/registry.h"
#include "render/backend.h"
#include "stock/stock.h"
#include "testlib.h"

static const double A4_W = 595.2756, A4_H = 841.8898;

typedef struct box {
  double x0, y0, x1, y1;
  int id;
  bool round;
  int at; /* a room's: its item's place in the page (what comes later is drawn over it) */
} box;

typedef struct findings {
  int crossed_room, crossed_number, stray_mark, small_number, small_text, numbers_touch, mark_on_passage,
      mark_under_room, bar_on_mark, leader_across, marks_touch, mark_over_room, mark_on_own;
  int no_goal, no_boss, no_key, no_lock, no_encounter, no_treasure, number_twice;
  /* dropdice: a passage's own marks touching, its key id over another passage, its leader across one */
  int own_marks_touch, key_across, key_leader_across;
  char first[256];
} findings;

#define note(f, count, ...) cb_test_tally((f)->first, sizeof(f)->first, count, __VA_ARGS__)

static box path_box(const cb_page *p, const cb_item *it) {
  box b = {INFINITY, INFINITY, -INFINITY, -INFINITY, it->role.a, false};
  for (int k = it->op0; k < it->op0 + it->nops; k++)
    for (int j = 0; j < (p->ops[k].kind == CB_OP_CURVE ? 3 : p->ops[k].kind == CB_OP_CLOSE ? 0 : 1); j++) {
      b.x0 = fmin(b.x0, p->ops[k].x[j]), b.x1 = fmax(b.x1, p->ops[k].x[j]);
      b.y0 = fmin(b.y0, p->ops[k].y[j]), b.y1 = fmax(b.y1, p->ops[k].y[j]);
    }
  b.round = fabs((b.x1 - b.x0) - (b.y1 - b.y0)) < 0.5;
  return b;
}

static box text_box(const cb_item *it) {
  double w = fake_width(NULL, it->font, it->size, it->text);
  return (box){it->x, it->y - it->size * 0.7, it->x + w, it->y + it->size * 0.1, it->role.a, false};
}

/* Is (x, y) inside b shrunk by `in` points? Boxes that are not round count
 * their corners as rounded (a card's are) by a tenth of their shorter side. */
static bool inside(box b, double x, double y, double in) {
  double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2, hw = (b.x1 - b.x0) / 2 - in,
         hh = (b.y1 - b.y0) / 2 - in;
  if (b.round) return hypot(x - cx, y - cy) < hw;
  double dx = fabs(x - cx), dy = fabs(y - cy), cr = fmin(hw, hh) * 0.2;
  if (dx >= hw || dy >= hh) return false;
  if (dx > hw - cr && dy > hh - cr) return hypot(dx - (hw - cr), dy - (hh - cr)) < cr;
  return true;
}

/* Does segment (ax,ay)-(bx,by) enter b, shrunk by `in` points? (sampled every quarter point) */
static bool segment_enters(double ax, double ay, double bx, double by, box b, double in) {
  if (fmax(ax, bx) < b.x0 || fmin(ax, bx) > b.x1 || fmax(ay, by) < b.y0 || fmin(ay, by) > b.y1) return false;
  int n = (int)(hypot(bx - ax, by - ay) * 4) + 1;
  for (int i = 0; i <= n; i++)
    if (inside(b, ax + (bx - ax) * i / n, ay + (by - ay) * i / n, in)) return true;
  return false;
}

static double distance_to(box b, double x, double y) {
  if (b.round) return fmax(0, hypot(x - (b.x0 + b.x1) / 2, y - (b.y0 + b.y1) / 2) - (b.x1 - b.x0) / 2);
  double dx = fmax(0, fmax(b.x0 - x, x - b.x1)), dy = fmax(0, fmax(b.y0 - y, y - b.y1));
  return hypot(dx, dy);
}

static void check_passages(const cb_page *p, const box *rooms, int nrooms, const box *numbers, int nnumbers,
                           findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE) continue;
    double lx = 0, ly = 0;
    for (int k = it->op0; k < it->op0 + it->nops; k++) {
      const cb_op *op = &p->ops[k];
      double nx = op->kind == CB_OP_CURVE ? op->x[2] : op->x[0],
             ny = op->kind == CB_OP_CURVE ? op->y[2] : op->y[0];
      if (op->kind == CB_OP_LINE || op->kind == CB_OP_CURVE) {
        for (int r = 0; r < nrooms; r++)
          if (rooms[r].id != it->role.a && rooms[r].id != it->role.b &&
              segment_enters(lx, ly, nx, ny, rooms[r], 0.6))
            note(f, &f->crossed_room, "%s: passage %d-%d crosses room %d", what, it->role.a, it->role.b,
                 rooms[r].id);
        for (int r = 0; r < nnumbers; r++)
          if (numbers[r].id != it->role.a && numbers[r].id != it->role.b &&
              segment_enters(lx, ly, nx, ny, numbers[r], 0.3))
            note(f, &f->crossed_number, "%s: passage %d-%d crosses room %d's number", what, it->role.a,
                 it->role.b, numbers[r].id);
      }
      if (op->kind != CB_OP_CLOSE) lx = nx, ly = ny;
    }
  }
}

/* How far (x, y) lies outside box b (a box's corners square), less than 0
 * by its depth inside: the way to the nearest side. */
static double signed_distance_to(box b, double x, double y) {
  double dx = fmax(b.x0 - x, x - b.x1), dy = fmax(b.y0 - y, y - b.y1);
  return dx > 0 || dy > 0 ? hypot(fmax(dx, 0), fmax(dy, 0)) : fmax(dx, dy);
}

/* How far (x, y) keeps from a mark's body, a circle, or a box with corners
 * rounded as its path starts (cb_page_rounded_rect: r in from the left);
 * less than 0 by its depth inside (a line through a badge's middle lies
 * deep in it, not on its edge). */
static double body_distance(const cb_page *p, const cb_item *it, box b, double x, double y) {
  if (b.round) return hypot(x - (b.x0 + b.x1) / 2, y - (b.y0 + b.y1) / 2) - (b.x1 - b.x0) / 2;
  const cb_op *first = &p->ops[it->op0];
  double r = first->kind == CB_OP_MOVE && fabs(first->y[0] - b.y0) < 1e-6 ? first->x[0] - b.x0 : 0;
  r = fmax(0, fmin(r, fmin(b.x1 - b.x0, b.y1 - b.y0) / 2));
  box core = {b.x0 + r, b.y0 + r, b.x1 - r, b.y1 - r, b.id, false};
  return signed_distance_to(core, x, y) - r;
}

/* A straight upright or level leg of a band with butt caps, from (ax, ay)
 * to (bx, by), as the box it inks (reaching past an end only where it joins
 * the next leg): how far the mark's body box keeps from it, less than 0 by
 * as much as they overlap. */
static double butt_leg_gap(box body, double ax, double ay, double bx, double by, double half, bool join_a,
                           bool join_b) {
  bool level = fabs(ay - by) < 1e-9;
  double ea = join_a ? half : 0, eb = join_b ? half : 0;
  box r = level ? (box){fmin(ax, bx) - (ax < bx ? ea : eb),
                        ay - half,
                        fmax(ax, bx) + (ax < bx ? eb : ea),
                        ay + half,
                        0,
                        false}
                : (box){ax - half, fmin(ay, by) - (ay < by ? ea : eb),
                        ax + half, fmax(ay, by) + (ay < by ? eb : ea),
                        0,         false};
  double gx = fmax(r.x0 - body.x1, body.x0 - r.x1), gy = fmax(r.y0 - body.y1, body.y0 - r.y1);
  return gx > 0 || gy > 0 ? hypot(fmax(gx, 0), fmax(gy, 0)) : fmax(gx, gy);
}

/* The nearest a passage's drawn band comes to the mark's body: straight
 * legs of a band with butt caps as the boxes they ink; else its centre,
 * sampled every quarter point, curves as well, less half its width. */
static double passage_gap(const cb_page *p, const cb_item *mark, box body, const cb_item *ps) {
  double least = INFINITY, lx = 0, ly = 0, half = ps->ink.width / 2;
  for (int k = ps->op0; k < ps->op0 + ps->nops; k++) {
    const cb_op *op = &p->ops[k];
    bool leg = op->kind == CB_OP_LINE && (fabs(op->x[0] - lx) < 1e-9 || fabs(op->y[0] - ly) < 1e-9);
    if (leg && ps->ink.cap == CB_CAP_BUTT) {
      bool join_a = k > ps->op0 && p->ops[k - 1].kind != CB_OP_MOVE,
           join_b = k + 1 < ps->op0 + ps->nops && p->ops[k + 1].kind != CB_OP_MOVE;
      least = fmin(least, butt_leg_gap(body, lx, ly, op->x[0], op->y[0], half, join_a, join_b) + half);
    } else if (op->kind == CB_OP_LINE || op->kind == CB_OP_CURVE) {
      double ex = op->kind == CB_OP_CURVE ? op->x[2] : op->x[0],
             ey = op->kind == CB_OP_CURVE ? op->y[2] : op->y[0];
      box span = {fmin(lx, ex), fmin(ly, ey), fmax(lx, ex), fmax(ly, ey), 0, false};
      for (int j = 0; op->kind == CB_OP_CURVE && j < 2; j++)
        span.x0 = fmin(span.x0, op->x[j]), span.x1 = fmax(span.x1, op->x[j]),
        span.y0 = fmin(span.y0, op->y[j]), span.y1 = fmax(span.y1, op->y[j]);
      double reach = ps->ink.width / 2 + 1;
      if (span.x1 > body.x0 - reach && span.x0 < body.x1 + reach && span.y1 > body.y0 - reach &&
          span.y0 < body.y1 + reach) {
        int n = (int)((span.x1 - span.x0 + span.y1 - span.y0) * 4) + 1;
        for (int i = 0; i <= n; i++) {
          double t = (double)i / n, u = 1 - t, x, y;
          if (op->kind == CB_OP_CURVE) {
            x = u * u * u * lx + 3 * u * u * t * op->x[0] + 3 * u * t * t * op->x[1] + t * t * t * ex;
            y = u * u * u * ly + 3 * u * u * t * op->y[0] + 3 * u * t * t * op->y[1] + t * t * t * ey;
          } else {
            x = lx + (ex - lx) * t, y = ly + (ey - ly) * t;
          }
          least = fmin(least, body_distance(p, mark, body, x, y));
        }
      }
    }
    if (op->kind == CB_OP_MOVE || op->kind == CB_OP_LINE)
      lx = op->x[0], ly = op->y[0];
    else if (op->kind == CB_OP_CURVE)
      lx = op->x[2], ly = op->y[2];
  }
  return least - half;
}

/* Is the body within a room drawn after item i (which the room then hides there)? */
static bool hidden_under_room(box body, int i, const box *rooms, int nrooms) {
  for (int r = 0; r < nrooms; r++)
    if (rooms[r].at > i && body.x0 >= rooms[r].x0 && body.x1 <= rooms[r].x1 && body.y0 >= rooms[r].y0 &&
        body.y1 <= rooms[r].y1)
      return true;
  return false;
}

/* A room's mark is not drawn over a passage of other rooms (its own room's
 * it may touch: they leave from under it), half a point allowed; the box
 * of a rounded body stands for it (a little stricter at its corners). A
 * mark inside a room drawn over the passage is clear of what shows of it. */
static void check_mark_on_passages(const cb_page *p, const cb_item *mark, box body, const box *rooms,
                                   int nrooms, findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE || !it->ink.stroke) continue;
    bool own = it->role.a == mark->role.a || it->role.b == mark->role.a;
    if (own) {
      /* its own room's: only off the room (a badge astride its rim touches the ways leaving it) */
      bool touches = false;
      for (int r = 0; r < nrooms; r++)
        touches |= rooms[r].id == mark->role.a && rooms[r].round &&
                   distance_to(rooms[r], fmin(fmax((rooms[r].x0 + rooms[r].x1) / 2, body.x0), body.x1),
                               fmin(fmax((rooms[r].y0 + rooms[r].y1) / 2, body.y0), body.y1)) < 1;
      if (!touches && passage_gap(p, mark, body, it) < -0.5)
        note(f, &f->mark_on_own, "%s: a mark of room %d lies over its passage %d-%d", what, mark->role.a,
             it->role.a, it->role.b);
      continue;
    }
    if (hidden_under_room(body, i, rooms, nrooms)) continue;
    double gap = passage_gap(p, mark, body, it);
    if (gap < -0.5)
      note(f, &f->mark_on_passage, "%s: a mark of room %d lies %.1f pt over passage %d-%d", what,
           mark->role.a, -gap, it->role.a, it->role.b);
  }
}

/* Whether a hairline of room `room`'s marks runs from its circle to them (the box round all its
 * badges, which sit in one row or column): marks that found no spot nearer their own room than
 * another's are led to it, as a map's leader does. */
static bool led(const cb_page *p, const box *rooms, int nrooms, int room) {
  box b = {INFINITY, INFINITY, -INFINITY, -INFINITY, room, false, 0};
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_ROOM_MARK || it->role.a != room || !it->ink.fill)
      continue;
    box m = path_box(p, it);
    b.x0 = fmin(b.x0, m.x0), b.y0 = fmin(b.y0, m.y0), b.x1 = fmax(b.x1, m.x1), b.y1 = fmax(b.y1, m.y1);
  }
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_ROOM_MARK || it->role.a != room ||
        it->ink.fill || it->nops != 2)
      continue;
    const cb_op *a = &p->ops[it->op0], *e = &p->ops[it->op0 + 1];
    for (int r = 0; r < nrooms; r++)
      if (rooms[r].id == room && distance_to(rooms[r], a->x[0], a->y[0]) < 2 &&
          distance_to(b, e->x[0], e->y[0]) < 2.5)
        return true;
  }
  return false;
}

/* Do segments a-b and c-e cross (each strictly between its ends)? */
static bool segments_cross(double ax, double ay, double bx, double by, double cx, double cy, double ex,
                           double ey) {
  double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax),
         d2 = (bx - ax) * (ey - ay) - (by - ay) * (ex - ax),
         d3 = (ex - cx) * (ay - cy) - (ey - cy) * (ax - cx),
         d4 = (ex - cx) * (by - cy) - (ey - cy) * (bx - cx);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/* A leader (the hairline from a room to marks that sit off it) crosses no
 * passage of other rooms: it would lead the eye down the wrong way. Straight
 * legs of passages are read (a curve by its chord). */
static void check_leader(const cb_page *p, const cb_item *ld, findings *f, const char *what) {
  const cb_op *a = &p->ops[ld->op0], *e = &p->ops[ld->op0 + 1];
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE || !it->ink.stroke) continue;
    if (it->role.a == ld->role.a || it->role.b == ld->role.a) continue;
    double lx = 0, ly = 0;
    for (int k = it->op0; k < it->op0 + it->nops; k++) {
      const cb_op *op = &p->ops[k];
      int j = op->kind == CB_OP_CURVE ? 2 : 0;
      if (op->kind == CB_OP_CLOSE) continue;
      if (op->kind != CB_OP_MOVE &&
          segments_cross(a->x[0], a->y[0], e->x[0], e->y[0], lx, ly, op->x[j], op->y[j])) {
        note(f, &f->leader_across, "%s: room %d's leader crosses passage %d-%d", what, ld->role.a, it->role.a,
             it->role.b);
        break;
      }
      lx = op->x[j], ly = op->y[j];
    }
  }
}

static void check_marks(const cb_page *p, const box *rooms, int nrooms, findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->role.kind == CB_ROLE_ROOM_MARK && it->kind == CB_ITEM_PATH && !it->ink.fill && it->nops == 2 &&
        p->ops[it->op0].kind == CB_OP_MOVE && p->ops[it->op0 + 1].kind == CB_OP_LINE)
      check_leader(p, it, f, what);
    /* a badge is judged by its body (the filled shape), not the letters or icon inside it */
    if (it->role.kind != CB_ROLE_ROOM_MARK || it->kind != CB_ITEM_PATH || !it->ink.fill) continue;
    box b = path_box(p, it);
    double mx = (b.x0 + b.x1) / 2, my = (b.y0 + b.y1) / 2, own = INFINITY, other = INFINITY;
    int near = 0;
    for (int r = 0; r < nrooms; r++) {
      double dist = distance_to(rooms[r], mx, my);
      if (rooms[r].id == it->role.a)
        own = fmin(own, dist);
      else if (dist < other)
        other = dist, near = rooms[r].id;
    }
    if (isfinite(own) && other < own - 0.5 && !led(p, rooms, nrooms, it->role.a))
      note(f, &f->stray_mark, "%s: a mark of room %d sits nearer room %d (%.1f against %.1f pt)", what,
           it->role.a, near, other, own);
    check_mark_on_passages(p, it, b, rooms, nrooms, f, what);
  }
}

/* ---- a passage's own marks, and its key id (dropdice: booklet.md, "marks clear of each other") ---- */

/* The ink of one item of a passage's marks: points along its path (every quarter point, r its
 * stroke's half width) and, when filled, its body, which a point can lie inside. Points of a stroke
 * on its passage's own line are left out: every mark sits on that line. */
typedef struct ink_part {
  const cb_item *it;
  box body;
  bool filled;
  double r;
  int n;
  double xy[2 * 600];
} ink_part;

/* How far (x, y) lies from segment a-b. */
static double to_segment(double ax, double ay, double bx, double by, double x, double y) {
  double lx = bx - ax, ly = by - ay, l2 = lx * lx + ly * ly,
         t = l2 > 0 ? fmin(1, fmax(0, ((x - ax) * lx + (y - ay) * ly) / l2)) : 0;
  return hypot(ax + t * lx - x, ay + t * ly - y);
}

static void part_point(ink_part *pt, double x, double y) {
  if (pt->n < (int)(sizeof pt->xy / sizeof *pt->xy / 2))
    pt->xy[2 * pt->n] = x, pt->xy[2 * pt->n + 1] = y, pt->n++;
}

/* The part of item it; line (x0, y0, x1, y1) its passage's, whose stretches a stroke leaves out. */
static void ink_part_of(const cb_page *p, const cb_item *it, const double *line, ink_part *pt) {
  pt->it = it, pt->body = path_box(p, it), pt->filled = it->ink.fill, pt->n = 0;
  pt->r = it->ink.stroke ? it->ink.width / 2 : 0;
  double lx = 0, ly = 0;
  for (int k = it->op0; k < it->op0 + it->nops; k++) {
    const cb_op *op = &p->ops[k];
    if (op->kind == CB_OP_CLOSE) continue;
    int j = op->kind == CB_OP_CURVE ? 2 : 0;
    double ex = op->x[j], ey = op->y[j];
    bool on_line = !pt->filled && line && to_segment(line[0], line[1], line[2], line[3], lx, ly) < 0.3 &&
                   to_segment(line[0], line[1], line[2], line[3], ex, ey) < 0.3;
    if (op->kind != CB_OP_MOVE && !on_line) {
      int n = (int)(hypot(ex - lx, ey - ly) * 4) + 4;
      for (int i = 0; i <= n; i++) {
        double t = (double)i / n, u = 1 - t;
        if (op->kind == CB_OP_CURVE)
          part_point(pt,
                     u * u * u * lx + 3 * u * u * t * op->x[0] + 3 * u * t * t * op->x[1] + t * t * t * ex,
                     u * u * u * ly + 3 * u * u * t * op->y[0] + 3 * u * t * t * op->y[1] + t * t * t * ey);
        else
          part_point(pt, lx + (ex - lx) * t, ly + (ey - ly) * t);
      }
    }
    lx = ex, ly = ey;
  }
}

/* How far (x, y) keeps from part a's ink, less than 0 inside a body. */
static double part_distance(const cb_page *p, const ink_part *a, double x, double y) {
  double least = a->filled ? body_distance(p, a->it, a->body, x, y) : INFINITY;
  for (int i = 0; i < a->n; i++)
    least = fmin(least, hypot(a->xy[2 * i] - x, a->xy[2 * i + 1] - y));
  return least - a->r;
}

/* The gap between the ink of two parts (less than 0 where they overlap). */
static double parts_gap(const cb_page *p, const ink_part *a, const ink_part *b) {
  if (a->body.x0 > b->body.x1 + 3 || b->body.x0 > a->body.x1 + 3 || a->body.y0 > b->body.y1 + 3 ||
      b->body.y0 > a->body.y1 + 3)
    return INFINITY;
  double least = INFINITY;
  for (int i = 0; i < b->n; i++)
    least = fmin(least, part_distance(p, a, b->xy[2 * i], b->xy[2 * i + 1]) - b->r);
  for (int i = 0; i < a->n && b->filled; i++)
    least = fmin(least, body_distance(p, b->it, b->body, a->xy[2 * i], a->xy[2 * i + 1]) - b->r - a->r);
  return least;
}

/* Marks closer than this (points) touch to the eye. */
static const double MARKS_APART = 0.5;

/* Which of the passage's n marks each of its m parts belongs to, into mark[]: the marks are drawn one
 * after another in their kinds' order (cb_map_passage_symbols), each where CB_PASSAGE_KIND_AT puts it
 * on the line (x0, y0)-(x1, y1) (the middle for one), so the parts fall into n runs in that order; the
 * runs are those whose parts' centres lie nearest their marks' places in all. */
static void parts_to_marks(const ink_part *parts, int m, int n, const double *line, int *mark) {
  enum { MAX_PARTS = 64 };
  double cost[MAX_PARTS + 1][CB_PASSAGE_KINDS + 1];
  int from[MAX_PARTS + 1][CB_PASSAGE_KINDS + 1];
  for (int i = 0; i <= m; i++)
    for (int k = 0; k <= n; k++)
      cost[i][k] = INFINITY;
  cost[0][0] = 0;
  for (int i = 1; i <= m; i++)
    for (int k = 1; k <= n; k++) {
      double t = n > 1 ? CB_PASSAGE_KIND_AT[k - 1] : 0.5, mx = line[0] + (line[2] - line[0]) * t,
             my = line[1] + (line[3] - line[1]) * t;
      box b = parts[i - 1].body;
      double here = hypot((b.x0 + b.x1) / 2 - mx, (b.y0 + b.y1) / 2 - my);
      /* part i-1 goes with mark k-1, after a part of the same mark or of the one before */
      double same = cost[i - 1][k], before = cost[i - 1][k - 1];
      cost[i][k] = fmin(same, before) + here, from[i][k] = same <= before ? k : k - 1;
    }
  for (int i = m, k = n; i >= 1; k = from[i][k], i--)
    mark[i - 1] = k - 1;
}

/* Is item i the first of its passage (its line)? */
static bool passage_line(const cb_page *p, int i) {
  const cb_item *it = &p->items[i];
  if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE) return false;
  for (int j = 0; j < i; j++)
    if (p->items[j].role.kind == CB_ROLE_PASSAGE && p->items[j].role.a == it->role.a &&
        p->items[j].role.b == it->role.b)
      return false;
  return true;
}

static bool same_passage(const cb_item *a, const cb_item *b) {
  return a->role.a == b->role.a && a->role.b == b->role.b;
}

/* Does an item draw a mark of a passage (not its line, nor the paper stroke that clears a stretch of it
 * for a trap's zigzag, nor a letter inside a disc)? */
static bool mark_ink(const cb_item *it) {
  bool paper = it->ink.stroke && !it->ink.fill && it->ink.stroke_color.r > 0.99 &&
               it->ink.stroke_color.g > 0.99 && it->ink.stroke_color.b > 0.99;
  return it->kind == CB_ITEM_PATH && !paper;
}

/* The ends of a passage's line, item i (its first item: a straight line from its first point to its
 * last), into e. */
static void line_ends(const cb_page *p, const cb_item *it, double *e) {
  const cb_op *o0 = &p->ops[it->op0], *o1 = &p->ops[it->op0 + it->nops - 1];
  e[0] = o0->x[0], e[1] = o0->y[0], e[2] = o1->x[o1->kind == CB_OP_CURVE ? 2 : 0],
  e[3] = o1->y[o1->kind == CB_OP_CURVE ? 2 : 0];
}

/* A lock's key id (the filled ground of its label) keeps off every other passage's ink: its line and
 * its marks. */
static void check_key_across(const cb_page *p, const cb_item *label, findings *f, const char *what) {
  box b = path_box(p, label);
  for (int j = 0; j < p->nitems; j++) {
    const cb_item *it = &p->items[j];
    if (it->role.kind != CB_ROLE_PASSAGE || it->kind != CB_ITEM_PATH || same_passage(it, label)) continue;
    box o = path_box(p, it);
    if (o.x0 > b.x1 + 3 || b.x0 > o.x1 + 3 || o.y0 > b.y1 + 3 || b.y0 > o.y1 + 3) continue;
    double gap = passage_gap(p, label, b, it);
    if (gap < 0) {
      note(f, &f->key_across, "%s: the key id of passage %d-%d lies %.1f pt over passage %d-%d%s", what,
           label->role.a, label->role.b, -gap, it->role.a, it->role.b, passage_line(p, j) ? "" : "'s mark");
      return;
    }
  }
}

/* A key id's leader (a hairline from its padlock out to it) crosses no other passage's line and
 * runs into no room: it would lead the eye to the wrong way. */
static void check_key_leader(const cb_page *p, const cb_item *ld, findings *f, const char *what) {
  const cb_op *a = &p->ops[ld->op0], *e = &p->ops[ld->op0 + 1];
  for (int j = 0; j < p->nitems; j++) {
    const cb_item *it = &p->items[j];
    double l[4];
    if (it->role.kind == CB_ROLE_ROOM && it->kind == CB_ITEM_PATH && it->ink.fill) {
      box r = path_box(p, it);
      if (to_segment(a->x[0], a->y[0], e->x[0], e->y[0], (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2) <
          (r.x1 - r.x0) / 2 - 0.5) {
        note(f, &f->key_leader_across, "%s: the key id leader of passage %d-%d runs into room %d", what,
             ld->role.a, ld->role.b, it->role.a);
        return;
      }
    }
    if (same_passage(it, ld) || !passage_line(p, j)) continue;
    line_ends(p, it, l);
    if (segments_cross(a->x[0], a->y[0], e->x[0], e->y[0], l[0], l[1], l[2], l[3])) {
      note(f, &f->key_leader_across, "%s: the key id leader of passage %d-%d crosses passage %d-%d", what,
           ld->role.a, ld->role.b, it->role.a, it->role.b);
      return;
    }
  }
}

/* The marks of the passage whose line is item `ln` (its kinds, n of them, drawn after the line) and
 * its key id keep apart: none touches another (MARKS_APART). */
static void check_own_marks_of(const cb_page *p, int ln, int n, ink_part *parts, findings *f,
                               const char *what) {
  const cb_item *it = &p->items[ln];
  double line[4];
  line_ends(p, it, line);
  int m = 0, mark[64], nlabels = 0;
  const cb_item *labels[4];
  for (int j = ln + 1; j < p->nitems; j++) {
    const cb_item *q = &p->items[j];
    if (!same_passage(q, it) || !mark_ink(q)) continue;
    if (q->role.kind == CB_ROLE_PASSAGE && m < 64) ink_part_of(p, q, line, &parts[m++]);
    if (q->role.kind == CB_ROLE_PASSAGE_MARK && q->ink.fill && nlabels < 4) labels[nlabels++] = q;
    if (q->role.kind == CB_ROLE_PASSAGE_MARK && !q->ink.fill && q->nops == 2) check_key_leader(p, q, f, what);
  }
  if (m >= n && n > 0) parts_to_marks(parts, m, n, line, mark);
  for (int a = 0; m >= n && a < m; a++)
    for (int b = a + 1; b < m; b++)
      if (mark[a] != mark[b] && parts_gap(p, &parts[a], &parts[b]) < MARKS_APART) {
        note(f, &f->own_marks_touch, "%s: two marks of passage %d-%d lie %.1f pt apart", what, it->role.a,
             it->role.b, parts_gap(p, &parts[a], &parts[b]));
        a = b = m;
      }
  for (int k = 0; k < nlabels; k++) {
    ink_part lp;
    ink_part_of(p, labels[k], NULL, &lp);
    /* the ground of a key id is wider than its letters by a margin of its own: it touches where it
     * covers (it hides what it is drawn over) */
    for (int a = 0; a < m; a++) {
      double gap = parts_gap(p, &lp, &parts[a]);
      if (gap < 0) {
        note(f, &f->own_marks_touch, "%s: the key id of passage %d-%d lies %.1f pt over its mark", what,
             it->role.a, it->role.b, -gap);
        break;
      }
    }
    check_key_across(p, labels[k], f, what);
  }
}

/* Every passage of d on the page: its own marks apart, its key id off other passages. */
static void check_own_marks(const cb_page *p, const cb_dungeon *d, findings *f, const char *what) {
  ink_part *parts = malloc(64 * sizeof *parts);
  assert_non_null(parts);
  for (int i = 0; i < p->nitems; i++) {
    if (!passage_line(p, i)) continue;
    const cb_item *it = &p->items[i];
    for (int k = 0; k < d->npassages; k++)
      if (d->passages[k].from == it->role.a && d->passages[k].to == it->role.b) {
        cb_symbol kinds[CB_PASSAGE_KINDS];
        check_own_marks_of(p, i, cb_map_passage_symbols(&d->passages[k], kinds), parts, f, what);
        break;
      }
  }
  free(parts);
}

/* A passage's marks (what its items draw after its line: a padlock, a trap's
 * zigzag, a lock's key id and its leader) lie clear of every room's circle, half a point
 * allowed: under a room a mark is lost, or over it hides the room. Checked
 * where rooms are dice (dropdice), whose passages are one straight line. A
 * path is read by its ink (a zigzag along a slanting line is far narrower
 * than its box), a text by its box. */
static void check_passage_marks(const cb_page *p, const box *rooms, int nrooms, findings *f,
                                const char *what) {
  ink_part *part = malloc(sizeof *part);
  assert_non_null(part);
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    cb_role k = it->role.kind;
    if ((k != CB_ROLE_PASSAGE && k != CB_ROLE_PASSAGE_MARK) || passage_line(p, i)) continue;
    if (it->kind == CB_ITEM_PATH && !mark_ink(it)) continue;
    box b = it->kind == CB_ITEM_TEXT ? text_box(it) : path_box(p, it);
    if (it->kind == CB_ITEM_PATH) ink_part_of(p, it, NULL, part);
    for (int r = 0; r < nrooms; r++) {
      if (!rooms[r].round) continue;
      double cx = (rooms[r].x0 + rooms[r].x1) / 2, cy = (rooms[r].y0 + rooms[r].y1) / 2,
             nx = fmin(fmax(cx, b.x0), b.x1), ny = fmin(fmax(cy, b.y0), b.y1),
             radius = (rooms[r].x1 - rooms[r].x0) / 2, in = hypot(nx - cx, ny - cy) - radius;
      if (it->kind == CB_ITEM_PATH && in < -0.5) {
        in = INFINITY;
        for (int j = 0; j < part->n; j++)
          in = fmin(in, hypot(part->xy[2 * j] - cx, part->xy[2 * j + 1] - cy) - radius - part->r);
      }
      if (in < -0.5)
        note(f, &f->mark_under_room, "%s: a mark of passage %d-%d lies under room %d", what, it->role.a,
             it->role.b, rooms[r].id);
    }
  }
  free(part);
}

/* preconnect: a bar's mark on a corridor (padlock, trap, obstruction) does
 * not sit on a door, stairs, a secret door, a dead end or a bridge (issue 22:
 * every crossing drawn as its result, and legible), half a point allowed:
 * its body's box against the box of every small unroled path (those marks;
 * the grid spans the map). */
static void check_bars(const cb_page *p, findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *bar = &p->items[i];
    if (bar->role.kind != CB_ROLE_PASSAGE_MARK || bar->kind != CB_ITEM_PATH || !bar->ink.fill) continue;
    box b = path_box(p, bar);
    for (int j = 0; j < p->nitems; j++) {
      const cb_item *it = &p->items[j];
      if (it->role.kind != CB_ROLE_NONE || it->kind != CB_ITEM_PATH) continue;
      box m = path_box(p, it);
      if (m.x1 - m.x0 > 40 || m.y1 - m.y0 > 40) continue;
      if (fmin(b.x1, m.x1) - fmax(b.x0, m.x0) > 0.5 && fmin(b.y1, m.y1) - fmax(b.y0, m.y0) > 0.5) {
        note(f, &f->bar_on_mark, "%s: a bar of passage %d-%d lies on a mark", what, bar->role.a, bar->role.b);
        break;
      }
    }
  }
}

/* No room's badge lies over another room's badge or over another room (booklet.md: no label
 * overlaps another label or a room), half a point allowed: by the bodies' boxes, each room's
 * circle as a circle. */
static void check_marks_apart(const cb_page *p, const box *rooms, int nrooms, findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *a = &p->items[i];
    if (a->role.kind != CB_ROLE_ROOM_MARK || a->kind != CB_ITEM_PATH || !a->ink.fill) continue;
    box ba = path_box(p, a);
    for (int j = i + 1; j < p->nitems; j++) {
      const cb_item *b = &p->items[j];
      if (b->role.kind != CB_ROLE_ROOM_MARK || b->kind != CB_ITEM_PATH || !b->ink.fill ||
          b->role.a == a->role.a)
        continue;
      box bb = path_box(p, b);
      if (fmin(ba.x1, bb.x1) - fmax(ba.x0, bb.x0) > 0.5 && fmin(ba.y1, bb.y1) - fmax(ba.y0, bb.y0) > 0.5)
        note(f, &f->marks_touch, "%s: a mark of room %d lies over one of room %d", what, a->role.a,
             b->role.a);
    }
    for (int r = 0; r < nrooms; r++) {
      if (!rooms[r].round || rooms[r].id == a->role.a) continue;
      double cx = (rooms[r].x0 + rooms[r].x1) / 2, cy = (rooms[r].y0 + rooms[r].y1) / 2,
             nx = fmin(fmax(cx, ba.x0), ba.x1), ny = fmin(fmax(cy, ba.y0), ba.y1);
      if (hypot(nx - cx, ny - cy) < (rooms[r].x1 - rooms[r].x0) / 2 - 0.5)
        note(f, &f->mark_over_room, "%s: a mark of room %d lies over room %d", what, a->role.a, rooms[r].id);
    }
  }
}

/* No room number overlaps another (booklet.md: no label overlaps another label). */
static void check_numbers(const box *numbers, int n, findings *f, const char *what) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      box a = numbers[i], b = numbers[j];
      if (a.id != b.id && a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1)
        note(f, &f->numbers_touch, "%s: room %d's number overlaps room %d's", what, a.id, b.id);
    }
}

/* No room number appears twice on a page (booklet.md: "room 4" is never two rooms). */
static void check_numbers_once(const cb_page *p, findings *f, const char *what) {
  for (int i = 0; i < p->nitems; i++)
    for (int j = i + 1; j < p->nitems; j++) {
      const cb_item *a = &p->items[i], *b = &p->items[j];
      if (a->kind == CB_ITEM_TEXT && b->kind == CB_ITEM_TEXT && a->role.kind == CB_ROLE_NUMBER &&
          b->role.kind == CB_ROLE_NUMBER && a->role.a != b->role.a && strcmp(a->text, b->text) == 0)
        note(f, &f->number_twice, "%s: rooms %d and %d are both numbered %s", what, a->role.a, b->role.a,
             a->text);
    }
}

/* A page's map; passage_marks, where rooms are dice, the dungeon whose passages' marks are read too. */
static void check_page(const cb_page *p, findings *f, const char *what, const cb_dungeon *passage_marks,
                       bool bars) {
  box *rooms = calloc((size_t)p->nitems + 1, sizeof *rooms),
      *numbers = calloc((size_t)p->nitems + 1, sizeof *numbers);
  assert_true(rooms && numbers);
  int nrooms = 0, nnumbers = 0;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind == CB_ITEM_TEXT) {
      if (it->size < 7 - 1e-9) note(f, &f->small_text, "%s: '%.20s' at %.1f pt", what, it->text, it->size);
      if (it->role.kind == CB_ROLE_NUMBER) {
        if (it->size < 8 - 1e-9)
          note(f, &f->small_number, "%s: room %s at %.1f pt", what, it->text, it->size);
        numbers[nnumbers++] = text_box(it);
      }
    } else if (it->role.kind == CB_ROLE_ROOM && it->ink.fill) {
      rooms[nrooms] = path_box(p, it);
      rooms[nrooms++].at = i;
    }
  }
  check_passages(p, rooms, nrooms, numbers, nnumbers, f, what);
  check_marks(p, rooms, nrooms, f, what);
  check_marks_apart(p, rooms, nrooms, f, what);
  if (passage_marks) check_passage_marks(p, rooms, nrooms, f, what);
  if (passage_marks) check_own_marks(p, passage_marks, f, what);
  if (bars) check_bars(p, f, what);
  check_numbers(numbers, nnumbers, f, what);
  check_numbers_once(p, f, what);
  free(rooms);
  free(numbers);
}

/* How many texts `t` the document's pages draw as a mark of room a (b 0) or
 * of the passage between a and b. */
static int marked_count(const cb_document *doc, const char *t, int a, int b) {
  int n = 0;
  for (int i = 0; i < doc->npages; i++)
    for (int j = 0; j < doc->pages[i]->nitems; j++) {
      const cb_item *it = &doc->pages[i]->items[j];
      if (it->kind != CB_ITEM_TEXT || strcmp(it->text, t) != 0) continue;
      if (b == 0 && it->role.kind == CB_ROLE_ROOM_MARK && it->role.a == a) n++;
      if (b != 0 && (it->role.kind == CB_ROLE_PASSAGE_MARK || it->role.kind == CB_ROLE_PASSAGE) &&
          ((it->role.a == a && it->role.b == b) || (it->role.a == b && it->role.b == a)))
        n++;
    }
  return n;
}

static bool marked(const cb_document *doc, const char *t, int a, int b) {
  return marked_count(doc, t, a, b) > 0;
}

/* Whether a badge of room a reads `word` among its words ("$", or "? $" where a layout joins marks). */
static bool marked_word(const cb_document *doc, const char *word, int a) {
  size_t n = strlen(word);
  for (int i = 0; i < doc->npages; i++)
    for (int j = 0; j < doc->pages[i]->nitems; j++) {
      const cb_item *it = &doc->pages[i]->items[j];
      if (it->kind != CB_ITEM_TEXT || it->role.kind != CB_ROLE_ROOM_MARK || it->role.a != a) continue;
      for (const char *w = strstr(it->text, word); w; w = strstr(w + 1, word))
        if ((w == it->text || w[-1] == ' ') && (w[n] == '\0' || w[n] == ' ')) return true;
    }
  return false;
}

/* What a room's key entry tells of monsters and treasure the map must mark, read from the stocked
 * contents (not from the map code's own reading): where the procedure marks rooms, its tags; else
 * monsters other than the boss's and treasure other than a key ("K1: ...") outside the goal room,
 * whose "G" says it. */
static void stocked_marks(const cb_dungeon *d, const cb_room *r, bool *monsters, bool *treasure) {
  const cb_contents *c = r->contents;
  *monsters = r->tags & CB_TAG_ENCOUNTER, *treasure = r->tags & CB_TAG_TREASURE;
  if (d->marks_rooms || !c || (r->tags & CB_TAG_GOAL)) return;
  *monsters = c->nmonsters > 0 && r->id != d->boss_room;
  for (int i = 0; i < c->ntreasure; i++) {
    const char *w = c->treasure[i].what;
    bool key = false;
    for (int k = 0; k < r->nkeys && w; k++)
      key |= strncmp(w, r->keys[k], strlen(r->keys[k])) == 0 && w[strlen(r->keys[k])] == ':';
    *treasure |= !key;
  }
}

static int keys_in(const cb_room *r, const char *key) {
  int n = 0;
  for (int k = 0; k < r->nkeys; k++)
    n += strcmp(r->keys[k], key) == 0;
  return n;
}

/* A lock on its passage, or on stairs to another level beside both rooms
 * (a key id there beyond the room's own keys: the key names it in both). */
static bool lock_marked(const cb_document *doc, const cb_dungeon *d, const cb_passage *p) {
  if (marked(doc, p->lock, p->from, p->to)) return true;
  const cb_room *a = cb_dungeon_room(d, p->from), *b = cb_dungeon_room(d, p->to);
  if (!a || !b || a->level == b->level) return false;
  return marked_count(doc, p->lock, a->id, 0) > keys_in(a, p->lock) &&
         marked_count(doc, p->lock, b->id, 0) > keys_in(b, p->lock);
}

/* Every goal, boss, key, lock, encounter and treasure of the model has its mark on the map (booklet.md:
 * every mark on every map): the goal's "G" and the boss's "B" beside their rooms (the boss's where the
 * stocking put it: "G B" in the goal room), a key's id beside its room, a lock's key id on its passage,
 * "?" and "$" beside a room whose key entry has monsters or treasure (stocked_marks; before issue 22's
 * fix, 50 seeds: leximorph 480 and 393 unmarked, preconnect 164 and 141, battleships 336 and 289). */
static void check_every_mark(const cb_document *doc, const cb_dungeon *d, findings *f, const char *what) {
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if ((r->tags & CB_TAG_GOAL) && !marked(doc, "G", r->id, 0) && !marked(doc, "G B", r->id, 0))
      note(f, &f->no_goal, "%s: the goal, room %d, has no mark", what, r->id);
    if (((r->tags & CB_TAG_BOSS) || r->id == d->boss_room) && !marked(doc, "B", r->id, 0) &&
        !marked(doc, "G B", r->id, 0))
      note(f, &f->no_boss, "%s: the boss's room %d has no mark", what, r->id);
    for (int k = 0; k < r->nkeys; k++)
      if (!marked(doc, r->keys[k], r->id, 0))
        note(f, &f->no_key, "%s: key %s in room %d has no mark", what, r->keys[k], r->id);
    bool monsters, treasure;
    stocked_marks(d, r, &monsters, &treasure);
    if (monsters && !marked_word(doc, "?", r->id))
      note(f, &f->no_encounter, "%s: room %d's monsters have no mark", what, r->id);
    if (treasure && !marked_word(doc, "$", r->id))
      note(f, &f->no_treasure, "%s: room %d's treasure has no mark", what, r->id);
  }
  for (int k = 0; k < d->npassages; k++) {
    const cb_passage *p = &d->passages[k];
    if (p->lock && p->to && !lock_marked(doc, d, p))
      note(f, &f->no_lock, "%s: the lock %s on %d-%d has no mark", what, p->lock, p->from, p->to);
  }
}

/* The dungeon of a seed, stocked as crawlbook prints it (the key's length
 * decides the map's size), with some of the options that put more on a map:
 * every third seed three locks (--locks 3), every fifth more levels (cards
 * --levels 2, battleships --levels 3). */
static cb_dungeon *stocked_rooms(const char *gen, int seed, int rooms) {
  cb_gen_options o = {.seed = (uint64_t)seed, .rooms = rooms};
  cb_stock_options sto = {0};
  if (seed % 3 == 0) sto.locks = 3, sto.locks_set = true;
  if (seed % 5 == 0 && strcmp(gen, "cards") == 0) o.levels = 2;
  if (seed % 5 == 0 && strcmp(gen, "battleships") == 0) o.levels = 3;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(cb_generator_find(gen), &o, &d, &err) != CB_OK)
    fail_msg("%s seed %d: %s", gen, seed, err.msg);
  if (cb_stock_run(d, &sto, &err) != CB_OK) fail_msg("%s seed %d: %s", gen, seed, err.msg);
  return d;
}

static cb_dungeon *stocked(const char *gen, int seed) { return stocked_rooms(gen, seed, 0); }

/* Which sheets a sweep lays out: the page (in points) and the rooms asked for (0: the default). */
typedef struct sheet_case {
  double page_w, page_h;
  int rooms;
  const char *which; /* how the summary names the case ("" for A4 at the default rooms) */
} sheet_case;

static const sheet_case A4_CASE = {A4_W, A4_H, 0, ""};

static void print_findings(const char *gen, int seeds, const char *which, const findings *f) {
  printf("%-12s %d seeds%s: %d passages through rooms, %d through numbers, %d stray marks, %d numbers under "
         "8 pt, %d texts under 7 pt, %d numbers overlapping, %d marks on passages, %d passage marks under "
         "rooms, %d bars on marks, %d leaders across passages, %d marks over marks, %d marks over rooms, %d "
         "marks over their own passages; unmarked: %d goals, %d bosses, %d keys, %d locks, %d encounters, %d "
         "treasures; %d numbers twice; "
         "%d passages' own marks touching, %d key ids over other passages, %d key id leaders across passages "
         "or rooms%s%s\n",
         gen, seeds, which, f->crossed_room, f->crossed_number, f->stray_mark, f->small_number, f->small_text,
         f->numbers_touch, f->mark_on_passage, f->mark_under_room, f->bar_on_mark, f->leader_across,
         f->marks_touch, f->mark_over_room, f->mark_on_own, f->no_goal, f->no_boss, f->no_key, f->no_lock,
         f->no_encounter, f->no_treasure, f->number_twice, f->own_marks_touch, f->key_across,
         f->key_leader_across, f->first[0] ? "; first: " : "", f->first);
}

/* The sheets of seeds 1..seeds: what draws through what, and every mark,
 * on the default levels and on the seeds given more levels alike (those
 * were measured apart until issue 22 brought them to 0 with the rest). */
static findings check_generator(const char *gen, int seeds, const sheet_case *sc, const cb_measure *m) {
  findings f = {0};
  for (int seed = 1; seed <= seeds; seed++) {
    cb_dungeon *d = stocked_rooms(gen, seed, sc->rooms);
    cb_error err = {0};
    cb_template t; /* the margins crawlbook prints the sheet with */
    cb_template_default(&t);
    cb_sheet_options so = {
        .page_w = sc->page_w, .page_h = sc->page_h, .margin = t.margin_mm * CB_PT_PER_MM, .version = "9.9.9"};
    cb_proc_sheet(d, &so);
    cb_document doc = {0};
    if (cb_sheet_layout(d, m, &so, &doc, &err) != CB_OK) fail_msg("%s seed %d: %s", gen, seed, err.msg);
    for (int i = 0; i < doc.npages; i++) {
      char what[80];
      snprintf(what, sizeof what, "%s%s seed %d page %d", gen, sc->which, seed, i + 1);
      check_page(doc.pages[i], &f, what, strcmp(gen, "dropdice") == 0 ? d : NULL,
                 strcmp(gen, "preconnect") == 0);
    }
    char what[80];
    snprintf(what, sizeof what, "%s%s seed %d", gen, sc->which, seed);
    check_every_mark(&doc, d, &f, what);
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  print_findings(gen, seeds, sc->which, &f);
  return f;
}

static void nothing_draws_through_anything(void **state) {
  const char *gen = *state;
  const char *env = getenv("CB_MAP_SEEDS");
  int seeds = env ? atoi(env) : 500;
  findings f = check_generator(gen, seeds, &A4_CASE, &fake_measure);
  /* Ceilings, per 500 sheets, where a fault is known and measured, not yet fixed:
   * - preconnect's goal and key badges (drawn since issue 13) have nowhere clear to go beside a room
   *   boxed in by corridors (seed 40's K1 first): 14 with every third seed at --locks 3 while the
   *   key left the map its full size; 69 since the sheet carries the whole key (issue 21) and the
   *   map is drawn smaller (seed 2's first), and one badge set nearer another room than its own; 50
   *   since corridors keep a square apart and from rooms, and badges try the middle of a side first
   *   (issue 22; seed 16's first); 46 since a badge with no clear spot tries up to three badges out
   *   (seed 42's first); 42 since a padlock with no spot on its corridor may go beside it; 11
   *   since a badge with no clear spot along its walls tries, in turn, a corner inside, a spot
   *   beyond a corner outside, a narrow room's middle just in from its walls, astride a wall, and
   *   last the same spots over none but its own room's corridors (seed 198's first: rooms of 20 pt
   *   boxed in by corridors); 0 since a badge with no clear spot by its room, or one nearer another
   *   room (seed 435's, the one stray), goes to the nearest clear spot out to six badges and is led
   *   to its room by a hairline, before it would go over its own room's corridors (issue 22);
   * - battleships' stairs marks carry their lock's padlock and key id (issue 22), and its level
   *   panels share one scale: the placer sets some wide marks far from their rooms (58, seed 28's
   *   first; 10 since a mark not plainly its room's is led to it by a hairline, which this check
   *   reads as the mark's; 0 since a wide badge's ends count as well as its middle, a row that
   *   strays is split, and a stray next to its room, where no leader fits, costs double) and a
   *   mark over a line (1, seed 483's stairs badge of room 6 across passage 3-4). That count was
   *   blind: a line through a badge's middle read as half its width over, as if on its edge;
   *   read by its depth (issue 22) it was 128, and 14 dropdice sheets of 60 at 30 rooms. Both
   *   went to 0 when a badge over another room's passage cost more than a stray (and a row or
   *   column over one was split), a stray with no room for its leader more still, and a stray
   *   tried up to six rings out. Lines through rooms went to 0 when rooms kept clear of the
   *   passages' marks (a padlock reaches across its line) and the line stepped off a room as the
   *   room off it. The sheets at --levels 3 are held to all of this since issue 22 (they were
   *   measured apart, at 0).
   * - battleships' leaders across a passage of other rooms (issue 22: seed 117's room 7 led over
   *   4-9; first counted then): 187 (72 on 400 sheets at two levels, 115 on 100 at three, whose
   *   panels are crowded) when a leader's crossings cost nothing; 210 since each costs more than a
   *   spot with a clear leader, and badges keep off the lines (above), which costs some crossings
   *   (80 at two levels, 130 at three). Those left lead out of a room boxed in by its ways, where
   *   no spot beside it is clear (seed 4's room 8 first); 110 (21 at two levels, 89 at three) since
   *   such a room's marks try a finer grid round it for a leader clear of the ways, and then its own
   *   rim, clear of its number (seed 4's room 8 and seed 117's room 7 sit on their rims). Those left
   *   are mostly on the panels of three levels, whose rooms are at their least (7.5 pt) and boxed
   *   in (seed 10's room 3 first). The first seeds are the densest: 28 of the first 100 sheets, 55
   *   of 200, 74 of 300, 91 of 400, hence the ceiling of 28 a 100 sheets up to 110; 128 (30 of the
   *   first 100, 57 of 200) since a locked stair's padlock and key id stand at both its ends, each
   *   stairs badge of such a room the wider for it (issue 22); 81 (26 of the first 100, 43 of 200,
   *   54 of 300, 66 of 400) since level panels keep a margin of a room and most of a badge round
   *   their rooms, not a room and a half of badges, and the rooms take the panel (issue 22). Those
   *   left lead out of a room inside the drawing whose faces are too small for its badge: the way
   *   out of one crosses a way (seed 10's room 3 first).
   * - battleships' marks over another room's mark, over another room, and across their own room's
   *   way off its rim (the last issue 22's seed 117 room 12 at three levels; counted since): 3, 12
   *   and 114 while a mark paid the usual price for covering; 2, 5 and 58 since in a panel covering
   *   costs more than a stray led to its room and a way of its own under a mark as much as a stray;
   *   18, 13 and 99 when the stocking's encounters and treasure were marked too (f41b171); 1, 8 and 45
   *   since a room's encounter and treasure share one spot, a panel's badges are 9 pt and a badge
   *   whose best spot off its room lies over its own way or strays sits astride its room's rim; 47
   *   since a badge 2.5 badges off its room is led to it; 1, 9 and 54 since a row whose leader would
   *   cross a way goes badge by badge and a rim badge's ends keep the usual 1.5 pt (not 6) nearer
   *   their room, which took leaders from 147 to 117; 1, 8 and 55 since the rooms inside a level's
   *   drawing place their marks before those on its edge (leaders 107); 1, 7 and 40 since a way of
   *   its own under a panel's badge costs a little less than covering another room's mark (190, not
   *   150) and a leader that would cross a way tries spots 4.5 badges out, not 3 (leaders 106).
   *   Marks over rooms held to the 7 measured (5 before the stocking's marks, f41b171), and leaders
   *   to the 106 measured (81 before): issue 22 left them over their old ceilings, the three-level
   *   panels too crowded for every badge (94 of the leaders are on the 100 three-level sheets).
   *   Other generators' maps are held to none of the first two (0 of 500 sheets each). leximorph's rows
   *   of marks lay over another room's on 10 (9 since 24dc2c9; seed 62's room 7 over room 10's first)
   *   while each row took the best place left it; 0 since a row still covering one goes first and
   *   the rest are placed again round it (issue 22). Beyond the seeds swept it is no cure: seeds
   *   501-1000 hold 4 before, 5 since (seed 540's room 19 over room 24's first). */
  bool bs = strcmp(gen, "battleships") == 0, pc = strcmp(gen, "preconnect") == 0;
  int over_allowed = 0, stray_allowed = 0,
      /* preconnect's padlocks (and trap and obstruction marks) and key ids on a door, stairs or
       * bridge: 359 a 500 sheets with each 1.3 badges from its door, 294 since it goes on along its
       * corridor to a spot clear of them (most on corridors of 10 or 20 ft, a door at either end);
       * 21 since a mark is placed by the boxes of the plan's marks, a padlock with no spot clear on
       * its corridor takes a doorway's place, and a key id slides along the corridor: those left
       * are padlocks on secret corridors of 10 ft, which the secret door's disc covers end to end
       * (seed 49's 10-8 first); 17 since such a padlock goes beside its corridor where a spot there
       * is clear of marks, rooms and corridors (seed 100's 10-9 first; 14 measured at ad8c78b); 11
       * since it tries a quarter along the corridor too when neither its middle nor an end is clear
       * (seed 100's 10-9 first: secret doors' discs on both sides of short corridors); 0 since such a
       * padlock stands against the secret door's disc (or its corridor's middle, or the door of rooms
       * touching) on the nearest clear ring round it, led to it by a hairline (issue 22; 0 of 1,500
       * sheets too); 2 since a padlock on the door of rooms that touch takes the doorway's place
       * again where that is clear of the plan's marks, before a spot led to it (seed 386's 10-11);
       * 0 since a key id stands clear of its padlock's shackle (issue 22, measured) */
      bars_allowed = 0,
      /* preconnect, since its badges and padlocks are led from afar, on corridors that move apart
       * (both issue 22), measured when the two met: 54 leaders across a corridor (seed
       * 16's room 3 first), 1 bar on a mark (seed 9's 6-5), and a corridor across a room's number
       * (seed 483's 12-9 over 10, counted twice: the map took another size); leaders 38 since a
       * leader across another room's corridor costs more than any spot out to six badges whose
       * leader crosses none, and the search goes on to twelve while every leader crosses one: those
       * left lead out of rooms boxed in by other rooms' corridors (seed 16's room 3 first); 36, and
       * numbers 0, since a number over another room's corridor wherever in its room it stands (a
       * small room's number runs over its walls) tells the sheet the map is cramped, and the sheet
       * takes a size where it is not; 40 since a key id stands clear of its padlock's shackle, not
       * over it (one more mark for badges to keep off; measured, seed 16's room 3 first); 50 since
       * the boss in the goal room shares its badge, "G B", a badge wider than "G" (issue 22); 92
       * with the stocking's encounter and treasure badges (f41b171), 46 since a room's badges stand
       * inside it along a wall where they fit (its number moved off that wall to make room), the
       * rest go out the smallest rooms' first, clear of door marks and padlocks, and an encounter
       * led with its treasure shares one leader (issue 22; seed 16's room 3 first, seed 343's map
       * of rooms under 10 pt holds 12; each crossing is read twice, the corridor's ink and paper); 52
       * since rooms may be drawn smaller and corridors to drawn rooms reshaped (the sanitizers'
       * build reads 52, seed 18's room 10 first; the release build 46: the builds round the
       * spots' sums apart) */
      leaders_allowed = bs   ? (26 * seeds / 100 < 106 ? 26 * seeds / 100 : 106)
                        : pc ? 52 * seeds / 500
                             : 0,
      numbers_allowed = 0;
  if (f.crossed_room + f.small_number + f.small_text + f.numbers_touch + f.no_goal + f.no_boss + f.no_key +
          f.no_lock + f.no_encounter + f.no_treasure + f.number_twice + f.own_marks_touch + f.key_across +
          f.key_leader_across ||
      f.stray_mark > stray_allowed || f.mark_on_passage > over_allowed || f.bar_on_mark > bars_allowed ||
      f.leader_across > leaders_allowed || f.crossed_number > numbers_allowed ||
      f.marks_touch > (bs ? 1 : 0) || f.mark_over_room > (bs ? 7 : 0) || (bs && f.mark_on_own > 40) ||
      /* preconnect's badges over their own room's corridors: 52 with the stocking's badges (f41b171;
       * seed 4's room 1 first: its entrance in a corner inside, over a corridor run along under the
       * wall), 0 since a badge inside keeps off the corridors as well (issue 22) */
      (pc && f.mark_on_own > 0))
    fail_msg("%s: %s", gen, f.first);
}

/* battleships' sheets as crawlbook prints them (the cairo backend's text widths, which the fake
 * measure above only stands in for), where issue 22 saw marks the sweep missed: seed 117 at three
 * levels, level 2's room 12 "L3 K1" across its own way 19-12 under a stub of a leader, and the
 * leaders of seed 4's room 8 and seed 117's room 7 across other rooms' ways (on their rims since,
 * clear). Every mark is clear of the ways (its own off its rim too), of other rooms and their
 * marks; the leaders across a way, 5 before the panels took their space (and seed 117's room 12
 * lay over its way), are held to the 4 left: seed 117's room 25 and seed 30's rooms 3 and 21 at
 * three levels, each inside its level's drawing in faces too small for its badge. Marks over their
 * own ways held to the 3 the stocking's encounter and treasure badges left (f41b171; 0 before):
 * seed 30's room 2 over 2-6 and 2-10 at three levels, seed 9's room 19 over 17-19 (issue 22, not
 * yet 0). */
static void battleships_as_printed(void **state) {
  (void)state;
  static const struct {
    int seed, levels, locks;
  } cases[] = {{4, 0, 0}, {117, 0, 0}, {117, 3, 0}, {30, 3, 3}, {9, 0, 3}};
  cb_backend *cairo = cb_test_cairo();
  assert_non_null(cairo);
  const cb_measure *m = cb_backend_find("cairo")->measure(cairo);
  findings f = {0};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    cb_gen_options o = {.seed = (uint64_t)cases[k].seed, .levels = cases[k].levels};
    cb_stock_options sto = {.locks = cases[k].locks, .locks_set = cases[k].locks > 0};
    cb_dungeon *d = NULL;
    cb_error err = {0};
    if (cb_generator_run(cb_generator_find("battleships"), &o, &d, &err) != CB_OK ||
        cb_stock_run(d, &sto, &err) != CB_OK)
      fail_msg("battleships seed %d: %s", cases[k].seed, err.msg);
    cb_template t;
    cb_template_default(&t);
    cb_sheet_options so = {
        .page_w = A4_W, .page_h = A4_H, .margin = t.margin_mm * CB_PT_PER_MM, .version = "9.9.9"};
    cb_proc_sheet(d, &so);
    cb_document doc = {0};
    if (cb_sheet_layout(d, m, &so, &doc, &err) != CB_OK) fail_msg("seed %d: %s", cases[k].seed, err.msg);
    char what[80];
    snprintf(what, sizeof what, "battleships seed %d at %d levels", cases[k].seed, d->nlevels);
    check_page(doc.pages[0], &f, what, false, false);
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  cb_backend_destroy(cairo);
  printf("battleships as printed: %d leaders across passages, %d marks on passages, %d over their own, %d "
         "over marks, %d over rooms, %d stray%s%s\n",
         f.leader_across, f.mark_on_passage, f.mark_on_own, f.marks_touch, f.mark_over_room, f.stray_mark,
         f.first[0] ? "; first: " : "", f.first);
  if (f.leader_across > 4 || f.mark_on_own > 3 ||
      f.mark_on_passage + f.marks_touch + f.mark_over_room + f.stray_mark + f.crossed_room)
    fail_msg("%s", f.first);
}

static void lay_out_sheet(const cb_dungeon *d, const cb_dungeon *shown, bool players, cb_document *doc);

/* dropdice on a smaller page and with more rooms (issue 22): its marks on
 * their own passages, clear of the rooms, and its badges by their own rooms.
 * Before the fix, over 60 seeds: A5 7 passage marks under rooms (padlocks
 * over a die, a trap's zigzag lost under them); 30 rooms 50 passage marks
 * under rooms, 5 stray badges, 1 passage through a room; then at 30 rooms
 * seed 1's 18-22 ran through die 26, its trap's mark under it, until a die
 * kept clear of the passages' marks (not only their lines) and a passage
 * stepped off a die boxed in by its neighbours as the die off it. Both are
 * held to 0 (at 30 rooms 14 badges over a line, once read by their depth,
 * until such a spot cost more than a stray: issue 22).
 * The sheets are laid out with the cairo backend's own text widths, as
 * crawlbook prints them: the key's length sets the map's size, and fake
 * widths drew other maps than the ones a game master sees (issue 22: A5
 * seed 23's padlock on 8-4 touched its trap's zigzag, read as clear). A
 * passage's own marks keep apart (its padlock, its trap's zigzag, its key
 * id), and a key id keeps off other passages. Measured at e0ef60c over 60
 * seeds (A5, Letter, 30 rooms): 95, 83 and 121 passages' own marks touching
 * (28, 5 and 58 a padlock on its trap's zigzag or secret door's disc, the
 * rest key ids over their padlock's shackle), 2, 0 and 8 key ids over
 * another passage; over 300 seeds 454, 367 and 640, 17, 0 and 28, and 6, 0
 * and 3 passage marks under rooms. All 0 (over 300 seeds too) since the
 * dice of a passage keep its marks apart, not only off the dice, a key id
 * keeps off every padlock's shackle and goes up to eight steps out, led to
 * its padlock by a hairline, before it lies over another passage, and a map
 * with no such spot says it is cramped (the sheet draws it bigger where the
 * page allows). Ceiling: room badges over other rooms' passages (the badge
 * placer's, first counted here with real widths: 1, 0 and 4 at e0ef60c over
 * 60 seeds, 17, 0 and 27 over 300; 2, 0 and 2, and 8, 0 and 19 since),
 * seeds / 15 a case; a key id's leader across another passage where every
 * spot out to eight steps costs more (0 over 60 seeds, 2 at 30 rooms over
 * 300: seed 75's 7-6 first), seeds / 150 a case. */
static void dropdice_small_and_crowded(void **state) {
  (void)state;
  const char *env = getenv("CB_MAP_SEEDS");
  int seeds = env ? atoi(env) : 60;
  static const sheet_case cases[] = {
      {419.5276, 595.2756, 0, " A5"}, {612, 792, 0, " Letter"}, {A4_W, A4_H, 30, " 30 rooms"}};
  cb_backend *b = cb_test_cairo();
  assert_non_null(b);
  const cb_measure *m = cb_backend_find("cairo")->measure(b);
  char first[256] = "";
  int faults = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    findings f = check_generator("dropdice", seeds, &cases[i], m);
    int n = f.crossed_room + f.crossed_number + f.stray_mark + f.small_number + f.small_text +
            f.numbers_touch + (f.mark_on_passage > seeds / 15) + f.mark_under_room + f.no_goal + f.no_boss +
            f.no_key + f.no_lock + f.no_encounter + f.no_treasure + f.number_twice + f.own_marks_touch +
            f.key_across + (f.key_leader_across > seeds / 150);
    if (n && !first[0]) snprintf(first, sizeof first, "%s", f.first);
    faults += n;
  }
  cb_backend_destroy(b);
  if (faults) fail_msg("%s", first);
}

/* ---- cards at 7x7 and at two levels: marks a reader can read (issue 22) ---- */

typedef struct card_marks {
  int small, off_card, overlap, passage_marks, label_on_line, lock_on_line, key_far, key_led, sheets, pages,
      marks;
  char first[256];
} card_marks;

#define card_fault(c, count, ...) cb_test_tally((c)->first, sizeof(c)->first, count, __VA_ARGS__)

static bool box_within(box in, box out, double slack) {
  return in.x0 >= out.x0 - slack && in.y0 >= out.y0 - slack && in.x1 <= out.x1 + slack &&
         in.y1 <= out.y1 + slack;
}

static bool boxes_meet(box a, box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

/* The filled shapes on the page of role `kind` that no other such shape
 * holds (a badge's body, not the padlock or arrow inside it), with their
 * items. Returns how many. */
static int bodies(const cb_page *p, cb_role kind, box *out, const cb_item **items) {
  int n = 0;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != kind || !it->ink.fill) continue;
    out[n] = path_box(p, it), items[n++] = it;
  }
  int kept = 0;
  for (int i = 0; i < n; i++) {
    bool held = false;
    for (int j = 0; j < n && !held; j++)
      held = j != i && items[j]->role.a == items[i]->role.a && items[j]->role.b == items[i]->role.b &&
             box_within(out[i], out[j], 0.01) && !box_within(out[j], out[i], 0.01);
    if (!held) out[kept] = out[i], items[kept++] = items[i];
  }
  return kept;
}

/* Every room's badge at least 2.5 mm and inside its own card, no two
 * badges on one spot, and no two passages' marks (doors, padlocks, their
 * key ids) on one spot either. */
static void check_card_marks(const cb_page *p, card_marks *c, const char *what) {
  box *cards = calloc((size_t)p->nitems + 1, sizeof *cards), *b = calloc((size_t)p->nitems + 1, sizeof *b),
      *pm = calloc((size_t)p->nitems + 1, sizeof *pm);
  const cb_item **bi = calloc((size_t)p->nitems + 1, sizeof *bi),
                **pi = calloc((size_t)p->nitems + 1, sizeof *pi);
  assert_true(cards && b && pm && bi && pi);
  int ncards = 0;
  for (int i = 0; i < p->nitems; i++)
    if (p->items[i].kind == CB_ITEM_PATH && p->items[i].role.kind == CB_ROLE_ROOM && p->items[i].ink.fill)
      cards[ncards++] = path_box(p, &p->items[i]);
  int nb = bodies(p, CB_ROLE_ROOM_MARK, b, bi), np = bodies(p, CB_ROLE_PASSAGE, pm, pi);
  const double least = 2.5 * CB_PT_PER_MM - 1e-6;
  c->marks += nb;
  for (int i = 0; i < nb; i++) {
    if (fmin(b[i].x1 - b[i].x0, b[i].y1 - b[i].y0) < least)
      card_fault(c, &c->small, "%s: a mark of room %d is %.1f mm", what, bi[i]->role.a,
                 fmin(b[i].x1 - b[i].x0, b[i].y1 - b[i].y0) / CB_PT_PER_MM);
    bool own = false;
    for (int k = 0; k < ncards && !own; k++)
      own = cards[k].id == bi[i]->role.a && box_within(b[i], cards[k], 0.3);
    if (!own)
      card_fault(c, &c->off_card, "%s: a mark of room %d (%.1f-%.1f, %.1f-%.1f) is not inside its card", what,
                 bi[i]->role.a, b[i].x0, b[i].x1, b[i].y0, b[i].y1);
    for (int j = i + 1; j < nb; j++)
      if (boxes_meet(b[i], b[j]))
        card_fault(c, &c->overlap, "%s: marks of rooms %d and %d overlap", what, bi[i]->role.a,
                   bi[j]->role.a);
  }
  for (int i = 0; i < np; i++)
    for (int j = i + 1; j < np; j++) {
      bool same = pi[i]->role.a == pi[j]->role.a && pi[i]->role.b == pi[j]->role.b;
      if (!same && boxes_meet(pm[i], pm[j]))
        card_fault(c, &c->passage_marks, "%s: marks of passages %d-%d and %d-%d share a spot", what,
                   pi[i]->role.a, pi[i]->role.b, pi[j]->role.a, pi[j]->role.b);
    }
  free(cards), free(b), free(pm), free(bi), free(pi);
}

/* Whether a line of item `it` (a stroked path) runs into box b. */
static bool line_into(const cb_page *p, const cb_item *it, box b) {
  for (int k = it->op0 + 1; k < it->op0 + it->nops; k++) {
    const cb_op *o = &p->ops[k], *prev = &p->ops[k - 1];
    if (o->kind == CB_OP_LINE && prev->kind != CB_OP_CLOSE && prev->kind != CB_OP_CURVE &&
        segment_enters(prev->x[0], prev->y[0], o->x[0], o->y[0], b, 0))
      return true;
  }
  return false;
}

/* Whether text item t is the key id of the lock on its passage. */
static bool is_lock_of(const cb_dungeon *d, const cb_item *t) {
  for (int k = 0; k < d->npassages; k++) {
    const cb_passage *ps = &d->passages[k];
    if (ps->lock && ps->from == t->role.a && ps->to == t->role.b && strcmp(ps->lock, t->text) == 0)
      return true;
  }
  return false;
}

/* Whether passage a-b is locked. */
static bool locked_way(const cb_dungeon *d, int a, int b) {
  for (int k = 0; k < d->npassages; k++)
    if (d->passages[k].lock && d->passages[k].from == a && d->passages[k].to == b) return true;
  return false;
}

/* No padlock where another door's line runs through it, where one cannot
 * tell which of two crossing diagonals is locked (the audit: seed 58
 * --grid 7x7 --decks 2 --locks 3, 28-31's padlock on 29-38). */
static void check_card_padlocks(const cb_page *p, const cb_dungeon *d, card_marks *c, const char *what) {
  box *pm = calloc((size_t)p->nitems + 1, sizeof *pm);
  const cb_item **pi = calloc((size_t)p->nitems + 1, sizeof *pi);
  assert_true(pm && pi);
  int np = bodies(p, CB_ROLE_PASSAGE, pm, pi);
  for (int i = 0; i < np; i++) {
    if (!locked_way(d, pi[i]->role.a, pi[i]->role.b)) continue;
    box in = {pm[i].x0 + 0.5, pm[i].y0 + 0.5, pm[i].x1 - 0.5, pm[i].y1 - 0.5, 0, false};
    for (int j = 0; j < p->nitems; j++) {
      const cb_item *l = &p->items[j];
      if (l->kind != CB_ITEM_PATH || l->role.kind != CB_ROLE_PASSAGE || !l->ink.stroke || l->ink.fill ||
          (l->role.a == pi[i]->role.a && l->role.b == pi[i]->role.b) || !line_into(p, l, in))
        continue;
      card_fault(c, &c->lock_on_line, "%s: the padlock of %d-%d lies on the line of %d-%d", what,
                 pi[i]->role.a, pi[i]->role.b, l->role.a, l->role.b);
      break;
    }
  }
  free(pm), free(pi);
}

/* No lock's key id on another door's line, where it reads as that door's
 * (issue 22: seed 9 --grid 7x7 --decks 2, 8-13's K1 on 7-22's line). */
static void check_card_labels(const cb_page *p, const cb_dungeon *d, card_marks *c, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *t = &p->items[i];
    if (t->kind != CB_ITEM_TEXT || t->role.kind != CB_ROLE_PASSAGE || !is_lock_of(d, t)) continue;
    box tb = text_box(t);
    for (int j = 0; j < p->nitems; j++) {
      const cb_item *l = &p->items[j];
      if (l->kind != CB_ITEM_PATH || l->role.kind != CB_ROLE_PASSAGE || !l->ink.stroke || l->ink.fill ||
          (l->role.a == t->role.a && l->role.b == t->role.b) || !line_into(p, l, tb))
        continue;
      card_fault(c, &c->label_on_line, "%s: the key id %s of %d-%d lies on the line of %d-%d", what, t->text,
                 t->role.a, t->role.b, l->role.a, l->role.b);
      break;
    }
  }
}

/* How far segment a-b keeps from box b (0 where it runs into it). */
static double segment_gap(double ax, double ay, double bx, double by, box b) {
  if (segment_enters(ax, ay, bx, by, b, 0)) return 0;
  double corners[4][2] = {{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}}, gap = INFINITY;
  for (int k = 0; k < 4; k++) {
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, px = corners[k][0], py = corners[k][1];
    double t = len2 > 0 ? fmax(0, fmin(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
    gap = fmin(gap, hypot(px - (ax + dx * t), py - (ay + dy * t)));
  }
  box square = b;
  square.round = false;
  return fmin(gap, fmin(distance_to(square, ax, ay), distance_to(square, bx, by)));
}

/* How far a line of item `it` (a stroked path) keeps from box b. */
static double line_gap(const cb_page *p, const cb_item *it, box b) {
  double gap = INFINITY;
  for (int k = it->op0 + 1; k < it->op0 + it->nops; k++) {
    const cb_op *o = &p->ops[k], *prev = &p->ops[k - 1];
    if (o->kind == CB_OP_LINE && prev->kind != CB_OP_CLOSE && prev->kind != CB_OP_CURVE)
      gap = fmin(gap, segment_gap(prev->x[0], prev->y[0], o->x[0], o->y[0], b));
  }
  return gap;
}

/* How far apart two boxes keep (0 where they meet). */
static double box_gap(box a, box b) {
  return hypot(fmax(0, fmax(a.x0 - b.x1, b.x0 - a.x1)), fmax(0, fmax(a.y0 - b.y1, b.y0 - a.y1)));
}

/* Whether a filled path is filled white (the ground under a key id). */
static bool is_paper(const cb_item *it) {
  return it->ink.fill_color.r > 0.99 && it->ink.fill_color.g > 0.99 && it->ink.fill_color.b > 0.99;
}

/* A stroked line thinner than any door's (cards' least is 0.4 pt): a key id's leader. */
static bool is_hairline(const cb_item *it) {
  return it->kind == CB_ITEM_PATH && it->ink.stroke && !it->ink.fill && it->ink.width < 0.39;
}

/* Whether a hairline of key id t's passage runs from its box tb to the padlock's box. */
static bool led_to(const cb_page *p, const cb_item *t, box tb, box lock) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (!is_hairline(it) || it->role.kind != CB_ROLE_PASSAGE || it->role.a != t->role.a ||
        it->role.b != t->role.b || it->nops != 2)
      continue;
    const cb_op *a = &p->ops[it->op0], *b = &p->ops[it->op0 + 1];
    box ta = tb, la = lock;
    ta.round = la.round = false;
    if (distance_to(ta, a->x[0], a->y[0]) < 1 && distance_to(la, b->x[0], b->y[0]) < 1) return true;
  }
  return false;
}

/* The padlock of passage a-b as drawn (its body and shackle: the
 * passage's paths no bigger than a mark, bar the ground under its key id
 * round (cx, cy)), into *lock; false when it has none. */
static bool padlock_box(const cb_page *p, int a, int b, double cx, double cy, double mark, box *lock) {
  bool any = false;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE || it->role.a != a || it->role.b != b)
      continue;
    box pb = path_box(p, it);
    if (pb.x1 - pb.x0 > mark || pb.y1 - pb.y0 > mark ||
        (cx > pb.x0 && cx < pb.x1 && cy > pb.y0 && cy < pb.y1) || is_hairline(it))
      continue;
    if (!any) *lock = pb;
    lock->x0 = fmin(lock->x0, pb.x0), lock->y0 = fmin(lock->y0, pb.y0);
    lock->x1 = fmax(lock->x1, pb.x1), lock->y1 = fmax(lock->y1, pb.y1);
    any = true;
  }
  return any;
}

/* The white ground under key id t (the passage's filled path round its
 * middle), else its text's box. */
static box key_id_box(const cb_page *p, const cb_item *t) {
  box tb = text_box(t);
  double cx = (tb.x0 + tb.x1) / 2, cy = (tb.y0 + tb.y1) / 2;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_PASSAGE || it->role.a != t->role.a ||
        it->role.b != t->role.b || !it->ink.fill || it->ink.stroke)
      continue;
    box g = path_box(p, it);
    if (cx > g.x0 && cx < g.x1 && cy > g.y0 && cy < g.y1 && box_within(tb, g, 1)) return g;
  }
  return tb;
}

/* Every lock's key id nearer its own padlock than any other door's line
 * or mark, else a reader takes it for that door's (the audit: seed 9
 * --grid 7x7 --decks 2, 8-13's K1 as near 7-22's padlock as its own), or
 * led to it by a hairline. */
static void check_card_key_ids(const cb_page *p, const cb_dungeon *d, card_marks *c, const char *what) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *t = &p->items[i];
    if (t->kind != CB_ITEM_TEXT || t->role.kind != CB_ROLE_PASSAGE || !is_lock_of(d, t)) continue;
    box tb = key_id_box(p, t), lock = tb;
    double own = INFINITY, other = INFINITY;
    int oa = 0, ob = 0;
    /* a mark is at most 2.5 badges across (a key id's ground is wider than a padlock but not both) */
    if (padlock_box(p, t->role.a, t->role.b, (tb.x0 + tb.x1) / 2, (tb.y0 + tb.y1) / 2, 3 * (tb.y1 - tb.y0),
                    &lock))
      own = box_gap(tb, lock);
    /* other passages' lines and marks (a padlock's body, a door's leaf), not their key ids' grounds */
    for (int j = 0; j < p->nitems; j++) {
      const cb_item *l = &p->items[j];
      if (l->kind != CB_ITEM_PATH || l->role.kind != CB_ROLE_PASSAGE ||
          (l->role.a == t->role.a && l->role.b == t->role.b) ||
          (l->ink.fill && !l->ink.stroke && is_paper(l)))
        continue;
      double g = l->ink.fill ? box_gap(tb, path_box(p, l)) : line_gap(p, l, tb);
      if (g < other) other = g, oa = l->role.a, ob = l->role.b;
    }
    if (other < own && led_to(p, t, tb, lock))
      c->key_led++;
    else if (other < own)
      card_fault(c, &c->key_far,
                 "%s: the key id %s of %d-%d lies %.1f pt from its padlock, %.1f from %d-%d's", what, t->text,
                 t->role.a, t->role.b, own, other, oa, ob);
  }
}

/* The sheets of cards --grid 7x7 (odd seeds) and --levels 2 (even ones).
 * Before issue 22 (100 seeds): 629 of 3118 marks under 2.5 mm, every one
 * astride its card's edge, 15 passages' marks on one spot. Then doors of
 * diagonals that cross in a narrow gutter, per 200 sheets: 13 until two
 * cards' ways out of the dungeon, crossing in one gutter, put their marks
 * apart (seed 53's 8-0 and 9-0 were on one spot; 27 of 400 then, 9 after);
 * 5 (seed 8's 1-2 and 4-13 first) until a slanting door's mark was kept
 * apart by its box as turned on the page, not its upright reach. All held
 * to 0. At 400 sheets one more (seed 363's secret ways out of 5 and 7:
 * their discs, drawn at the least legible letter, twice the size their
 * marks reported) until a disc's mark reported its size and a way out's
 * mark tried aside of more spots. */
static void cards_marks_are_legible(void **state) {
  (void)state;
  const char *env = getenv("CB_MAP_SEEDS");
  int seeds = env ? atoi(env) : 200;
  card_marks c = {0};
  /* and seed 363 (7x7) beyond them: its two secret ways out of the dungeon shared a spot (issue 22) */
  for (int k = 1; k <= seeds + (seeds < 363); k++) {
    int seed = k <= seeds ? k : 363;
    /* every other 7x7 sheet with two decks, as the audit's seed 9 (issue 22) */
    cb_cards_options seven = {.grid = {7, 7}, .decks = seed % 4 == 1 ? 2 : 1};
    cb_gen_options o = {.seed = (uint64_t)seed};
    if (seed % 2)
      o.own = &seven;
    else
      o.levels = 2;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    cb_stock_options sto = {0};
    if (cb_generator_run(cb_generator_find("cards"), &o, &d, &err) != CB_OK ||
        cb_stock_run(d, &sto, &err) != CB_OK)
      fail_msg("cards seed %d: %s", seed, err.msg);
    cb_document doc = {0};
    lay_out_sheet(d, d, false, &doc);
    char what[64];
    snprintf(what, sizeof what, "cards %s seed %d", seed % 2 ? "--grid 7x7" : "--levels 2", seed);
    check_card_marks(doc.pages[0], &c, what);
    check_card_labels(doc.pages[0], d, &c, what);
    check_card_padlocks(doc.pages[0], d, &c, what);
    check_card_key_ids(doc.pages[0], d, &c, what);
    c.sheets++, c.pages += doc.npages;
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  printf("cards        %d sheets at 7x7 or two levels (%d pages, %d marks): %d marks under 2.5 mm, %d off "
         "their card, %d overlapping, %d passages' marks on one spot, %d key ids on another door's line, %d "
         "padlocks on another door's line, %d key ids nearer another door's line or mark than their padlock "
         "(and %d led to it by a hairline)%s%s\n",
         c.sheets, c.pages, c.marks, c.small, c.off_card, c.overlap, c.passage_marks, c.label_on_line,
         c.lock_on_line, c.key_far, c.key_led, c.first[0] ? "; first: " : "", c.first);
  /* key ids nearer another door's line or mark than their padlock, with no leader: 111 on 201 sheets
   * (209 of 400) when a key id took the first clear place; 13 (23) since it takes the first place
   * nearer its padlock, else one with a hairline to it over no card (6 and 9 so led), else the first
   * clear one, where the gutters round a short upright door leave it none (--levels 2 seed 8's K2 of
   * 14-9 first; 7 of the 13 touch their padlock, a point or less from it): a sheet in 15, and two
   * more for a short sweep (CB_MAP_SEEDS=60: 5 on 61 sheets, seeds 8 to 56) */
  if (c.small + c.off_card + c.overlap + c.passage_marks + c.label_on_line + c.lock_on_line ||
      c.key_far > c.sheets / 15 + 2)
    fail_msg("%s", c.first);
}

/* ---- preconnect: parallel corridors keep a grid square apart (booklet.md, "The map") ---- */

/* The side of one of the map grid's squares, in points: the first two lines
 * of the grid (the unroled hairline path of many lines under the plan). */
static double grid_square(const cb_page *p) {
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_NONE || !it->ink.stroke || it->ink.fill ||
        it->ink.width > 0.35 || it->nops < 8)
      continue;
    const cb_op *o = &p->ops[it->op0];
    if (o[0].kind == CB_OP_MOVE && o[2].kind == CB_OP_MOVE)
      return hypot(o[2].x[0] - o[0].x[0], o[2].y[0] - o[0].y[0]);
  }
  return 0;
}

/* How many points legs a-b and c-e (upright or level) run side by side with
 * their centre lines nearer than `sq` and apart, leaving out a square
 * round each point of `shared` (where both corridors go through one door). */
static double abreast_pt(const double *a, const double *b, const double *c, const double *e, double sq,
                         const double (*shared)[2], int nshared) {
  bool ah = fabs(a[1] - b[1]) < 0.01, ch = fabs(c[1] - e[1]) < 0.01, av = fabs(a[0] - b[0]) < 0.01,
       cv = fabs(c[0] - e[0]) < 0.01;
  if (ah == av || ch == cv || ah != ch) return 0; /* a point, a slant, or across */
  int along = ah ? 0 : 1, over = 1 - along;
  double gap = fabs(a[over] - c[over]);
  if (gap < 0.01 || gap > sq - 0.01) return 0;
  double lo = fmax(fmin(a[along], b[along]), fmin(c[along], e[along])),
         hi = fmin(fmax(a[along], b[along]), fmax(c[along], e[along]));
  for (int i = 0; i < nshared && hi > lo; i++) {
    if (fabs(shared[i][over] - a[over]) > sq + 0.01 && fabs(shared[i][over] - c[over]) > sq + 0.01) continue;
    double at = shared[i][along];
    if (at - sq <= lo && at + sq > lo) lo = at + sq;
    if (at + sq >= hi && at - sq < hi) hi = at - sq;
  }
  return hi > lo ? hi - lo : 0;
}

/* The points of a band path (moves and lines only), at most cap, into xy; how many. */
static int band_points(const cb_page *p, const cb_item *it, double (*xy)[2], int cap) {
  int n = 0;
  for (int k = it->op0; k < it->op0 + it->nops && n < cap; k++)
    if (p->ops[k].kind == CB_OP_MOVE || p->ops[k].kind == CB_OP_LINE)
      xy[n][0] = p->ops[k].x[0], xy[n][1] = p->ops[k].y[0], n++;
  return n;
}

/* Do two corridors a (na points) and b meet at an end (one door, both go through)? Into shared. */
static int shared_ends(double (*a)[2], int na, double (*b)[2], int nb, double (*shared)[2]) {
  int n = 0;
  const double *ends[4] = {a[0], a[na - 1], b[0], b[nb - 1]};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < nb; j++)
      if (hypot(ends[i][0] - b[j][0], ends[i][1] - b[j][1]) < 0.01 && n < 4)
        shared[n][0] = ends[i][0], shared[n][1] = ends[i][1], n++;
  for (int i = 2; i < 4; i++)
    for (int j = 0; j < na; j++)
      if (hypot(ends[i][0] - a[j][0], ends[i][1] - a[j][1]) < 0.01 && n < 4)
        shared[n][0] = ends[i][0], shared[n][1] = ends[i][1], n++;
  return n;
}

/* How many pairs of corridors on the sheet run abreast nearer than a grid
 * square for more than a point, read from the page: the corridors' ink
 * bands (the widest butt-capped passage strokes) and the grid's squares. */
static int abreast_pairs(const cb_page *p) {
  double sq = grid_square(p), widest = 0;
  if (sq <= 0) return 0;
  for (int i = 0; i < p->nitems; i++)
    if (p->items[i].role.kind == CB_ROLE_PASSAGE && p->items[i].ink.stroke &&
        p->items[i].ink.cap == CB_CAP_BUTT)
      widest = fmax(widest, p->items[i].ink.width);
  int pairs = 0;
  enum { MAXP = 64 };
  double a[MAXP][2], b[MAXP][2], shared[4][2];
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *x = &p->items[i];
    if (x->role.kind != CB_ROLE_PASSAGE || x->kind != CB_ITEM_PATH || x->ink.cap != CB_CAP_BUTT ||
        fabs(x->ink.width - widest) > 1e-6)
      continue;
    int na = band_points(p, x, a, MAXP);
    for (int j = i + 1; j < p->nitems; j++) {
      const cb_item *y = &p->items[j];
      if (y->role.kind != CB_ROLE_PASSAGE || y->kind != CB_ITEM_PATH || y->ink.cap != CB_CAP_BUTT ||
          fabs(y->ink.width - widest) > 1e-6)
        continue;
      int nb = band_points(p, y, b, MAXP), ns = na > 1 && nb > 1 ? shared_ends(a, na, b, nb, shared) : 0;
      double run = 0;
      for (int s = 1; s < na; s++)
        for (int t = 1; t < nb; t++)
          run += abreast_pt(a[s - 1], a[s], b[t - 1], b[t], sq, (const double(*)[2])shared, ns);
      pairs += run > 1;
      if (run > 1 && getenv("CB_MAP_VERBOSE"))
        printf("corridors %d-%d and %d-%d run %.0f pt abreast (a square %.1f pt)\n", x->role.a, x->role.b,
               y->role.a, y->role.b, run, sq);
    }
  }
  return pairs;
}

/* preconnect's sheets at 15 rooms (seeds 1..200, CB_MAP_SEEDS): how many
 * pairs of corridors run side by side nearer than a grid square (booklet.md:
 * parallel corridors keep a grid square apart), read from the paper apart
 * from the generator's own count (test_generate's property_abreast). A
 * ceiling, measured, not yet 0: 273 pairs on 131 of 200 sheets; 265 on 128
 * since a corridor counts as crowded beside another's side passage too; 245
 * on 123 since a routed corridor pays 30 ft a foot crowded, not 20; 230 on
 * 121 since the spots beyond a rolled end weigh their corridor's crowding
 * (108 at most a square, 87 one to two); 209 on 113 since a corridor moves
 * its legs up to a square over where it runs less crowded; 180 on 105 since
 * routed corridors keep 5 ft off walls, not 7.5, and pay 40 ft a foot
 * crowded; 145 on 87 since corridors move their legs off the ones drawn
 * beside them later and routed ones pay 60 ft a foot crowded; 131 on 76
 * since a corridor to a drawn room may then take another of its shapes
 * (its door or the spot it comes in by slid up to a square); 142 on 76
 * since a new room that fits nowhere as rolled is drawn smaller rather than
 * further off (rooms stand closer: 146 when that may crowd its corridor,
 * which it now may not; the model's count at 12 rooms falls). Most left run
 * a square or two beside a door: a corridor's first or last leg, which its
 * door holds in place, in channels between rooms too narrow for two
 * corridors a square apart, or where moving over would cross more
 * corridors. */
static void corridors_keep_apart(void **state) {
  (void)state;
  const char *env = getenv("CB_MAP_SEEDS");
  int seeds = env ? atoi(env) : 200, pairs = 0, sheets = 0, first = 0;
  for (int seed = 1; seed <= seeds; seed++) {
    cb_dungeon *d = stocked_rooms("preconnect", seed, 15);
    cb_document doc = {0};
    lay_out_sheet(d, d, false, &doc);
    int n = abreast_pairs(doc.pages[0]);
    if (n && getenv("CB_MAP_VERBOSE")) printf("  (seed %d: %d pairs)\n", seed, n);
    pairs += n, sheets += n > 0;
    if (n && !first) first = seed;
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  printf("preconnect   %d sheets at 15 rooms: %d pairs of corridors abreast nearer than a grid square, on %d "
         "sheets (seed %d first)\n",
         seeds, pairs, sheets, first);
  if (pairs > 142 * seeds / 200) fail_msg("%d pairs of corridors abreast (seed %d first)", pairs, first);
}

/* ---- the players' map: what it may show, worked out from the model alone ---- */

typedef struct leaks {
  int hidden_room, missing_room, secret_way, numbering, notes, secret_text, checked_pages;
  char first[256];
} leaks;

#define leak(l, count, ...) cb_test_tally((l)->first, sizeof(l)->first, count, __VA_ARGS__)

static int room_index(const cb_dungeon *d, int id) {
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].id == id) return i;
  return -1;
}

static bool unseen(const cb_passage *p) { return p->flags & (CB_FLAG_SECRET | CB_FLAG_CONCEALED); }

/* found[i]: room i can be walked to from a way in (an entrance or start
 * room, else the first room) over passages that are neither secret nor
 * concealed, one-way ones only forwards. Returns how many. */
static int findable(const cb_dungeon *d, bool *found) {
  int n = 0;
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) found[i] = true, n++;
  if (n == 0 && d->nrooms) found[0] = true, n = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = 0; k < d->npassages; k++) {
      const cb_passage *p = &d->passages[k];
      int a = room_index(d, p->from), b = p->to ? room_index(d, p->to) : -1;
      if (unseen(p) || a < 0 || b < 0) continue;
      bool both = !(p->flags & CB_FLAG_ONE_WAY);
      if (found[a] && !found[b]) found[b] = grew = true, n++;
      if (both && found[b] && !found[a]) found[a] = grew = true, n++;
    }
  }
  return n;
}

/* A passage the party can see between rooms a and b (b 0: a way out of a). */
static bool open_way(const cb_dungeon *d, int a, int b) {
  for (int k = 0; k < d->npassages; k++) {
    const cb_passage *p = &d->passages[k];
    if (!unseen(p) && ((p->from == a && p->to == b) || (p->from == b && p->to == a))) return true;
  }
  return false;
}

/* Is there a room marked as a way to the surface none of whose ways out is a secret? */
static bool open_way_to_surface(const cb_dungeon *d) {
  for (int i = 0; i < d->nrooms; i++) {
    bool secret = false, out = false;
    for (int k = 0; k < d->npassages; k++)
      if (d->passages[k].from == d->rooms[i].id && d->passages[k].to == 0)
        out = true, secret = secret || unseen(&d->passages[k]);
    if ((d->rooms[i].tags & CB_TAG_SURFACE_EXIT) && out && !secret) return true;
  }
  return false;
}

/* Words and letters that name a secret: the legend's names of the marks a
 * player must not see, the badges' letters, every key id of the model, and a
 * way to the surface where every one is secret. */
static bool tells_a_secret(const cb_dungeon *d, const char *t) {
  static const char *const words[] = {"goal",
                                      "boss",
                                      "encounter",
                                      "treasure",
                                      "key",
                                      "secret",
                                      "locked (key)",
                                      "soft-locked",
                                      "trapped",
                                      "concealed",
                                      "trap (disabled)",
                                      "unreachable",
                                      "G",
                                      "B",
                                      "?",
                                      "$",
                                      "S",
                                      "C",
                                      "T"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(t, words[i]) == 0) return true;
  if (strcmp(t, "way to the surface") == 0 && !open_way_to_surface(d)) return true;
  for (int i = 0; i < d->nrooms; i++)
    for (int k = 0; k < d->rooms[i].nkeys; k++)
      if (strcmp(t, d->rooms[i].keys[k]) == 0) return true;
  for (int k = 0; k < d->npassages; k++)
    if (d->passages[k].lock && strcmp(t, d->passages[k].lock) == 0) return true;
  return false;
}

static bool whole_number(const char *t, int *n) {
  char *end;
  long v = strtol(t, &end, 10);
  if (!*t || *end || v < 1 || v > 100000) return false;
  *n = (int)v;
  return true;
}

/* One item of the players' sheet against what the party may know. */
static void check_player_item(const cb_page *p, const cb_item *it, const cb_dungeon *d, const bool *found,
                              int *numbered, int *noted, leaks *l, const char *what) {
  int ia = room_index(d, it->role.a), ib = it->role.b ? room_index(d, it->role.b) : -2, n;
  bool hidden = (it->role.a && (ia < 0 || !found[ia])) || (ib != -2 && (ib < 0 || !found[ib]));
  if (it->role.kind != CB_ROLE_NONE && hidden)
    leak(l, &l->hidden_room, "%s: room %d or %d, which only a secret finds, is drawn", what, it->role.a,
         it->role.b);
  if (it->role.kind == CB_ROLE_PASSAGE && !open_way(d, it->role.a, it->role.b))
    leak(l, &l->secret_way, "%s: the secret way %d-%d is drawn", what, it->role.a, it->role.b);
  if (it->kind != CB_ITEM_TEXT) return;
  if (tells_a_secret(d, it->text)) leak(l, &l->secret_text, "%s: '%s' is on the page", what, it->text);
  if (!whole_number(it->text, &n)) return;
  if (it->role.kind == CB_ROLE_NUMBER)
    numbered[n < d->nrooms + 1 ? n : 0]++;
  else if (it->role.kind == CB_ROLE_NONE)
    noted[n < d->nrooms + 1 ? n : 0]++;
  (void)p;
}

/* The map numbers the k findable rooms 1..k, each once; the notes grid has a line for each. */
static void check_numbering(const cb_dungeon *d, const int *numbered, const int *noted, int k, leaks *l,
                            const char *what) {
  for (int n = 0; n <= d->nrooms; n++) {
    int want = n >= 1 && n <= k;
    if (numbered[n] != want)
      leak(l, &l->numbering, "%s: number %d is on the map %d times (%d rooms to find)", what, n, numbered[n],
           k);
    if (want && noted[n] < 1) leak(l, &l->notes, "%s: the notes have no line for room %d", what, n);
  }
}

static void check_players_doc(const cb_document *doc, const cb_dungeon *d, leaks *l, const char *what) {
  bool *found = calloc((size_t)d->nrooms + 1, sizeof *found);
  int *numbered = calloc((size_t)d->nrooms + 2, sizeof *numbered),
      *noted = calloc((size_t)d->nrooms + 2, sizeof *noted);
  assert_true(found && numbered && noted);
  int k = findable(d, found), drawn = 0;
  for (int i = 0; i < doc->npages; i++) {
    const cb_page *p = doc->pages[i];
    for (int j = 0; j < p->nitems; j++) {
      const cb_item *it = &p->items[j];
      check_player_item(p, it, d, found, numbered, noted, l, what);
      drawn += it->role.kind == CB_ROLE_ROOM && it->kind == CB_ITEM_PATH && it->ink.fill;
    }
  }
  if (drawn < k) leak(l, &l->missing_room, "%s: %d rooms drawn of %d the party can find", what, drawn, k);
  check_numbering(d, numbered, noted, k, l, what);
  l->checked_pages += doc->npages;
  free(found);
  free(numbered);
  free(noted);
}

/* The sheet of d (the players' one when `players`), as crawlbook prints it. */
static void lay_out_sheet(const cb_dungeon *d, const cb_dungeon *shown, bool players, cb_document *doc) {
  cb_template t;
  cb_template_default(&t);
  cb_sheet_options so = {.page_w = A4_W,
                         .page_h = A4_H,
                         .margin = t.margin_mm * CB_PT_PER_MM,
                         .version = "9.9.9",
                         .player = players};
  cb_proc_sheet(d, &so);
  cb_error err = {0};
  if (cb_sheet_layout(shown, &fake_measure, &so, doc, &err) != CB_OK) fail_msg("%s", err.msg);
}

static leaks sweep_players(const char *gen, int seeds, bool game_masters) {
  leaks l = {0};
  for (int seed = 1; seed <= seeds; seed++) {
    cb_dungeon *d = stocked(gen, seed);
    cb_dungeon *v = game_masters ? NULL : cb_player_view(d);
    assert_true(game_masters || v);
    cb_document doc = {0};
    lay_out_sheet(d, v ? v : d, !game_masters, &doc);
    char what[64];
    snprintf(what, sizeof what, "%s seed %d", gen, seed);
    check_players_doc(&doc, d, &l, what);
    cb_document_free(&doc);
    cb_dungeon_free(v);
    cb_dungeon_free(d);
  }
  printf("%-12s %d seeds%s: %d hidden rooms drawn, %d rooms missing, %d secret ways, %d numbering faults, "
         "%d rooms without notes, %d telling texts%s%s\n",
         gen, seeds, game_masters ? " (the game master's sheet)" : "", l.hidden_room, l.missing_room,
         l.secret_way, l.numbering, l.notes, l.secret_text, l.first[0] ? "; first: " : "", l.first);
  return l;
}

static int leak_count(const leaks *l) {
  return l->hidden_room + l->missing_room + l->secret_way + l->numbering + l->notes + l->secret_text;
}

static void players_map_keeps_every_secret(void **state) {
  const char *gen = *state;
  const char *env = getenv("CB_PLAYER_SEEDS");
  int seeds = env ? atoi(env) : 1000;
  leaks l = sweep_players(gen, seeds, false);
  if (leak_count(&l)) fail_msg("%s: %s", gen, l.first);
  /* the sweep sees secrets where they are: the game master's sheets of the same seeds show some */
  leaks gm = sweep_players(gen, seeds < 50 ? seeds : 50, true);
  assert_true(leak_count(&gm) > 0);
}

/* ---- nothing crosses the map frame (booklet.md, leximorph) ---- */

/* Is item i a stroked rectangle (cb_page_rect) at least 100 pt wide? */
static bool frame_rect(const cb_page *p, const cb_item *it) {
  if (it->kind != CB_ITEM_PATH || it->nops != 5 || !it->ink.stroke || it->ink.fill) return false;
  const cb_op *o = &p->ops[it->op0];
  if (o[0].kind != CB_OP_MOVE || o[4].kind != CB_OP_CLOSE) return false;
  box b = path_box(p, it);
  return b.x1 - b.x0 > 100 && b.y1 - b.y0 > 100;
}

/* What an item covers on the page, its stroke's half width outside a path's points. */
static box item_box(const cb_page *p, const cb_item *it) {
  if (it->kind == CB_ITEM_TEXT) return text_box(it);
  box b = path_box(p, it);
  double h = it->ink.stroke ? it->ink.width / 2 : 0;
  return (box){b.x0 - h, b.y0 - h, b.x1 + h, b.y1 + h, b.id, false, 0};
}

/* The map's frame on the sheet's first page is the largest rectangle drawn
 * before its first room or number; everything drawn after it and before the
 * legend is the map, and must lie inside the frame. Returns how many items cross. */
static int frame_crossings(const cb_page *p, const char *what, char *first, size_t cap) {
  int frame = -1, room = -1, n = 0;
  double area = 0;
  for (int i = 0; i < p->nitems && room < 0; i++) {
    box b = path_box(p, &p->items[i]);
    if (p->items[i].role.kind != CB_ROLE_NONE)
      room = i;
    else if (frame_rect(p, &p->items[i]) && (b.x1 - b.x0) * (b.y1 - b.y0) > area)
      frame = i, area = (b.x1 - b.x0) * (b.y1 - b.y0);
  }
  if (frame < 0 || room < 0) fail_msg("%s: no map frame found before the rooms", what);
  box f = path_box(p, &p->items[frame]);
  for (int i = frame + 1; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind == CB_ITEM_TEXT && strcmp(it->text, "Legend") == 0) break;
    box b = item_box(p, it);
    if (!isfinite(b.x0) ||
        (b.x0 >= f.x0 - 0.1 && b.x1 <= f.x1 + 0.1 && b.y0 >= f.y0 - 0.1 && b.y1 <= f.y1 + 0.1))
      continue;
    if (!n++ && !first[0])
      snprintf(first, cap,
               "%s: item %d ('%.12s', role %d of %d) spans %.1f..%.1f x %.1f..%.1f, frame %.1f..%.1f x "
               "%.1f..%.1f",
               what, i, it->kind == CB_ITEM_TEXT ? it->text : "path", (int)it->role.kind, it->role.a, b.x0,
               b.x1, b.y0, b.y1, f.x0, f.x1, f.y0, f.y1);
  }
  return n;
}

/* A sector's caption on leximorph's map: its letter (bold, 9 pt and up, one
 * character), "sector c,r" or its rolls "d10 ..." (italic). */
static bool caption_text(const cb_item *it) {
  if (it->kind != CB_ITEM_TEXT || it->role.kind != CB_ROLE_NONE) return false;
  if (it->font == CB_FONT_BOLD) return it->size >= 9 && strlen(it->text) == 1 && it->text[0] != 'E';
  return it->font == CB_FONT_ITALIC && (!strncmp(it->text, "sector ", 7) || !strncmp(it->text, "d10 ", 4));
}

/* Does a tunnel (a stroke 4.5 pt wide or more, drawn as lines) pass over box b? */
static bool tunnel_over(const cb_page *p, const cb_item *it, box b) {
  if (it->kind != CB_ITEM_PATH || !it->ink.stroke || it->ink.width < 4.5 || it->role.kind != CB_ROLE_NONE)
    return false;
  double h = it->ink.width / 2;
  box grown = {b.x0 - h, b.y0 - h, b.x1 + h, b.y1 + h, 0, false, 0};
  for (int k = it->op0 + 1; k < it->op0 + it->nops; k++) {
    const cb_op *o = &p->ops[k], *prev = &p->ops[k - 1];
    if (o->kind != CB_OP_LINE || prev->kind == CB_OP_CLOSE) continue;
    double ax = prev->x[prev->kind == CB_OP_CURVE ? 2 : 0], ay = prev->y[prev->kind == CB_OP_CURVE ? 2 : 0];
    if (segment_enters(ax, ay, o->x[0], o->y[0], grown, 0)) return true;
  }
  return false;
}

/* How many of the page's captions a tunnel passes over (the first named in first). */
static int captions_under_tunnels(const cb_page *p, const char *what, char *first, size_t cap) {
  int n = 0;
  for (int i = 0; i < p->nitems; i++) {
    if (!caption_text(&p->items[i])) continue;
    box b = text_box(&p->items[i]);
    for (int j = 0; j < p->nitems; j++)
      if (tunnel_over(p, &p->items[j], b)) {
        if (!n++ && !first[0])
          snprintf(first, cap, "%s: a tunnel %.1f pt wide passes over '%s'", what, p->items[j].ink.width,
                   p->items[i].text);
        if (getenv("CB_MAP_VERBOSE"))
          printf("%s: a tunnel %.1f pt wide (%d ops) passes over '%s' at %.1f,%.1f\n", what,
                 p->items[j].ink.width, p->items[j].nops, p->items[i].text, p->items[i].x, p->items[i].y);
        break;
      }
  }
  return n;
}

/* Leximorph's sheet of `seed` with a sketch of sectors x sectors (0: the default 2 x 2). */
static cb_dungeon *leximorph_of(int seed, int sectors) {
  if (!sectors) return stocked("leximorph", seed);
  cb_leximorph_options own = {.sector_cols = sectors, .sector_rows = sectors};
  cb_gen_options o = {.seed = (uint64_t)seed, .own = &own};
  cb_stock_options sto = {0};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(cb_generator_find("leximorph"), &o, &d, &err) != CB_OK)
    fail_msg("seed %d: %s", seed, err.msg);
  if (cb_stock_run(d, &sto, &err) != CB_OK) fail_msg("seed %d: %s", seed, err.msg);
  return d;
}

/* Nothing on leximorph's sheet map (label, stub, stair, mark) crosses the
 * map frame (164 of 200 sheets did), nor on bigger sketches (ten at 3 x 3
 * sectors, two at 5 x 5: the frame is fitted without the captions, then
 * checked with them), nor on seed 360 (its room 2's badges crossed the
 * frame until the placer took the paper beyond it as taken), and the
 * sectors' captions lie clear of tunnels (103 of 200 sheets had a tunnel
 * over one); and no room shows one key's padlock twice. */
/* How many of leximorph's rooms show one key's padlock twice side by side (a badge for each way it
 * locks out of the room's one door: seed 23's room 1 did), the first into first. Padlocks of one key
 * on two stretches of tunnel out of one room say that both ways are locked (issue 22): the two
 * key ids count when on one line less than 28 pt apart (a row's are one padlock apart, some 26 pt; a room's
 * width between: 31 pt and more). */
static int padlocks_twice(const cb_page *p, const char *what, char *first, size_t cap) {
  int n = 0;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *a = &p->items[i];
    if (a->kind != CB_ITEM_TEXT || a->role.kind != CB_ROLE_PASSAGE_MARK) continue;
    for (int j = i + 1; j < p->nitems; j++) {
      const cb_item *b = &p->items[j];
      if (b->kind != CB_ITEM_TEXT || b->role.kind != CB_ROLE_PASSAGE_MARK || b->role.a != a->role.a ||
          strcmp(a->text, b->text) != 0 || fabs(a->y - b->y) > 0.5 || fabs(a->x - b->x) > 28)
        continue;
      if (!n++ && !first[0])
        snprintf(first, cap, "%s: room %d shows the %s padlock twice", what, a->role.a, a->text);
      break;
    }
  }
  return n;
}

static void nothing_crosses_the_frame(void **state) {
  (void)state;
  const char *env = getenv("CB_MAP_SEEDS");
  int seeds = env ? atoi(env) : 200, crossing = 0, sheets = 0, covered = 0, twice = 0;
  char first[256] = "", cfirst[256] = "", tfirst[256] = "";
  for (int k = 0; k < seeds + 14; k++) {
    int seed = k < seeds ? k + 1 : k - seeds + 1, sectors = k < seeds ? 0 : k < seeds + 10 ? 3 : 5;
    if (k == seeds + 12)
      seed = 360, sectors = 0; /* a room's badges crossed its frame before the placer knew it */
    if (k == seeds + 13) seed = 333, sectors = 0; /* its 'g' lay under a tunnel (below) */
    cb_dungeon *d = leximorph_of(seed, sectors);
    cb_document doc = {0};
    lay_out_sheet(d, d, false, &doc);
    char what[64];
    snprintf(what, sizeof what, "leximorph seed %d (%d x %d sectors)", seed, sectors ? sectors : 2,
             sectors ? sectors : 2);
    crossing += frame_crossings(doc.pages[0], what, first, sizeof first) > 0;
    if (!sectors) covered += captions_under_tunnels(doc.pages[0], what, cfirst, sizeof cfirst) > 0;
    twice += padlocks_twice(doc.pages[0], what, tfirst, sizeof tfirst);
    sheets++;
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  printf("leximorph    %d sheets: %d with something across the map frame%s%s\n", sheets, crossing,
         first[0] ? "; first: " : "", first);
  printf("leximorph    %d sheets: %d with a caption under a tunnel%s%s\n", seeds + 2, covered,
         cfirst[0] ? "; first: " : "", cfirst);
  printf("leximorph    %d sheets: %d rooms showing a padlock twice%s%s\n", sheets, twice,
         tfirst[0] ? "; first: " : "", tfirst);
  if (crossing) fail_msg("%s", first);
  if (twice) fail_msg("%s", tfirst);
  /* on the smallest sketches (tunnels at their least, 4.5 pt) some sectors have no spot clear even
   * for the letter alone (4 of 200 sheets, seed 52 first; 103 before the captions kept clear of the
   * passages beyond doors and let the rolls go; 1 of 400, seed 333, since the marks keep inside the
   * frame: 5 of 400 before); 0 since such a letter goes down to the least size we print (issue 22:
   * seed 333's 'g', checked beyond the seeds swept) */
  if (covered) fail_msg("%s", cfirst);
}

#define MARKS(gen)                                                                                           \
  { "marks_" gen, nothing_draws_through_anything, NULL, NULL, gen }
#define PLAYERS(gen)                                                                                         \
  { "players_" gen, players_map_keeps_every_secret, NULL, NULL, gen }

int main(void) {
  /* in an order that deals them out evenly to ctest's four parts (every fourth from the first
   * makes one: tests/CMakeLists.txt); CB_TEST_ONLY=PATTERN runs those it names ("*_leximorph") */
  struct CMUnitTest tests[] = {
      MARKS("leximorph"),
      PLAYERS("battleships"),
      {"frame_leximorph", nothing_crosses_the_frame, NULL, NULL, NULL},
      PLAYERS("preconnect"),
      PLAYERS("dropdice"),
      MARKS("preconnect"),
      MARKS("battleships"),
      PLAYERS("leximorph"),
      {"crowded_dropdice", dropdice_small_and_crowded, NULL, NULL, NULL},
      PLAYERS("cards"),
      {"abreast_preconnect", corridors_keep_apart, NULL, NULL, NULL},
      MARKS("cards"),
      MARKS("dropdice"),
      {"legible_cards", cards_marks_are_legible, NULL, NULL, NULL},
      {"printed_battleships", battleships_as_printed, NULL, NULL, NULL},
  };
  return cb_test_run("test_map_clear", tests, sizeof tests / sizeof *tests, NULL, NULL);
}
