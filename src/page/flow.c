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
  int piece;          /* 1 when it goes on a word too wide for a line: a line may start with it */
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

static int add_word(word **w, size_t *cap, int *nw, word x) {
  if (cb_grow(w, cap, (size_t)*nw + 1, sizeof **w)) return -1;
  (*w)[(*nw)++] = x;
  return 0;
}

/* The longest start of s (len bytes, wider than the line) that fits the
 * line, cut between characters and, where it can be, after a hyphen; at
 * least one character. -1 on OOM. */
static int fitting_start(const cb_flow *f, cb_font font, const char *s, int len) {
  int lo = 1, hi = len; /* lo: a start that is taken whatever its width */
  while (lo < len && ((unsigned char)s[lo] & 0xC0) == 0x80)
    lo++;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    while (mid > lo && ((unsigned char)s[mid] & 0xC0) == 0x80)
      mid--;
    double w = mid > lo ? measure_n(f->m, font, f->size, s, mid) : 0;
    if (w < 0) return -1;
    if (mid > lo && w <= f->width)
      lo = mid;
    else
      hi = mid > lo ? mid - 1 : lo;
  }
  for (int k = lo; k > 1; k--)
    if (s[k - 1] == '-') return k;
  return lo;
}

/* Adds word s (len bytes, `width` wide); one wider than the line is broken
 * into pieces that fit (a room named with one long hyphenated word), so
 * that it never runs into the next column or off the page. */
static int add_text_word(const cb_flow *f, cb_font font, const char *s, int len, double width, int glue,
                         word **w, size_t *cap, int *nw) {
  int piece = 0;
  while (width > f->width && f->width > 0 && len > 1) {
    int k = fitting_start(f, font, s, len);
    double kw = k > 0 && k < len ? measure_n(f->m, font, f->size, s, k) : -1;
    if (k < 0 || (k < len && kw < 0)) return -1;
    if (k >= len) break;
    if (add_word(w, cap, nw, (word){font, s, k, kw, glue, NULL, piece})) return -1;
    s += k, len -= k, glue = 0, piece = 1;
    if ((width = measure_n(f->m, font, f->size, s, len)) < 0) return -1;
  }
  return add_word(w, cap, nw, (word){font, s, len, width, glue, NULL, piece});
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

/* cb_text_flow's lines; -1 when out of memory (cb_text_flow marks the page). */
static int flow(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y) {
  word *w = NULL;
  size_t cap = 0;
  int nw = 0, pending_glue = 0;
  double space[CB_FONT_COUNT];
  for (int k = 0; k < CB_FONT_COUNT; k++)
    space[k] = f->m->width(f->m->ctx, (cb_font)k, f->size, " ");
  for (int s = 0; s < nspans; s++) {
    if (spans[s].object) {
      if (add_word(
              &w, &cap, &nw,
              (word){spans[s].font, "", 0, spans[s].object_w, nw > 0 && pending_glue, spans[s].object, 0})) {
        free(w);
        return -1;
      }
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
      if (width < 0 ||
          add_text_word(f, spans[s].font, t, (int)(e - t), width, nw > 0 && pending_glue, &w, &cap, &nw)) {
        free(w);
        return -1;
      }
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
    /* a break may only fall where there is a space, or inside a word too wide for a line */
    while (end < nw && end > start + 1 && !w[end].glue && !w[end].piece)
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

cb_status cb_text_flow(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y,
                       int *lines, cb_error *err) {
  int n = flow(p, f, spans, nspans, x, y);
  if (n < 0) {
    if (p) p->oom = true;
    return cb_error_oom(err);
  }
  if (lines) *lines = n;
  return CB_OK;
}
