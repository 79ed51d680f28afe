#include "key.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

typedef struct entry {
  cb_span spans[64];
  int n;
  char buf[4096];
  size_t used;
  cb_map_mark marks[CB_MAP_MAX_MARKS];
} entry;

/* The key's marks: the map's symbols a size smaller, on the text's baseline. */
static void draw_mark(void *ctx, cb_page *p, const void *object, double x, double y) {
  const cb_symbols *st = ctx;
  const cb_map_mark *m = object;
  double w = cb_symbol_badge_width(st, m->sym, m->text);
  cb_symbol_badge(p, st, m->sym, m->text, x + w / 2, y - st->badge * 0.32);
}

static const char *keep(entry *e, const char *fmt_text) {
  size_t len = strlen(fmt_text);
  if (e->used + len + 1 > sizeof e->buf) return "";
  char *s = e->buf + e->used;
  memcpy(s, fmt_text, len + 1);
  e->used += len + 1;
  return s;
}

static void span(entry *e, cb_font font, const char *text) {
  if (e->n < (int)(sizeof e->spans / sizeof *e->spans)) e->spans[e->n++] = (cb_span){font, keep(e, text), NULL, 0};
}

static const struct {
  unsigned tag;
  const char *word;
} tag_words[] = {{CB_TAG_MAIN_START, "main start"}, {CB_TAG_START, "start"},
                 {CB_TAG_ENTRANCE, "entrance"},     {CB_TAG_GOAL, "goal"},
                 {CB_TAG_BOSS, "boss"},             {CB_TAG_ENCOUNTER, "encounter"},
                 {CB_TAG_TREASURE, "treasure"},     {CB_TAG_KEY, "key"},
                 {CB_TAG_SURFACE_EXIT, "way to the surface"}, {CB_TAG_UNREACHABLE, "unreachable"}};

static void passage_words(const cb_dungeon *d, const cb_passage *ps, int here, char *out, size_t cap) {
  int other = ps->from == here ? ps->to : ps->from;
  char what[256] = "";
  size_t n = 0;
#define ADD(...) n += (size_t)snprintf(what + n, n < sizeof what ? sizeof what - n : 0, __VA_ARGS__)
  if (ps->kind != CB_PASSAGE_CORRIDOR && ps->kind != CB_PASSAGE_TUNNEL) ADD("%s, ", cb_passage_kind_name(ps->kind));
  if (ps->flags & CB_FLAG_SECRET) ADD("secret, ");
  if (ps->flags & CB_FLAG_CONCEALED) ADD("concealed, ");
  if (ps->flags & CB_FLAG_LOCKED) {
    const cb_room *kr = cb_dungeon_key_room(d, ps->lock);
    if (kr) ADD("locked: %s, key in room %d, ", ps->lock, kr->number);
    else ADD("locked: %s, ", ps->lock);
  }
  if (ps->flags & CB_FLAG_SOFT_LOCKED) ADD("soft-locked, ");
  if (ps->flags & CB_FLAG_TRAPPED) ADD("trapped, ");
  if (ps->flags & CB_FLAG_OBSTRUCTED) ADD("obstructed, ");
  if (ps->flags & CB_FLAG_ONE_WAY) ADD(ps->from == here ? "one-way out, " : "one-way in, ");
  if (ps->flags & CB_FLAG_UNDER) ADD("runs under, ");
  if (ps->flags & CB_FLAG_OVER) ADD("runs over, ");
  if (ps->flags & CB_FLAG_DEAD_END) ADD("dead end, ");
  if (ps->length_ft >= 0) ADD("%.0f ft, ", ps->length_ft);
#undef ADD
  if (n > 2 && n < sizeof what) what[n - 2] = '\0';
  const cb_room *o = other ? cb_dungeon_room(d, other) : NULL;
  char dest[64];
  if (ps->from == ps->to) snprintf(dest, sizeof dest, "%s", ps->flags & CB_FLAG_DEAD_END ? "nowhere" : "back here");
  else if (!o) snprintf(dest, sizeof dest, "out of the dungeon");
  else if (o->level != cb_dungeon_room(d, here)->level) snprintf(dest, sizeof dest, "level %d room %d", o->level, o->number);
  else snprintf(dest, sizeof dest, "%d", o->number);
  if (what[0]) snprintf(out, cap, "%s (%s)", dest, what);
  else snprintf(out, cap, "%s", dest);
}

