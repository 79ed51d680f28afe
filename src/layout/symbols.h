/* One symbol set for the map and its legend: the marks for room tags and the
 * ways passages are drawn, as vector paths and short labels. */
#ifndef CB_SYMBOLS_H
#define CB_SYMBOLS_H

#include "page/page.h"

typedef enum {
  /* marks beside a room */
  CB_SYM_MAIN_START,
  CB_SYM_START,
  CB_SYM_ENTRANCE,
  CB_SYM_GOAL,
  CB_SYM_BOSS,
  CB_SYM_ENCOUNTER,
  CB_SYM_TREASURE,
  CB_SYM_KEY,
  CB_SYM_SURFACE_EXIT,
  CB_SYM_STAIRS_AWAY, /* stairs to another level; text says where */
  CB_SYM_UNREACHABLE,
  /* ways a passage is drawn */
  CB_SYM_PATH,
  CB_SYM_DOOR,
  CB_SYM_OPEN,
  CB_SYM_SECRET,
  CB_SYM_LOCKED,
  CB_SYM_SOFT_LOCKED,
  CB_SYM_TRAPPED,
  CB_SYM_OBSTRUCTED,
  CB_SYM_ONE_WAY,
  CB_SYM_CONCEALED,
  CB_SYM_STAIRS,
  CB_SYM_LADDER,
  CB_SYM_UNDER,
  CB_SYM_OVER,
  CB_SYM_DEAD_END,
  CB_SYM_PORTAL,
  /* the shared symbols end here: a procedure numbers marks of its own from
   * CB_SYM_COUNT on (in its folder; a cb_symbol_set holds 64), and names and
   * draws them itself */
  CB_SYM_COUNT
} cb_symbol;

#define CB_SYMBOL_MIN_TEXT 7.0   /* points: the smallest text on any page */
#define CB_SYMBOL_MIN_NUMBER 8.0 /* and the smallest room number */

typedef struct cb_symbols {
  const cb_measure *m;
  double badge; /* a tag mark's height, points */
  double line;  /* a passage's line width */
  double label; /* label text size */
  cb_rgb ink, paper;
  /* The colour style: a colour per symbol (CB_SYM_COUNT of them) and the
   * rooms' fill; NULL for black ink on white. */
  const cb_rgb *accent;
  cb_rgb room;
  /* The levels a map hook laid out before (layout/graph.h), kept by the
   * run for this thread's sheets; NULL: none kept. */
  struct cb_graph_cache *graphs;
  /* The map's clash counts a sheet's fitting found so far (layout/sheet.c),
   * or NULL. */
  struct cb_sheet_memo *clashes;
} cb_symbols;

/* The colour a symbol is drawn in, and a room's fill, under st's style. */
cb_rgb cb_symbol_color(const cb_symbols *st, cb_symbol s);
cb_rgb cb_symbol_room_fill(const cb_symbols *st);
/* The plain style, shared by the sheets and the cover: black ink on white
 * paper, and the grey of running heads, footers, subtitles and rules. */
#define CB_INK_BLACK                                                                                         \
  { 0, 0, 0 }
#define CB_PAPER_WHITE                                                                                       \
  { 1, 1, 1 }
#define CB_QUIET_GREY                                                                                        \
  { 0.45, 0.45, 0.45 }

/* The colour style's palette: chosen to stay apart in grey too. */
extern const cb_rgb cb_palette_colour[];
extern const cb_rgb cb_palette_room;

/* What the legend calls each symbol. */
const char *cb_symbol_name(cb_symbol s);
/* True for the marks drawn beside rooms (badges), false for passage styles. */
int cb_symbol_is_badge(cb_symbol s);
/* A set of used symbols: CB_SYM_COUNT bits. */
typedef unsigned long long cb_symbol_set;
#define CB_SYMBOL_BIT(s) (1ull << (s))

/* Width of the tag mark for s with its text (e.g. "K1"). */
double cb_symbol_badge_width(const cb_symbols *st, cb_symbol s, const char *text);
/* Draws the tag mark for s centred at (cx, cy); text is the key id for
 * CB_SYM_KEY, the level for CB_SYM_STAIRS_AWAY ("L2", or "L2 K1" for
 * stairs locked with K1: a padlock before the key id), NULL otherwise.
 * CB_SYM_LOCKED draws as a badge too: a padlock and its key id (text), for a
 * locked way marked beside its room. */
