#include "backend.h"

#include <string.h>

static const cb_backend_class *const classes[] = {&cb_backend_cairo, &cb_backend_haru};

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
  return cls->create(o, out, err);
}

void cb_backend_destroy(cb_backend *b) {
  if (b) b->cls->destroy(b);
}

cb_status cb_backend_render(cb_backend *b, const cb_document *doc, cb_sink sink, cb_error *err) {
  const cb_backend_class *c = b->cls;
  c->begin_document(b, doc, sink);
  for (int i = 0; i < doc->npages && b->err.status == CB_OK; i++) {
    const cb_page *p = doc->pages[i];
    c->begin_page(b, p, i);
    for (int k = 0; k < p->nitems && b->err.status == CB_OK; k++) {
      const cb_item *it = &p->items[k];
      if (it->kind == CB_ITEM_PATH) c->path(b, p, it);
      else c->text(b, it);
    }
    c->end_page(b);
  }
  if (c->outline)
    for (int i = 0; i < doc->npages && b->err.status == CB_OK; i++)
      if (doc->pages[i]->label) c->outline(b, doc->pages[i]->label, i);
  c->end_document(b);
  if (b->err.status != CB_OK) return cb_error_set(err, b->err.status, "%s", b->err.msg);
  return CB_OK;
}
