/* The page model: what the layout hands to a backend. Positioned paths and
 * single lines of text in points (1/72 in), y growing downwards, nothing of
 * dungeons. A cb_page owns an arena that holds its items and strings. */
#ifndef CB_PAGE_H
#define CB_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/error.h"
#include "base/units.h"

typedef struct cb_rgb {
  double r, g, b;
} cb_rgb;

typedef enum { CB_FONT_REGULAR, CB_FONT_ITALIC, CB_FONT_BOLD, CB_FONT_BOLD_ITALIC } cb_font;
enum { CB_FONT_COUNT = 4 };

/* How a backend measures text, so that the layout can wrap it: the advance
 * width in points of utf8 set in `font` at `size` points. */
typedef struct cb_measure {
  void *ctx;
  double (*width)(void *ctx, cb_font font, double size, const char *utf8);
} cb_measure;

typedef enum { CB_OP_MOVE, CB_OP_LINE, CB_OP_CURVE, CB_OP_CLOSE } cb_op_kind;
typedef struct cb_op {
  cb_op_kind kind;
  double x[3], y[3]; /* MOVE/LINE use [0]; CURVE uses control, control, end */
} cb_op;

typedef enum { CB_CAP_BUTT, CB_CAP_ROUND } cb_cap;

typedef struct cb_ink {
  bool fill, stroke;
  cb_rgb fill_color, stroke_color;
  double width; /* stroke width */
  double dash[4];
  int ndash;
  cb_cap cap;
} cb_ink;

typedef enum { CB_ITEM_PATH, CB_ITEM_TEXT } cb_item_kind;

/* What an item stands for, for the layout's own checks (nothing is drawn
 * differently): a room's shape, a passage's line, a room's number, a mark
 * beside a room or on a passage. a and b are the layout's numbers (a room's
 * number; a passage's two rooms). Backends ignore it. */
typedef enum {
  CB_ROLE_NONE,
  CB_ROLE_ROOM,
  CB_ROLE_PASSAGE,
  CB_ROLE_NUMBER,
  CB_ROLE_ROOM_MARK,
  CB_ROLE_PASSAGE_MARK
} cb_role;
typedef struct cb_item_role {
  cb_role kind;
  int a, b;
} cb_item_role;
typedef struct cb_item {
  cb_item_kind kind;
  /* path */
  int op0, nops;
  cb_ink ink;
  /* text: one line, x at its left end, y on its baseline */
  cb_font font;
  double size, x, y;
  cb_rgb color;
  const char *text;
  bool upside_down; /* turned half a turn about (x, y): the top row of a folded zine */
  cb_item_role role;
} cb_item;

typedef struct cb_page {
  cb_arena *arena;
  double w, h; /* points */
  cb_item *items;
  cb_op *ops;
  int nitems, nops;
  size_t cap_items, cap_ops;
  const char *label; /* outline entry, or NULL */
  bool oom;
  /* How often a drawing on the page went below the size it reads at (a
   * map's own judgement, e.g. a room number's ring wider than its card):
   * the sheet does not shrink a map to where this grows. */
  int cramped;
  cb_item_role role; /* given to every item added, until changed */
  /* What a backend did for the page ahead of drawing it, on the thread that
   * laid it out (cb_backend_prepare): the backend's own, freed with the page. */
  const void *prepared_by;
  void *prepared;
  void (*free_prepared)(void *prepared);
} cb_page;

typedef struct cb_document {
  const char *title, *author, *subject, *creator;
  long long date; /* seconds since 1970, for the metadata */
  cb_page **pages;
  int npages;
  size_t cap_pages;
  bool spilled;  /* the layout could not keep a one-page sheet on one page */
  int key_pages; /* then: the pages its map and key take */
} cb_document;

/* A new empty page w x h points; NULL on OOM. Free with cb_page_free. */
cb_page *cb_page_new(double w, double h);
void cb_page_free(cb_page *p);

/* Path building: begin, add ops, end with an ink. Out of memory sets p->oom. */
void cb_page_move(cb_page *p, double x, double y);
void cb_page_line(cb_page *p, double x, double y);
void cb_page_curve(cb_page *p, double x1, double y1, double x2, double y2, double x3, double y3);
void cb_page_close(cb_page *p);
/* Ends the path started since the last cb_page_ink (or the page's start). */
void cb_page_ink(cb_page *p, const cb_ink *ink);
/* Shapes built from the above. */
void cb_page_circle(cb_page *p, double cx, double cy, double r);
void cb_page_rect(cb_page *p, double x, double y, double w, double h);
void cb_page_rounded_rect(cb_page *p, double x, double y, double w, double h, double r);
/* A line of text with its left end at x and its baseline at y. */
void cb_page_text(cb_page *p, cb_font font, double size, double x, double y, cb_rgb color, const char *utf8);

/* The role of the items added from now on (CB_ROLE_NONE to stop). */
static inline void cb_page_role(cb_page *p, cb_role kind, int a, int b) {
  p->role = (cb_item_role){kind, a, b};
}

/* Inks. */
cb_ink cb_ink_stroke(cb_rgb color, double width);
cb_ink cb_ink_fill(cb_rgb color);

/* Draws src into dst, scaled by `scale` with its top left corner at (x, y),
 * turned half a turn inside its box when upside_down (imposition). */
void cb_page_place(cb_page *dst, const cb_page *src, double x, double y, double scale, bool upside_down);

/* A document owns its pages: cb_document_free frees them. */
int cb_document_add(cb_document *doc, cb_page *page);
void cb_document_free(cb_document *doc);

#endif