static void build_entry(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  char buf[512];
  e->n = 0;
  e->used = 0;
  if (d->nlevels > 1 && (r == d->rooms || r[-1].level != r->level)) {
    /* room numbers start again on each level: the first entry names it */
    snprintf(buf, sizeof buf, "Level %d \xc2\xb7 ", r->level);
    span(e, CB_FONT_BOLD_ITALIC, buf);
  }
  snprintf(buf, sizeof buf, "%d", r->number);
  span(e, CB_FONT_BOLD, buf);
  if (ks->symbols) {
    /* the room's marks, as on the map */
    int nm = cb_map_room_marks(NULL, d, r, e->marks);
    for (int k = 0; k < nm && e->n + 2 < (int)(sizeof e->spans / sizeof *e->spans); k++) {
      span(e, CB_FONT_REGULAR, " ");
      e->spans[e->n++] = (cb_span){CB_FONT_REGULAR, "", &e->marks[k],
                                   cb_symbol_badge_width(ks->symbols, e->marks[k].sym, e->marks[k].text)};
    }
  }
  if (r->card) snprintf(buf, sizeof buf, " (%s)", r->card), span(e, CB_FONT_REGULAR, buf);
  else if (r->value != CB_NO_VALUE) snprintf(buf, sizeof buf, " (%d)", r->value), span(e, CB_FONT_REGULAR, buf);
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof tag_words / sizeof *tag_words; i++) {
    if (!(r->tags & tag_words[i].tag) || tag_words[i].tag == CB_TAG_KEY) continue;
    if (tag_words[i].tag == CB_TAG_START && (r->tags & CB_TAG_MAIN_START)) continue;
    n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%s", n ? ", " : "", tag_words[i].word);
  }
  if (n) {
    buf[0] = (char)(buf[0] >= 'a' && buf[0] <= 'z' ? buf[0] - 32 : buf[0]);
    span(e, CB_FONT_REGULAR, " \xe2\x80\x94 ");
    strncat(buf, ".", sizeof buf - strlen(buf) - 1);
    span(e, CB_FONT_ITALIC, buf);
  }
  if (r->text && r->text[0]) {
    span(e, CB_FONT_REGULAR, n ? " " : " \xe2\x80\x94 ");
    span(e, CB_FONT_REGULAR, r->text);
  }
  for (int k = 0; k < r->nkeys; k++) {
    span(e, CB_FONT_REGULAR, " ");
    span(e, CB_FONT_BOLD, r->keys[k]);
    int opens = 0;
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *ps = &d->passages[i];
      if (!ps->lock || strcmp(ps->lock, r->keys[k]) != 0) continue;
      const cb_room *a = cb_dungeon_room(d, ps->from), *b = cb_dungeon_room(d, ps->to);
      snprintf(buf, sizeof buf, "%s the locked %s %d\xe2\x80\x93%d", opens ? " and" : " is here: it opens",
               cb_passage_kind_name(ps->kind), a ? a->number : 0, b ? b->number : 0);
      span(e, CB_FONT_REGULAR, buf);
      opens++;
    }
    span(e, CB_FONT_REGULAR, opens ? "." : " is here.");
  }
  int npaths = 0;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (ps->from != r->id && ps->to != r->id) continue;
    passage_words(d, ps, r->id, buf, sizeof buf);
    span(e, npaths ? CB_FONT_REGULAR : CB_FONT_ITALIC, npaths ? "; " : " Leads to ");
    span(e, CB_FONT_REGULAR, buf);
    npaths++;
  }
  span(e, CB_FONT_REGULAR, npaths ? "." : " No way on.");
  if (ks->note) {
    char note[2048] = "";
    ks->note(d, r, note, sizeof note);
    if (note[0]) {
      span(e, CB_FONT_REGULAR, " ");
      span(e, CB_FONT_REGULAR, note);
    }
  }
}

