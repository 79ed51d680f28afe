/* The point-crawl map: rooms as numbered circles at their positions, passages
 * as lines marked by kind, tag marks beside each room. */
#ifndef CB_MAP_H
#define CB_MAP_H

#include "model/dungeon.h"
#include "symbols.h"

/* Draws the map of level `level` (0: all) inside the box x, y, w, h (points)
 * and sets bit (1 << symbol) in *used for every symbol it drew. */
void cb_map_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                 double w, double h, cb_symbol_set *used);

/* The height (points) the map of level `level` takes drawn w points wide, at
 * its own shape; 0 when it has none (it fills any box). */
double cb_map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w);
/* The margin (points) cb_map_draw keeps between its box and the outermost
 * rooms' centres: room for a room and its marks beyond them. */
double cb_map_pad(const cb_symbols *st);
/* The height (points) of the map of level `level` drawn at `scale` points
 * per foot, `pad` points round the rooms' centres. */
double cb_map_height_at(const cb_dungeon *d, int level, double scale, double pad);
/* The scale (points per foot) that draws level `level` in a box w x h, `pad`
 * points round the rooms' centres (cb_map_draw keeps cb_map_pad). */
double cb_map_fit_scale(const cb_dungeon *d, int level, double w, double h, double pad);
/* How cb_map_draw_scaled draws a level in a panel of its own. */
typedef struct cb_map_panel {
  double max_scale; /* points per foot at most: the scale the levels' panels share (booklet.md) */
  double pad;       /* points kept between the box and the outermost rooms' centres */
  /* the cost of a room's marks over another room or another room's marks: more than a spot led to
   * from the room (a crowded panel's marks then point from afar rather than hide what they cover);
   * 0: what any map pays */
  double cover;
  /* how far beyond the box's left and right edges the rooms of the panels beside it lie at least (0:
   * no panel there): a badge by the edge must not sit nearer one of those than its own room */
  double beside[2];
} cb_map_panel;
/* cb_map_draw as the panel says. */
void cb_map_draw_scaled(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                        double w, double h, const cb_map_panel *panel, cb_symbol_set *used);

/* The symbol a passage is drawn with (the strongest of its flags). */
cb_symbol cb_map_passage_symbol(const cb_passage *ps);
/* All the symbols a passage's kinds take (CB_PASSAGE_KINDS at most), the
 * one cb_map_passage_symbol gives first; returns their count (>= 1). */
int cb_map_passage_symbols(const cb_passage *ps, cb_symbol *out);

/* A mark beside a room: a tag, a key (text "K1") or stairs (text "L2"). */
typedef struct cb_map_mark {
  cb_symbol sym;
  const char *text;
} cb_map_mark;
enum { CB_MAP_MAX_MARKS = 12 };
/* The goal's badge text where the boss holds the goal room (one badge, the legend's G and B). */
#define CB_MAP_GOAL_AND_BOSS "G B"

/* The marks of room r: its tags, its keys, and stairs to other levels
 * (labelled "L2" with the level they reach; locked ones "L2 K1" at the end
 * they leave from, drawn
 * with a padlock before the key id), at most CB_MAP_MAX_MARKS, in
 * out; returns how many. Texts live in the page arena.
 * Without a page (p NULL) the stairs marks, whose labels live in the page, are
 * left out. */
int cb_map_room_marks(cb_page *p, const cb_dungeon *d, const cb_room *r, cb_map_mark *out);
/* The symbols mark m shows, for the legend: its own, and the padlock of locked stairs. */
cb_symbol_set cb_map_mark_symbols(const cb_map_mark *m);

#endif
