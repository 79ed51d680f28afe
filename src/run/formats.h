/* The output formats: one row each, and what writes it. A page format's
 * backend is the one the user picks, if its own table (cb_backend_class
 * .formats) says it writes that format. */
#ifndef CB_FORMATS_H
#define CB_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#include "render/backend.h"

typedef enum {
  CB_WRITER_PAGES, /* laid out and drawn by a backend */
  CB_WRITER_JSON,  /* the model as JSON (io/json.h) */
  CB_WRITER_DOT    /* the graph for Graphviz (io/dot.h) */
} cb_writer;

typedef struct cb_format_row {
  cb_format format;
  const char *name;  /* --format's word and the file extension: "pdf" */
  const char *label; /* in messages: "PDF" */
  cb_writer writer;
  bool book; /* several dungeons go into one file (with a contents cover) */
} cb_format_row;

/* The row of --format's word or an extension, NULL when none. */
const cb_format_row *cb_format_named(const char *name);
/* The row of a format (every format has one). */
const cb_format_row *cb_format_row_of(cb_format f);
/* The names, "pdf, svg, png, json or dot" with each prefixed by `pre` (".")
 * and `last` before the last; written into buf. */
const char *cb_format_names(char *buf, size_t cap, const char *pre, const char *last);
/* "PDF", "PDF, SVG or PNG": the labels of the formats whose bits are set. */
const char *cb_format_labels(char *buf, size_t cap, unsigned bits);

#endif
