/* Backends draw the page model and know nothing of dungeons. A backend is a
 * `static const` table of functions (cb_backend_class); an instance embeds
 * cb_backend as its first member. Errors are sticky: the first one wins and
 * later calls do nothing. */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <stddef.h>

#include "../layout/page.h"
#include "../model/error.h"
#include "../util/sink.h"

typedef enum { CB_FORMAT_PDF, CB_FORMAT_SVG, CB_FORMAT_PNG, CB_FORMAT_JSON } cb_format;


typedef struct cb_render_options {
  cb_format format;
  double dpi;            /* PNG only */
  const char *fonts_dir; /* the fonts we ship */
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
  cb_error err; /* sticky: the first error */
};

/* The backend called name ("cairo"), or NULL. */
const cb_backend_class *cb_backend_find(const char *name);

/* Creates a backend of class cls; free it with cb_backend_destroy. */
cb_status cb_backend_create(const cb_backend_class *cls, const cb_render_options *o, cb_backend **out,
                            cb_error *err);
void cb_backend_destroy(cb_backend *b);

/* Draws every page of doc into sink; the backend's first error, if any. */
cb_status cb_backend_render(cb_backend *b, const cb_document *doc, cb_sink sink, cb_error *err);

extern const cb_backend_class cb_backend_cairo;
extern const cb_backend_class cb_backend_haru;

#endif
