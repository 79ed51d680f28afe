#include "flow.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

typedef struct word {
  cb_font font;
  const char *s;
  int len;
  double w;
  int glue;           /* 1 when a space comes before it (same line) */
  const void *object; /* an inline object instead of text */
} word;

double cb_text_width(const cb_measure *m, cb_font font, double size, const char *utf8) {
  return m->width(m->ctx, font, size, utf8);
}

/* A word measured whole, however long (a quoted title in a command line). */
static double measure_n(const cb_measure *m, cb_font font, double size, const char *s, int len) {
  char small[512], *buf = len < (int)sizeof small ? small : cb_malloc((size_t)len + 1);
  if (!buf) return -1;
  memcpy(buf, s, (size_t)len);
  buf[len] = '\0';
  double w = m->width(m->ctx, font, size, buf);
  if (buf != small) free(buf);
  return w;
}

/* Draws words [from, to) as one line: consecutive words in one font share a text item. */
static void draw_line(cb_page *p, const cb_flow *f, const word *w, int from, int to, const double *space,
                      double x, double y) {
  /* room for the whole line: a run of text is never cut */
  size_t cap = 2;
  for (int k = from; k < to; k++)
    cap += (size_t)w[k].len + 1;
  char *buf = cb_malloc(cap);
  if (!buf) {
    p->oom = true;
    return;
  }
  int i = from;
  while (i < to) {
    if (w[i].object) {
      if (f->draw) f->draw(f->ctx, p, w[i].object, x, y);
      x += w[i].w;
      if (i + 1 < to && w[i + 1].glue) x += space[w[i + 1].font];
      i++;
      continue;
    }
    int j = i, n = 0;
    double x0 = x;
    while (j < to && w[j].font == w[i].font && !w[j].object) {
      if (j > i && w[j].glue) buf[n++] = ' ';
      memcpy(buf + n, w[j].s, (size_t)w[j].len);
      n += w[j].len;
      x += (j > i && w[j].glue ? space[w[j].font] : 0) + w[j].w;
      j++;
    }
    buf[n] = '\0';
    /* the next run starts where this one, shaped whole, really ends: a run's
     * width is not quite the sum of its words' (hinted advances) */
    if (j < to) {
      double whole = f->m->width(f->m->ctx, w[i].font, f->size, buf);
      if (whole > 0) x = x0 + whole;
    }
    /* a space the next run starts after is written too, so that text
     * extraction keeps the two words apart whatever the fonts' bearings */
    if (j < to && w[j].glue) buf[n++] = ' ', buf[n] = '\0';
    cb_page_text(p, w[i].font, f->size, x0, y, f->color, buf);
    if (j < to && w[j].glue) x += space[w[j].font];
    i = j;
  }
  free(buf);
}

int cb_text_flow(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y) {
  word *w = NULL;
  size_t cap = 0;
  int nw = 0, pending_glue = 0;
  double space[CB_FONT_COUNT];
  for (int k = 0; k < CB_FONT_COUNT; k++)
    space[k] = f->m->width(f->m->ctx, (cb_font)k, f->size, " ");
  for (int s = 0; s < nspans; s++) {
    if (spans[s].object) {
      if (cb_grow(&w, &cap, (size_t)nw + 1, sizeof *w)) {
        free(w);
        if (p) p->oom = true;
        return -1;
      }
      w[nw] = (word){spans[s].font, "", 0, spans[s].object_w, nw > 0 && pending_glue, spans[s].object};
      nw++;
      pending_glue = 0;
      continue;
    }
    const char *t = spans[s].text;
    while (*t) {
      if (*t == ' ') {
        pending_glue = 1;
        t++;
        continue;
      }
      const char *e = t;
      while (*e && *e != ' ')
        e++;
      double width = measure_n(f->m, spans[s].font, f->size, t, (int)(e - t));
      if (width < 0 || cb_grow(&w, &cap, (size_t)nw + 1, sizeof *w)) {
        free(w);
        if (p) p->oom = true;
        return -1;
      }
      w[nw] = (word){spans[s].font, t, (int)(e - t), width, nw > 0 && pending_glue, NULL};
      nw++;
      pending_glue = 0;
      t = e;
    }
  }
  int lines = 0, start = f->first_word > 0 ? (f->first_word < nw ? f->first_word : nw) : 0;
  if (f->stop_word) *f->stop_word = nw;
  while (start < nw) {
    double lw = w[start].w;
    int end = start + 1;
    while (end < nw) {
      double add = (w[end].glue ? space[w[end].font] : 0) + w[end].w;
      if (lw + add > f->width) break;
      lw += add;
      end++;
    }
    /* a break may only fall where there is a space */
    while (end < nw && end > start + 1 && !w[end].glue)
      end--;
    if (f->limit > 0 && lines == f->limit && f->stop_word) *f->stop_word = start;
    if (p && (f->limit <= 0 || lines < f->limit))
      draw_line(p, f, w, start, end, space, x, y + lines * f->leading);
    lines++;
    start = end;
  }
  free(w);
  return lines;
}
