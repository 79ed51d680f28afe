#include "page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

cb_page *cb_page_new(double w, double h) {
  cb_page *p = cb_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->arena = cb_arena_new();
  if (!p->arena) {
    free(p);
    return NULL;
  }
  p->w = w;
  p->h = h;
  return p;
}

void cb_page_free(cb_page *p) {
  if (!p) return;
  if (p->free_prepared) p->free_prepared(p->prepared);
  cb_arena_free(p->arena);
  free(p->items);
  free(p->ops);
  free(p);
}

/* ops of the open path start after the last path item's ops */
static int open_path_start(const cb_page *p) {
  for (int i = p->nitems - 1; i >= 0; i--)
    if (p->items[i].kind == CB_ITEM_PATH) return p->items[i].op0 + p->items[i].nops;
  return 0;
}

static void add_op(cb_page *p, cb_op op) {
  if (cb_grow(&p->ops, &p->cap_ops, (size_t)p->nops + 1, sizeof *p->ops)) {
    p->oom = true;
    return;
  }
  p->ops[p->nops++] = op;
}

void cb_page_move(cb_page *p, double x, double y) { add_op(p, (cb_op){CB_OP_MOVE, {x}, {y}}); }
void cb_page_line(cb_page *p, double x, double y) { add_op(p, (cb_op){CB_OP_LINE, {x}, {y}}); }
void cb_page_curve(cb_page *p, double x1, double y1, double x2, double y2, double x3, double y3) {
  add_op(p, (cb_op){CB_OP_CURVE, {x1, x2, x3}, {y1, y2, y3}});
}
void cb_page_close(cb_page *p) { add_op(p, (cb_op){CB_OP_CLOSE, {0}, {0}}); }

static cb_item *add_item(cb_page *p) {
  if (cb_grow(&p->items, &p->cap_items, (size_t)p->nitems + 1, sizeof *p->items)) {
    p->oom = true;
    return NULL;
  }
  cb_item *it = &p->items[p->nitems++];
  memset(it, 0, sizeof *it);
  it->role = p->role;
  return it;
}

void cb_page_ink(cb_page *p, const cb_ink *ink) {
  int op0 = open_path_start(p);
  if (p->nops == op0) return;
  cb_item *it = add_item(p);
  if (!it) return;
  it->kind = CB_ITEM_PATH;
  it->op0 = op0;
  it->nops = p->nops - op0;
  it->ink = *ink;
}

void cb_page_circle(cb_page *p, double cx, double cy, double r) {
  const double k = 0.5522847498 * r; /* four cubic arcs */
  cb_page_move(p, cx + r, cy);
  cb_page_curve(p, cx + r, cy + k, cx + k, cy + r, cx, cy + r);
  cb_page_curve(p, cx - k, cy + r, cx - r, cy + k, cx - r, cy);
  cb_page_curve(p, cx - r, cy - k, cx - k, cy - r, cx, cy - r);
  cb_page_curve(p, cx + k, cy - r, cx + r, cy - k, cx + r, cy);
  cb_page_close(p);
}

void cb_page_rect(cb_page *p, double x, double y, double w, double h) {
  cb_page_move(p, x, y);
  cb_page_line(p, x + w, y);
  cb_page_line(p, x + w, y + h);
  cb_page_line(p, x, y + h);
  cb_page_close(p);
}

void cb_page_rounded_rect(cb_page *p, double x, double y, double w, double h, double r) {
  const double k = 0.5522847498 * r;
  cb_page_move(p, x + r, y);
  cb_page_line(p, x + w - r, y);
  cb_page_curve(p, x + w - r + k, y, x + w, y + r - k, x + w, y + r);
  cb_page_line(p, x + w, y + h - r);
  cb_page_curve(p, x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
  cb_page_line(p, x + r, y + h);
  cb_page_curve(p, x + r - k, y + h, x, y + h - r + k, x, y + h - r);
  cb_page_line(p, x, y + r);
  cb_page_curve(p, x, y + r - k, x + r - k, y, x + r, y);
  cb_page_close(p);
}

void cb_page_text(cb_page *p, cb_font font, double size, double x, double y, cb_rgb color, const char *utf8) {
  const char *copy = cb_arena_strdup(p->arena, utf8);
  cb_item *it = copy ? add_item(p) : NULL;
  if (!it) {
    p->oom = true;
    return;
  }
  it->kind = CB_ITEM_TEXT;
  it->font = font;
  it->size = size;
  it->x = x;
  it->y = y;
  it->color = color;
  it->text = copy;
}

cb_ink cb_ink_stroke(cb_rgb color, double width) {
  return (cb_ink){.stroke = true, .stroke_color = color, .width = width, .cap = CB_CAP_ROUND};
}

cb_ink cb_ink_fill(cb_rgb color) { return (cb_ink){.fill = true, .fill_color = color}; }

void cb_page_place(cb_page *dst, const cb_page *src, double x, double y, double scale, bool upside_down) {
  double w = src->w, h = src->h;
#define MX(px) (upside_down ? x + scale * (w - (px)) : x + scale * (px))
#define MY(py) (upside_down ? y + scale * (h - (py)) : y + scale * (py))
  cb_item_role keep = dst->role;
  for (int i = 0; i < src->nitems; i++) {
    const cb_item *it = &src->items[i];
    dst->role = it->role;
    if (it->kind == CB_ITEM_TEXT) {
      cb_page_text(dst, it->font, it->size * scale, MX(it->x), MY(it->y), it->color, it->text);
      if (!dst->oom) dst->items[dst->nitems - 1].upside_down = it->upside_down != upside_down;
      continue;
    }
    for (int k = it->op0; k < it->op0 + it->nops; k++) {
      const cb_op *op = &src->ops[k];
      switch (op->kind) {
      case CB_OP_MOVE: cb_page_move(dst, MX(op->x[0]), MY(op->y[0])); break;
      case CB_OP_LINE: cb_page_line(dst, MX(op->x[0]), MY(op->y[0])); break;
      case CB_OP_CURVE:
        cb_page_curve(dst, MX(op->x[0]), MY(op->y[0]), MX(op->x[1]), MY(op->y[1]), MX(op->x[2]),
                      MY(op->y[2]));
        break;
      case CB_OP_CLOSE: cb_page_close(dst); break;
      }
    }
    cb_ink ink = it->ink;
    ink.width *= scale;
    for (int k = 0; k < ink.ndash; k++)
      ink.dash[k] *= scale;
    cb_page_ink(dst, &ink);
  }
  dst->role = keep;
#undef MX
#undef MY
}

int cb_document_add(cb_document *doc, cb_page *page) {
  if (cb_grow(&doc->pages, &doc->cap_pages, (size_t)doc->npages + 1, sizeof *doc->pages)) return -1;
  doc->pages[doc->npages++] = page;
  return 0;
}

void cb_document_free(cb_document *doc) {
  for (int i = 0; i < doc->npages; i++)
    cb_page_free(doc->pages[i]);
  free(doc->pages);
  memset(doc, 0, sizeof *doc);
}
