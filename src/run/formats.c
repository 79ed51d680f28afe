#include "formats.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"

static const cb_format_row rows[] = {
    {CB_FORMAT_PDF, "pdf", "PDF", CB_WRITER_PAGES, true},
    {CB_FORMAT_SVG, "svg", "SVG", CB_WRITER_PAGES, false},
    {CB_FORMAT_PNG, "png", "PNG", CB_WRITER_PAGES, false},
    {CB_FORMAT_JSON, "json", "JSON", CB_WRITER_JSON, false},
    {CB_FORMAT_DOT, "dot", "DOT", CB_WRITER_DOT, false},
};
enum { NROWS = sizeof rows / sizeof *rows };

const cb_format_row *cb_format_named(const char *name) {
  for (size_t i = 0; name && i < NROWS; i++)
    if (strcmp(rows[i].name, name) == 0) return &rows[i];
  return NULL;
}

const cb_format_row *cb_format_row_of(cb_format f) {
  for (size_t i = 0; i < NROWS; i++)
    if (rows[i].format == f) return &rows[i];
  return &rows[0];
}

/* The chosen rows' words (bit k: format k), joined for a message. */
static const char *join(char *buf, size_t cap, const char *pre, const char *last, unsigned bits,
                        bool labels) {
  const char *words[NROWS];
  size_t n = 0;
  for (size_t i = 0; i < NROWS; i++)
    if ((bits >> rows[i].format) & 1u) words[n++] = labels ? rows[i].label : rows[i].name;
  return cb_text_join(buf, cap, words, n, pre, "", last);
}

const char *cb_format_names(char *buf, size_t cap, const char *pre, const char *last) {
  return join(buf, cap, pre, last, ~0u, false);
}

const char *cb_format_labels(char *buf, size_t cap, unsigned bits) {
  return join(buf, cap, "", " or ", bits, true);
}
