#include "dot.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
  cb_sink sink;
  cb_status st;
} out;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(out *o, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof buf) n = (int)sizeof buf - 1;
  if (o->st == CB_OK) o->st = o->sink.write(o->sink.closure, (const unsigned char *)buf, (size_t)n);
}

/* A DOT string: quotes and backslashes escaped, control characters dropped. */
static void put_quoted(out *o, const char *s) {
  char buf[512];
  size_t n = 0;
  buf[n++] = '"';
  for (; s && *s && n < sizeof buf - 3; s++) {
    if (*s == '"' || *s == '\\') buf[n++] = '\\';
    if ((unsigned char)*s >= 0x20) buf[n++] = *s;
  }
  buf[n++] = '"';
  if (o->st == CB_OK) o->st = o->sink.write(o->sink.closure, (const unsigned char *)buf, n);
}

cb_status cb_dot_write(const cb_dungeon *d, cb_sink sink, cb_error *err) {
  out o = {sink, CB_OK};
  put(&o, "graph crawlbook {\n  graph [label=");
  put_quoted(&o, d->title ? d->title : "");
  put(&o, ", comment=\"%s seed %" PRIu64 "\"];\n  node [shape=circle];\n", d->generator, d->seed);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    put(&o, "  r%d [label=\"%d\", level=%d, pos=\"%.2f,%.2f\"];\n", r->id, r->number, r->level, r->x, -r->y);
  }
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (p->to == 0) continue; /* ways out have no room at the other end */
    put(&o, "  r%d -- r%d [kind=\"%s\"", p->from, p->to, cb_passage_kind_name(p->kind));
    if (p->flags & CB_FLAG_SECRET) put(&o, ", style=dotted");
    if (p->lock) {
      put(&o, ", label=");
      put_quoted(&o, p->lock);
    }
    put(&o, "];\n");
  }
  put(&o, "}\n");
  if (o.st != CB_OK) return cb_error_set(err, o.st, "could not write the DOT file");
  return CB_OK;
}
