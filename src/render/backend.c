#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "coverage.h"

static const cb_backend_class *const classes[] = {&cb_backend_cairo, &cb_backend_haru};

const char *cb_backend_names(char *buf, size_t cap) {
  enum { N = sizeof classes / sizeof *classes };
  const char *names[N];
  for (size_t i = 0; i < N; i++)
    names[i] = classes[i]->name;
  return cb_text_join(buf, cap, names, N, "'", "'", " or ");
}

const cb_backend_class *cb_backend_find(const char *name) {
  for (size_t i = 0; name && i < sizeof classes / sizeof *classes; i++)
    if (strcmp(classes[i]->name, name) == 0) return classes[i];
  return NULL;
}

cb_status cb_backend_create(const cb_backend_class *cls, const cb_render_options *o, cb_backend **out,
                            cb_error *err) {
  *out = NULL;
  if (!(cls->formats & (1u << o->format)))
    return cb_error_set(err, CB_EINPUT, "the %s backend cannot write this format", cls->name);
  cb_coverage *cover = cb_coverage_load(o->fonts_dir);
  cb_status st = cls->create(o, out, err);
  if (st == CB_OK)
    (*out)->cover = cover;
  else
    cb_coverage_free(cover);
  return st;
}

void cb_backend_destroy(cb_backend *b) {
  if (!b) return;
  cb_coverage_free(b->cover);
  b->cls->destroy(b);
}

void cb_backend_begin(cb_backend *b, const cb_document *info, cb_sink sink) {
  b->npages = 0;
  b->cls->begin_document(b, info, sink);
}

void cb_backend_page(cb_backend *b, const cb_page *p) {
  const cb_backend_class *c = b->cls;
  if (b->err.status != CB_OK || cb_coverage_check(b->cover, p, &b->err) != CB_OK) return;
  c->begin_page(b, p, b->npages++);
  for (int k = 0; k < p->nitems && b->err.status == CB_OK; k++) {
    const cb_item *it = &p->items[k];
    if (it->kind == CB_ITEM_PATH)
      c->path(b, p, it);
    else
      c->text(b, it);
  }
  c->end_page(b);
}

void *cb_backend_take_marks(cb_backend *b) { return b->cls->take_marks ? b->cls->take_marks(b) : NULL; }

void cb_backend_prepare(cb_backend *b, cb_page *p) {
  if (b->cls->prepare && b->err.status == CB_OK && !p->prepared) b->cls->prepare(b, p);
}

void cb_backend_add_marks(cb_backend *b, const void *marks) {
  if (marks && b->cls->add_marks) b->cls->add_marks(b, marks);
}

void cb_backend_outline(cb_backend *b, const char *title, int index) {
  if (b->cls->outline && b->err.status == CB_OK) b->cls->outline(b, title, index);
}

cb_status cb_backend_end(cb_backend *b, cb_error *err) {
  b->cls->end_document(b);
  if (b->err.status != CB_OK) return cb_error_set(err, b->err.status, "%s", b->err.msg);
  return CB_OK;
}

cb_status cb_backend_render(cb_backend *b, const cb_document *doc, cb_sink sink, cb_error *err) {
  cb_backend_begin(b, doc, sink);
  for (int i = 0; i < doc->npages; i++)
    cb_backend_page(b, doc->pages[i]);
  for (int i = 0; i < doc->npages; i++)
    if (doc->pages[i]->label) cb_backend_outline(b, doc->pages[i]->label, i);
  return cb_backend_end(b, err);
}