int cb_key_fill(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int from, int *word, double x, double y,
                double w, double h, int cols, double gutter) {
  static entry e; /* 5 KB of scratch; the layout runs on one thread */
  double cw = (w - gutter * (cols - 1)) / cols;
  cb_flow f = {ks->m, ks->size, ks->leading, cw, ks->ink, draw_mark, (void *)ks->symbols};
  int col = 0, i = from, skip = word ? *word : 0; /* skip: the entry's first word still to draw */
  int per_column = (int)(h / ks->leading) > 0 ? (int)(h / ks->leading) : 1;
  double cy = 0;
  while (i < d->nrooms && col < cols) {
    /* the lines left of the entry; a whole one's count is kept across fills */
    cb_key_memo *mem = ks->memo && skip == 0 ? &ks->memo[i] : NULL;
    int rest = mem && mem->lines > 0 && mem->width == cw && mem->size == ks->size ? mem->lines : 0, built = 0;
    if (!rest) {
      build_entry(&e, ks, d, &d->rooms[i]);
      built = 1;
      f.first_word = skip, f.limit = 0, f.stop_word = NULL;
      rest = cb_text_flow(NULL, &f, e.spans, e.n, 0, 0);
      if (rest < 0) return -1;
      if (mem) *mem = (cb_key_memo){cw, ks->size, rest};
    }
    if (cy > 0 && cy + rest * ks->leading > h) {
      col++;
      cy = 0;
      continue;
    }
    /* taller than a whole column: as many lines as fit, the rest runs on */
    int now = cy == 0 && rest > per_column ? per_column : rest, stop = 0;
    if (p || now < rest) {
      if (!built) build_entry(&e, ks, d, &d->rooms[i]);
      f.first_word = skip, f.limit = now, f.stop_word = &stop;
      if (cb_text_flow(p, &f, e.spans, e.n, x + col * (cw + gutter), y + cy + ks->size) < 0) return -1;
    }
    if (now < rest) {
      skip = stop;
      col++;
      cy = 0;
      continue;
    }
    cy += rest * ks->leading + ks->gap;
    skip = 0;
    i++;
  }
  if (word) *word = skip;
  return i;
}

double cb_key_height(const cb_key_style *ks, const cb_dungeon *d, int from, double w, double h, int cols,
                     double gutter) {
  cb_key_style k = *ks;
  if (!k.memo && !(k.memo = calloc((size_t)d->nrooms + 1, sizeof *k.memo))) return -1;
  double lo = 0, hi = h;
  int all = cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, h, cols, gutter);
  if (all >= 0 && all < d->nrooms) hi = INFINITY;
  if (all == d->nrooms) {
    /* never so short that an entry splits: the tallest entry is the floor */
    for (int i = from; i < d->nrooms; i++) lo = fmax(lo, k.memo[i].lines * k.leading);
    int at_lo = lo < hi ? cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, lo, cols, gutter) : 0;
    if (at_lo < 0) all = -1;
    if (at_lo == d->nrooms) hi = lo;
    for (int it = 0; all >= 0 && it < 20 && hi - lo > 0.5; it++) {
      double mid = (lo + hi) / 2;
      int n = cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, mid, cols, gutter);
      if (n < 0)
        all = -1;
      else if (n == d->nrooms)
        hi = mid;
      else lo = mid;
    }
  }
  if (!ks->memo) free(k.memo);
  return all < 0 ? -1 : hi;
}

int cb_key_fill_balanced(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int from, int *word,
                         double x, double y, double w, double h, int cols, double gutter) {
  if (cols < 2 || (word && *word)) return cb_key_fill(p, ks, d, from, word, x, y, w, h, cols, gutter);
  double bh = cb_key_height(ks, d, from, w, h, cols, gutter);
  if (bh < 0) return -1;
  return cb_key_fill(p, ks, d, from, word, x, y, w, isfinite(bh) ? bh : h, cols, gutter);
}
