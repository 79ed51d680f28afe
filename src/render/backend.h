/* Backends draw the page model and know nothing of dungeons. A backend is a
 * `static const` table of functions (cb_backend_class); an instance embeds
 * cb_backend as its first member. Errors are sticky: the first one wins and
 * later calls do nothing. */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/sink.h"
#include "page/page.h"

typedef enum { CB_FORMAT_PDF, CB_FORMAT_SVG, CB_FORMAT_PNG, CB_FORMAT_JSON, CB_FORMAT_DOT } cb_format;

typedef struct cb_render_options {
  cb_format format;
  double dpi;            /* PNG only */
  const char *fonts_dir; /* the fonts we ship */
  bool own_fonts;        /* fonts of its own, not the run's shared ones: for a backend another thread uses */
  bool layout_only;      /* cairo: every text through pango's layout, none by the quicker plain path
                          * (tests hold the two paths to the same bytes) */
  struct cb_cairo_fonts *fonts; /* cairo: the run's fonts, borrowed unless own_fonts; NULL: its own */
} cb_render_options;

typedef struct cb_backend cb_backend;

typedef struct cb_backend_class {
  const char *name;
  /* Formats it writes, as a bit per cb_format. */
  unsigned formats;
  cb_status (*create)(const cb_render_options *o, cb_backend **out, cb_error *err);
  void (*destroy)(cb_backend *b);
  /* Text measurement matching what the backend draws; owned by b. */
  const cb_measure *(*measure)(cb_backend *b);
  /* Optional (NULL): what measuring with b has left in its document since
   * the marks were last taken (libharu embeds every glyph it measures, not
   * only those drawn), malloc-owned, or NULL; and those marks left in b's
   * document, so that pages laid out with one backend and drawn by another
   * of the class make the same bytes. */
  void *(*take_marks)(cb_backend *b);
  void (*add_marks)(cb_backend *b, const void *marks);
  /* Optional (NULL): what drawing p will need that can be done ahead, on
   * the thread that laid p out, hung on p for a backend of the class to
   * draw it with (the cairo backend shapes its lines); nothing when out of
   * memory (the drawing then does it itself). */
  void (*prepare)(cb_backend *b, cb_page *p);
  void (*begin_document)(cb_backend *b, const cb_document *doc, cb_sink sink);
  void (*begin_page)(cb_backend *b, const cb_page *p, int index);
  void (*path)(cb_backend *b, const cb_page *p, const cb_item *item);
  void (*text)(cb_backend *b, const cb_item *item);
  void (*end_page)(cb_backend *b);
  /* Optional (NULL): a bookmark to page `index` (0-based). */
  void (*outline)(cb_backend *b, const char *title, int index);
  void (*end_document)(cb_backend *b);
} cb_backend_class;

struct cb_backend {
  const cb_backend_class *cls;
  cb_error err;              /* sticky: the first error */
  int npages;                /* pages drawn so far in this document */
  struct cb_coverage *cover; /* what the fonts can draw (set by cb_backend_create) */
};

/* The class's take_marks and add_marks, or NULL and nothing when it has
 * none: a batch's worker takes them after laying out a dungeon, and the
 * backend that draws the dungeon's pages adds them. Free them with free(). */
void *cb_backend_take_marks(cb_backend *b);
/* The class's prepare, or nothing when it has none: a batch's worker
 * prepares the pages it laid out, so that the thread that draws them has
 * less to do; the bytes drawn are the same either way. */
void cb_backend_prepare(cb_backend *b, cb_page *p);
void cb_backend_add_marks(cb_backend *b, const void *marks);

/* The backends' names for a message: "'cairo' or 'haru'", into buf. */
const char *cb_backend_names(char *buf, size_t cap);
/* The backend called name ("cairo"), or NULL. */
const cb_backend_class *cb_backend_find(const char *name);

/* Creates a backend of class cls; free it with cb_backend_destroy. */
cb_status cb_backend_create(const cb_backend_class *cls, const cb_render_options *o, cb_backend **out,
                            cb_error *err);
void cb_backend_destroy(cb_backend *b);

/* Draws every page of doc into sink; the backend's first error, if any.
 * Pages with a label get a bookmark. */
cb_status cb_backend_render(cb_backend *b, const cb_document *doc, cb_sink sink, cb_error *err);

/* The same one page at a time, so that a long document never sits in memory
 * (PDF only: SVG and PNG must know every page up front). `info` gives the
 * metadata; its pages are not drawn. A page may be freed once drawn. */
void cb_backend_begin(cb_backend *b, const cb_document *info, cb_sink sink);
void cb_backend_page(cb_backend *b, const cb_page *p);
/* A bookmark to page `index` (0-based, drawn or still to come). */
void cb_backend_outline(cb_backend *b, const char *title, int index);
cb_status cb_backend_end(cb_backend *b, cb_error *err);

/* A run's cairo fonts, kept from one document to the next (a batch of files
 * would otherwise build a font map per document, and fontconfig and pango
 * keep a little of each). Owned by the run; freed after every backend that
 * borrowed them, before cairo's own reset. NULL when out of memory. */
typedef struct cb_cairo_fonts cb_cairo_fonts;
cb_cairo_fonts *cb_cairo_fonts_new(void);
void cb_cairo_fonts_free(cb_cairo_fonts *f);

extern const cb_backend_class cb_backend_cairo;
extern const cb_backend_class cb_backend_haru;

#endif
