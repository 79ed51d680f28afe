/* Page templates (templates/NAME.cfg), read with libconfig (which reports the
 * line of every syntax error, and of every setting, so each complaint names
 * file:line). A template sets the layout, the page, the style and which
 * sections a booklet holds; command-line options override it. */
#ifndef CB_TEMPLATE_H
#define CB_TEMPLATE_H

#include <stdbool.h>

#include "base/error.h"

typedef enum { CB_LAYOUT_SHEET, CB_LAYOUT_BOOKLET, CB_LAYOUT_ZINE8 } cb_layout_kind;

/* Booklet sections, in the order they print. */
enum {
  CB_SECTION_COVER = 1u << 0,
  CB_SECTION_MAPS = 1u << 1,
  CB_SECTION_KEY = 1u << 2,
  CB_SECTION_EXTRAS = 1u << 3, /* the generator's own pages: a tunnel sketch, grids */
  CB_SECTION_APPENDIX = 1u << 4,
  CB_SECTION_PLAYER_MAP = 1u << 5,
};

enum { CB_TEMPLATE_MAX_TABLES = 16 };

typedef struct cb_template {
  char name[64];
  cb_layout_kind layout;
  double page_w, page_h; /* points, portrait as given; 0 when the template leaves it */
  bool landscape;
  double margin_mm;
  char margin_at[320]; /* "file:line: " of the template's margin_mm, "" when it has none */
  bool colour;
  unsigned sections; /* booklet only */
  int pad_to;        /* booklet: pad the page count to a multiple of this (1: no padding) */
  /* Content tables by name (templates/NAME.txt) or path, each under the key
   * a procedure's table option answers to (its option specs' `table`). */
  struct {
    char key[32], value[256];
  } tables[CB_TEMPLATE_MAX_TABLES];
  int ntables;
} cb_template;

/* The margin (mm) when no template gives one, the one default: booklet.md asks
 * at least 10 mm, and the sheet needs all the room it can get. */
enum { CB_MARGIN_MM = 10 };

/* The space inside the margins must be at least this each way (a 90 mm page
 * with 15 mm margins): less gives hundreds of pages of overlapping text. */
enum { CB_MIN_ROOM_MM = 60 };
/* CB_EINPUT, naming the margin's file:line, when the margins of t leave less
 * than that on a page of page_w x page_h points. */
cb_status cb_template_check_room(const cb_template *t, double page_w, double page_h, cb_error *err);

/* The built-in defaults: the one-page sheet on A4, ink. */
void cb_template_default(cb_template *t);

/* Loads a template by name (templates/NAME.cfg) or path (with a '/' or
 * ending in .cfg); its tables group may use the keys of table_keys
 * (NULL-terminated). CB_EINPUT with "file:line: ..." for any error. */
cb_status cb_template_load(const char *name, const char *const *table_keys, cb_template *t, cb_error *err);

#endif