void cb_symbol_badge(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double cx, double cy);
/* Draws a passage from (x1, y1) to (x2, y2) the way `s` says. */
void cb_symbol_passage(cb_page *p, const cb_symbols *st, cb_symbol s, double x1, double y1, double x2,
                       double y2);
/* The same with the mark at fraction `where` (0..1) of the way from (x1, y1): a
 * crowded map moves a door's mark clear of a neighbour's. Outside 0..1 the
 * line alone, for a mark drawn beside it (cb_symbol_mark); a door's or a
 * secret door's line, which no mark interrupts. */
void cb_symbol_passage_at(cb_page *p, const cb_symbols *st, cb_symbol s, double x1, double y1, double x2,
                          double y2, double where);
/* A passage of several kinds at once (secret and locked, locked and
 * trapped): the line dotted when one is secret, the first kind's mark on
 * the middle and the others' at CB_PASSAGE_KIND_AT of the way, so that the
 * map says all the key says. One kind draws as cb_symbol_passage. */
enum { CB_PASSAGE_KINDS = 5 };
extern const double CB_PASSAGE_KIND_AT[CB_PASSAGE_KINDS];
void cb_symbol_passage_kinds(cb_page *p, const cb_symbols *st, const cb_symbol *s, int n, double x1,
                             double y1, double x2, double y2);
/* How far either way along a passage len long the mark of `s` (one of n kinds) reaches from its
 * place where it draws over the line (a trap's zigzag, stairs' rungs); 0 for a mark drawn on it. */
double cb_symbol_passage_stretch(const cb_symbols *st, cb_symbol s, int n, double len);
/* The box a passage mark drawn on its line inks round its place, ink[0..3] = x0, y0, x1, y1 from it
 * (y down): its size (cb_symbol_passage_mark) and its stroke, and a padlock's shackle above its body. */
void cb_symbol_passage_mark_ink(const cb_symbols *st, cb_symbol s, double *ink);
/* The size of the mark a passage style puts on its middle (0 x 0 for a plain line). */
void cb_symbol_passage_mark(const cb_symbols *st, cb_symbol s, double *w, double *h);
/* A short label (a key id, a length) on a white ground, centred at (cx, cy),
 * and its size. */
void cb_symbol_label(cb_page *p, const cb_symbols *st, const char *text, double cx, double cy);
void cb_symbol_label_size(const cb_symbols *st, const char *text, double *w, double *h);

/* A tunnel as a graph-paper sketch draws it: two walls tw apart along the
 * polyline xy[0..2n). Draw every tunnel with pass 0 (the walls), then every
 * tunnel with pass 1 (the floor), so that crossings open into each other.
 * An open end (open_end) is left without a wall: the passage goes on. */
void cb_symbol_tunnel(cb_page *p, const cb_symbols *st, const double *xy, int n, double tw, int pass,
                      int open_end);

/* Strokes the current path with color, width points wide, ends as cap. */
void cb_symbol_stroke(cb_page *p, cb_rgb color, double width, cb_cap cap);

/* Draws the mark of `s` alone, centred at (x, y) on a passage `width`
 * points wide that runs along the unit vector (ux, uy): a door leaf across
 * it (CB_SYM_DOOR), a lettered disc (SECRET, CONCEALED), steps widening
 * along it (STAIRS), rails and rungs (LADDER), a bar (DEAD_END, SOFT_LOCKED),
 * a padlock (LOCKED), a cross (OBSTRUCTED), a zigzag (TRAPPED). Symbols
 * without a mark of their own draw nothing. For maps that draw passages as
 * corridors and put the marks on them. */
void cb_symbol_mark(cb_page *p, const cb_symbols *st, cb_symbol s, double x, double y, double ux, double uy,
                    double width);

/* The box (x0, y0, x1, y1) cb_symbol_mark's mark of s at (x, y) inks, on a
 * passage `width` points wide running along (ux, uy): what another mark keeps
 * clear of. 0 x 0 at (x, y) for symbols without a mark of their own. */
void cb_symbol_mark_box(const cb_symbols *st, cb_symbol s, double x, double y, double ux, double uy,
                        double width, double box[4]);

/* A north arrow centred at (cx, cy) pointing along the unit vector (ux, uy),
 * with an "N" at its tip; for maps that may be drawn turned. */
void cb_symbol_north(cb_page *p, const cb_symbols *st, double cx, double cy, double ux, double uy);

#endif
