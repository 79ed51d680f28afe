#include "key.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/text.h"
#include "map.h"

/* One entry's spans and their text, grown as the entry needs: a room of
 * many ways or long notes is never cut. A text span's words live in buf at
 * at[i] (offsets, since buf moves as it grows) until entry_spans points them. */
typedef struct entry {
  cb_span *spans;
  size_t *at, cap_spans, cap_at, used, cap;
  char *buf;
  int n;
  bool oom, ready; /* ready: its spans point into buf (entry_spans ran) */
  cb_map_mark marks[CB_MAP_MAX_MARKS];
} entry;

/* What a sheet learns of its key while it tries boxes: each entry's line
 * count at the last few column widths, and, for a key of a size worth
 * keeping, the entry's spans in both forms, built once. Every value is a
 * function of the dungeon and the style, so keeping it changes no output. */
enum { MEMO_SLOTS = 4, MEMO_BUILT_MAX = 4096 };
typedef struct memo_slot {
  double width, size;
  bool compact;
  int lines; /* 0: not measured yet */
} memo_slot;
struct cb_key_memo {
  int n;               /* entries: the rooms, then the extras */
  memo_slot *slots;    /* MEMO_SLOTS an entry */
  unsigned char *turn; /* the slot an entry's next count replaces */
  entry *built;        /* two an entry (terse, compact); NULL past MEMO_BUILT_MAX */
};

enum { NO_TEXT = -1 }; /* at[i] of an inline object */

/* The key's marks: the map's symbols a size smaller, on the text's baseline. */
static void draw_mark(void *ctx, cb_page *p, const void *object, double x, double y) {
  const cb_symbols *st = ctx;
  const cb_map_mark *m = object;
  double w = cb_symbol_badge_width(st, m->sym, m->text);
  cb_symbol_badge(p, st, m->sym, m->text, x + w / 2, y - st->badge * 0.32);
}

/* Room for one more span and `bytes` more text; false (and e->oom) when out of memory. */
static bool entry_room(entry *e, size_t bytes) {
  if (e->oom || cb_grow(&e->buf, &e->cap, e->used + bytes, 1) ||
      cb_grow(&e->spans, &e->cap_spans, (size_t)e->n + 1, sizeof *e->spans) ||
      cb_grow(&e->at, &e->cap_at, (size_t)e->n + 1, sizeof *e->at))
    e->oom = true;
  return !e->oom;
}

static void spanf(entry *e, cb_font font, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Adds printf text to the entry; text in the font of the span before it joins that span. */
static void spanf(entry *e, cb_font font, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0) e->oom = true;
  if (k < 0 || !entry_room(e, (size_t)k + 1)) return;
  bool join = e->n > 0 && e->at[e->n - 1] != (size_t)NO_TEXT && e->spans[e->n - 1].font == font;
  size_t at = join ? e->used - 1 : e->used; /* over the span's terminating NUL */
  va_start(ap, fmt);
  vsnprintf(e->buf + at, (size_t)k + 1, fmt, ap);
  va_end(ap);
  e->used = at + (size_t)k + 1;
  if (join) return;
  e->at[e->n] = at;
  e->spans[e->n++] = (cb_span){font, NULL, NULL, 0};
}

static void span(entry *e, cb_font font, const char *text) { spanf(e, font, "%s", text); }

static void mark_span(entry *e, const cb_map_mark *m, double w) {
  if (!entry_room(e, 0)) return;
  e->at[e->n] = (size_t)NO_TEXT;
  e->spans[e->n++] = (cb_span){CB_FONT_REGULAR, "", m, w};
}

/* The last character written (a NUL when none). */
static char last_char(const entry *e) { return e->used >= 2 ? e->buf[e->used - 2] : '\0'; }

static void entry_clear(entry *e) {
  e->n = 0;
  e->used = 0;
}

/* The spans, their texts pointed into buf; NULL when out of memory. */
static const cb_span *entry_spans(entry *e) {
  cb_unchain u = {0}; /* booklet.md: no chains of colons, whoever wrote the words */
  for (int i = 0; !e->oom && i < e->n; i++)
    if (e->at[i] != (size_t)NO_TEXT) {
      cb_text_unchain(&u, e->buf + e->at[i]);
      e->spans[i].text = e->buf + e->at[i];
    }
  return e->oom ? NULL : e->spans;
}

static void entry_free(entry *e) {
  free(e->spans);
  free(e->at);
  free(e->buf);
}

cb_key_memo *cb_key_memo_new(const cb_dungeon *d) {
  cb_key_memo *m = cb_calloc(1, sizeof *m);
  if (!m) return NULL;
  m->n = d->nrooms + cb_key_extras(d);
  size_t n = (size_t)m->n + 1;
  m->slots = cb_calloc(n * MEMO_SLOTS, sizeof *m->slots);
  m->turn = cb_calloc(n, 1);
  if (m->n <= MEMO_BUILT_MAX) m->built = cb_calloc(n * 2, sizeof *m->built);
  if (m->slots && m->turn && (m->built || m->n > MEMO_BUILT_MAX)) return m;
  cb_key_memo_free(m);
  return NULL;
}

void cb_key_memo_free(cb_key_memo *m) {
  if (!m) return;
  for (int i = 0; m->built && i < 2 * (m->n + 1); i++)
    entry_free(&m->built[i]);
  free(m->built);
  free(m->turn);
  free(m->slots);
  free(m);
}

/* Entry `at`'s line count at column width w in ks's size and form; 0 when not kept. */
static int memo_lines(const cb_key_memo *m, int at, const cb_key_style *ks, double w) {
  for (int k = 0; m && at < m->n && k < MEMO_SLOTS; k++) {
    const memo_slot *s = &m->slots[at * MEMO_SLOTS + k];
    if (s->lines > 0 && s->width == w && s->size == ks->size && s->compact == ks->compact) return s->lines;
  }
  return 0;
}

static void memo_keep(cb_key_memo *m, int at, const cb_key_style *ks, double w, int lines) {
  if (!m || at >= m->n) return;
  m->slots[at * MEMO_SLOTS + m->turn[at]] = (memo_slot){w, ks->size, ks->compact, lines};
  m->turn[at] = (unsigned char)((m->turn[at] + 1) % MEMO_SLOTS);
}

static const struct {
  unsigned tag;
  const char *word;
} tag_words[] = {{CB_TAG_MAIN_START, "main start"},
                 {CB_TAG_START, "start"},
                 {CB_TAG_ENTRANCE, "entrance"},
                 {CB_TAG_GOAL, "goal"},
                 {CB_TAG_BOSS, "boss"},
                 {CB_TAG_ENCOUNTER, "encounter"},
                 {CB_TAG_TREASURE, "treasure"},
                 {CB_TAG_KEY, "key"},
                 {CB_TAG_SURFACE_EXIT, "way to the surface"},
                 {CB_TAG_UNREACHABLE, "unreachable"}};

/* A passage as a room's key reads it: where it leads, what kind of way it
 * is ("secret, trapped"; empty for a plain one) and its length (<0: none). */
typedef struct exit_words {
  char dest[64], what[224];
  double length_ft;
  bool stairs; /* a way off the level: 0 ft puts it at the room's door */
} exit_words;

static exit_words passage_words(const cb_dungeon *d, const cb_passage *ps, int here) {
  exit_words x = {.length_ft = ps->length_ft, .stairs = ps->kind == CB_PASSAGE_STAIRS};
  int other = ps->from == here ? ps->to : ps->from;
  size_t n = 0;
#define ADD(...) n += (size_t)snprintf(x.what + n, n < sizeof x.what ? sizeof x.what - n : 0, __VA_ARGS__)
  /* a stocked key names the unusual ways only: doors are the rule */
  bool plain = ps->kind == CB_PASSAGE_CORRIDOR || ps->kind == CB_PASSAGE_TUNNEL ||
               (d->theme && ps->kind == CB_PASSAGE_DOOR);
  if (!plain) ADD("%s, ", cb_passage_kind_name(ps->kind));
  if (ps->flags & CB_FLAG_SECRET) ADD("secret, ");
  if (ps->flags & CB_FLAG_CONCEALED) ADD("concealed, ");
  if (ps->flags & CB_FLAG_LOCKED) {
    const cb_room *kr = cb_dungeon_key_room(d, ps->lock);
    if (d->theme)
      ADD("locked, %s, ", ps->lock); /* stocked: the key's room says where it lies */
    else if (kr)
      ADD("locked: %s, key in room %d, ", ps->lock, kr->number);
    else
      ADD("locked: %s, ", ps->lock);
  }
  if (ps->flags & CB_FLAG_SOFT_LOCKED) ADD("soft-locked, ");
  if (ps->flags & CB_FLAG_TRAPPED) ADD("trapped, ");
  if (ps->flags & CB_FLAG_OBSTRUCTED) ADD("obstructed, ");
  if (ps->flags & CB_FLAG_ONE_WAY) ADD(ps->from == here ? "one-way out, " : "one-way in, ");
  if (ps->flags & CB_FLAG_UNDER) ADD("runs under, ");
  if (ps->flags & CB_FLAG_OVER) ADD("runs over, ");
  if (ps->flags & CB_FLAG_DEAD_END) ADD("dead end, ");
#undef ADD
  if (n >= 2 && n < sizeof x.what) x.what[n - 2] = '\0';
  const cb_room *o = other ? cb_dungeon_room(d, other) : NULL;
  if (ps->from == ps->to)
    snprintf(x.dest, sizeof x.dest, "%s", ps->flags & CB_FLAG_DEAD_END ? "nowhere" : "back here");
  else if (!o)
    snprintf(x.dest, sizeof x.dest, "out of the dungeon");
  else if (o->level != cb_dungeon_room(d, here)->level)
    snprintf(x.dest, sizeof x.dest, "level %d room %d", o->level, o->number);
  else
    snprintf(x.dest, sizeof x.dest, "%d", o->number);
  return x;
}

/* "5 (secret, 30 ft)"; with_what false leaves the kind out ("5 (30 ft)").
 * A way of 0 ft is rooms touching at a door: "5 (adjoining)". */
static void exit_text(const exit_words *x, bool with_what, char *out, size_t cap) {
  const char *what = with_what ? x->what : "";
  char len[32] = "";
  if (x->length_ft >= 0 && x->length_ft < 0.5)
    snprintf(len, sizeof len, "%s", x->stairs ? "at the door" : "adjoining");
  else if (x->length_ft >= 0)
    snprintf(len, sizeof len,
             "%.0f\xc2\xa0"
             "ft",
             x->length_ft); /* never parted */
  if (what[0] || len[0])
    snprintf(out, cap, "%s\xc2\xa0(%s%s%s)", x->dest, what, what[0] && len[0] ? ", " : "",
             len); /* "4 (adjoining)" is never parted either */
  else
    snprintf(out, cap, "%s", x->dest);
}

/* Number, level, marks and the card or die value: every entry's head. */
static void entry_head(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  entry_clear(e);
  if (d->nlevels > 1 && (r == d->rooms || r[-1].level != r->level))
    spanf(e, CB_FONT_BOLD_ITALIC, "Level %d \xc2\xb7 ", r->level); /* numbers start again on each level */
  spanf(e, CB_FONT_BOLD, "%d", r->number);
  if (ks->symbols) {
    /* the room's marks, as on the map */
    int nm = cb_map_room_marks(NULL, d, r, e->marks);
    for (int k = 0; k < nm; k++) {
      span(e, CB_FONT_REGULAR, " ");
      mark_span(e, &e->marks[k], cb_symbol_badge_width(ks->symbols, e->marks[k].sym, e->marks[k].text));
    }
  }
  /* a stocked room's card or die says what it is in the booklet, and is
   * left off the sheet, whose legend does not explain it (stocking.md) */
  bool said = !r->contents || ks->full;
  const char *as = r->contents ? (r->card ? "card\xc2\xa0" : "die\xc2\xa0") : "";
  if (r->card && said)
    spanf(e, CB_FONT_REGULAR, " (%s%s)", as, r->card);
  else if (r->value != CB_NO_VALUE && said)
    spanf(e, CB_FONT_REGULAR, " (%s%d)", as, r->value);
}

/* The key object stocking put with key `key`: a treasure "K1: the
 * sexton's key" in the key's room; NULL when none. */
static const char *key_object(const cb_room *r, const char *key) {
  size_t n = strlen(key);
  for (int i = 0; r->contents && i < r->contents->ntreasure; i++) {
    const char *w = r->contents->treasure[i].what;
    if (!strncmp(w, key, n) && w[n] == ':' && w[n + 1] == ' ') return w + n + 2;
  }
  return NULL;
}

static bool is_key_object(const cb_room *r, const char *what) {
  for (int k = 0; k < r->nkeys; k++)
    if (key_object(r, r->keys[k]) == what + strlen(r->keys[k]) + 2) return true;
  return false;
}

static void room_keys(entry *e, const cb_dungeon *d, const cb_room *r) {
  for (int k = 0; k < r->nkeys; k++) {
    span(e, CB_FONT_REGULAR, " ");
    span(e, CB_FONT_BOLD, r->keys[k]);
    const char *object = key_object(r, r->keys[k]);
    if (object) spanf(e, CB_FONT_REGULAR, " (%s)", object);
    int opens = 0;
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *ps = &d->passages[i];
      if (!ps->lock || strcmp(ps->lock, r->keys[k]) != 0) continue;
      const cb_room *a = cb_dungeon_room(d, ps->from), *b = cb_dungeon_room(d, ps->to);
      if (r->contents && a && b && a->level != b->level) /* a stairs lock names both levels */
        spanf(e, CB_FONT_REGULAR, "%s L%d %d\xe2\x80\x93L%d %d", opens ? "," : " opens", a->level, a->number,
              b->level, b->number);
      else if (r->contents)
        spanf(e, CB_FONT_REGULAR, "%s %d\xe2\x80\x93%d", opens ? "," : " opens", a ? a->number : 0,
              b ? b->number : 0);
      else
        spanf(e, CB_FONT_REGULAR, "%s the locked %s %d\xe2\x80\x93%d", opens ? " and" : " is here: it opens",
              cb_passage_kind_name(ps->kind), a ? a->number : 0, b ? b->number : 0);
      opens++;
    }
    span(e, CB_FONT_REGULAR, opens ? "." : " is here.");
  }
}

/* A room's ways in passage order, each with its words and, in `next`, the
 * next way of its kind (-1: none); `first` marks the first way of each kind. */
typedef struct ways {
  exit_words *x;
  int *next, n;
  bool *first;
} ways;

/* Links each of the room's ways to the next of its kind, one pass with a
 * table of the kinds' last ways (open addressing on their words). */
static int ways_group(ways *w) {
  size_t cap = 16;
  while (cap < 2 * (size_t)w->n)
    cap *= 2;
  int *last = cb_malloc(cap * sizeof *last);
  if (!last) return -1;
  for (size_t k = 0; k < cap; k++)
    last[k] = -1;
  for (int k = 0; k < w->n; k++) {
    size_t h = cb_hash_str(CB_HASH_START, w->x[k].what) & (cap - 1);
    while (last[h] >= 0 && strcmp(w->x[last[h]].what, w->x[k].what) != 0)
      h = (h + 1) & (cap - 1);
    w->first[k] = last[h] < 0;
    if (last[h] >= 0) w->next[last[h]] = k;
    w->next[k] = -1;
    last[h] = k;
  }
  free(last);
  return 0;
}

static int ways_of(ways *w, const cb_dungeon *d, const cb_room *r) {
  int n = 0;
  for (int i = 0; i < d->npassages; i++)
    n += d->passages[i].from == r->id || d->passages[i].to == r->id;
  w->x = cb_malloc(((size_t)n + 1) * sizeof *w->x);
  w->next = cb_malloc(((size_t)n + 1) * sizeof *w->next);
  w->first = cb_malloc(((size_t)n + 1) * sizeof *w->first);
  if (!w->x || !w->next || !w->first) return -1;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (ps->from == r->id || ps->to == r->id) w->x[w->n++] = passage_words(d, ps, r->id);
  }
  return ways_group(w);
}

/* One kind's ways, from its first (returns how many): "; obstructed: 2 (60 ft), 7 (120 ft)". */
static int kind_text(entry *e, const ways *w, int head, int shown, const char *lead) {
  const char *what = w->x[head].what;
  int before = shown;
  for (int k = head; k >= 0; k = w->next[k], shown++) {
    char buf[512];
    if (!shown) span(e, CB_FONT_ITALIC, lead);
    if (k == head && what[0]) {
      if (shown) span(e, CB_FONT_REGULAR, "; ");
      span(e, CB_FONT_ITALIC, what);
    }
    const char *sep = k == head ? (what[0] ? " " : shown ? "; " : "") : ", ";
    exit_text(&w->x[k], false, buf, sizeof buf);
    spanf(e, CB_FONT_REGULAR, "%s%s", sep, buf);
  }
  return shown - before;
}

/* The compact form names each kind of way once: "Exits: 4 (30 ft), 9;
 * obstructed 2 (60 ft), 7 (120 ft)" (no chain of colons), the plain ways first, then the kinds
 * in the order they first come. */
static int exits_grouped(entry *e, const cb_dungeon *d, const cb_room *r, const char *lead) {
  ways w = {0};
  int shown = 0;
  if (ways_of(&w, d, r))
    e->oom = true;
  else
    /* the plain ways first, so that none reads as one of the kind named before it */
    for (int plain = 1; plain >= 0; plain--)
      for (int k = 0; k < w.n; k++)
        if (w.first[k] && (w.x[k].what[0] == '\0') == plain) shown += kind_text(e, &w, k, shown, lead);
  free(w.x);
  free(w.next);
  free(w.first);
  return shown;
}

/* Every sentence in buf (cap bytes) begins with a capital, as a theme's
 * joined notes may not, and a length ("20 ft") is never parted at a line's end. */
static void capitals(char *buf, size_t cap) {
  for (char *s = buf; (s = strstr(s, ". ")); s++)
    if (s[2] >= 'a' && s[2] <= 'z') s[2] = (char)(s[2] - 32);
  /* no chain of three colons in a sentence: the first becomes a comma */
  for (char *s = buf; *s; s += strcspn(s, "."), s += *s != '\0') {
    size_t end = strcspn(s, "."), colons = 0;
    for (size_t i = 0; i < end; i++)
      colons += s[i] == ':';
    if (colons > 2) *strchr(s, ':') = ',';
  }
  for (char *s = buf; (s = strstr(s, " ft")); s++) {
    size_t n = strlen(buf);
    if (s == buf || s[-1] < '0' || s[-1] > '9' || (s[3] >= 'a' && s[3] <= 'z') || n + 3 > cap) continue;
    memmove(s + 2, s + 1, n - (size_t)(s - buf)); /* the space becomes a no-break space */
    s[0] = '\xc2', s[1] = '\xa0';
  }
}

static void said(entry *e, cb_font font, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* printf text added in one font, put right by capitals, in storage sized
 * from the text (never cut). */
static void said(entry *e, cb_font font, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  size_t cap = k < 0 ? 0 : 2 * (size_t)k + 1; /* capitals widens each " ft" by a byte */
  char *buf = k < 0 ? NULL : cb_malloc(cap);
  if (!buf) {
    e->oom = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  capitals(buf, cap);
  span(e, font, buf);
  free(buf);
}

static char upper(char c) { return (char)(c >= 'a' && c <= 'z' ? c - 32 : c); }

/* text as a sentence, with a capital and a full stop, after `pre`. */
static void sentence_after(entry *e, cb_font font, const char *pre, const char *text) {
  size_t n = strlen(text);
  if (n == 0) return;
  said(e, font, "%s%c%s%s", pre, upper(text[0]), text + 1, strchr(".!?", text[n - 1]) ? "" : ".");
}

static void sentence(entry *e, cb_font font, const char *text) { sentence_after(e, font, " ", text); }

/* A sentence as written, with a capital and a full stop, no space before it. */
static void sentence_bare(entry *e, const char *text) { sentence_after(e, CB_FONT_REGULAR, "", text); }

/* The sheet's form of a text where the theme wrote one. */
static const char *brief(const cb_key_style *ks, const char *text, const char *short_form) {
  return !ks->full && short_form ? short_form : text;
}

/* The ways whose note the sheet prints: those a party must pass somehow (the
 * booklet adds how secrets are found). */
static const unsigned PASSED = CB_FLAG_TRAPPED | CB_FLAG_SOFT_LOCKED | CB_FLAG_OBSTRUCTED | CB_FLAG_LOCKED;

/* The passage before passage i closed by the same lock and told the same way, or -1. */
static int told_before(const cb_dungeon *d, int i) {
  const cb_passage *ps = &d->passages[i];
  for (int j = 0; ps->lock && j < i; j++) {
    const cb_passage *q = &d->passages[j];
    if (q->lock && q->note && !strcmp(q->lock, ps->lock) && !strcmp(q->note, ps->note)) return j;
  }
  return -1;
}

/* What passage i is and how it is passed, once for the way: under the room
 * it leads from (or to, for a way in from outside). A lock that closes
 * several ways is told at the first; the others point to it. */
static void way_note(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r, int i) {
  char buf[512];
  const cb_passage *ps = &d->passages[i];
  if (!ps->note || (ps->from != r->id && ps->to != r->id)) return;
  if (!ks->full && !(ps->flags & PASSED)) return;
  if ((d->nroster || !ks->full) && ps->from != r->id && cb_dungeon_room(d, ps->from)) return;
  int other = ps->from == r->id ? ps->to : ps->from;
  const cb_room *o = cb_dungeon_room(d, other);
  const char *note = brief(ks, ps->note, ps->note_short);
  /* "Trap: loose floor: pit" reads "Trap to 1: loose floor: pit", no chain of three colons */
  size_t lead = strcspn(note, ": ");
  bool named = lead > 0 && lead < 12 && note[lead] == ':' && note[lead + 1] == ' ';
  snprintf(buf, sizeof buf, " %.*s%sto\xc2\xa0%d: ", named ? (int)lead : 0, note, named ? " " : "",
           o ? o->number : 0);
  if (!named) buf[1] = 'T';
  if (named) note += lead + 2;
  if (named && strchr(note, ':')) buf[strlen(buf) - 2] = ',';
  span(e, CB_FONT_ITALIC, buf);
  int j = told_before(d, i);
  if (j >= 0) {
    const cb_room *a = cb_dungeon_room(d, d->passages[j].from), *b = cb_dungeon_room(d, d->passages[j].to);
    snprintf(buf, sizeof buf, "locked as the way %d\xe2\x80\x93%d is (%s).", a ? a->number : 0,
             b ? b->number : 0, ps->lock);
    span(e, CB_FONT_REGULAR, buf);
    return;
  }
  if (named) /* the rest goes on after the colon, in lower case as written */
    said(e, CB_FONT_REGULAR, "%s%s", note, note[0] && strchr(".!?", note[strlen(note) - 1]) ? "" : ".");
  else
    sentence_bare(e, note);
  const cb_room *kr =
      ks->full && ps->lock && !strstr(note, ps->lock) ? cb_dungeon_key_room(d, ps->lock) : NULL;
  if (kr)
    snprintf(buf, sizeof buf, " Its key, %s, lies in room %d.", ps->lock, kr->number),
        span(e, CB_FONT_REGULAR, buf);
}

static void room_exits(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r,
                       const char *lead) {
  char buf[512];
  int npaths = 0;
  if (ks->compact)
    npaths = exits_grouped(e, d, r, lead);
  else
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *ps = &d->passages[i];
      if (ps->from != r->id && ps->to != r->id) continue;
      exit_words x = passage_words(d, ps, r->id);
      exit_text(&x, true, buf, sizeof buf);
      span(e, npaths ? CB_FONT_REGULAR : CB_FONT_ITALIC, npaths ? "; " : lead);
      span(e, CB_FONT_REGULAR, buf);
      npaths++;
    }
  span(e, CB_FONT_REGULAR, npaths ? "." : " No way on.");
  for (int i = 0; i < d->npassages; i++)
    way_note(e, ks, d, r, i);
}

/* Coins read as they are written ("300 sp, 40 gp"); the sum is for the rest. */
static bool is_coins(const char *what) {
  size_t n = strlen(what);
  return !strcmp(what, "Coins") || (what[0] >= '0' && what[0] <= '9' && n > 3 &&
                                    (!strcmp(what + n - 3, " sp") || !strcmp(what + n - 3, " gp")));
}

/* "4 ghouls, cracking bones": the number, the kind and what they do; the
 * stat line is the roster's, and Hit Dice ride along where there is none. */
static void monster_words(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_monster *m) {
  char hd[32] = ""; /* Hit Dice are at most CB_TEXT_HD bytes */
  const char *doing = brief(ks, m->doing, m->doing_short);
  if (m->kind < 0 || m->kind >= d->nroster || ks->full) snprintf(hd, sizeof hd, " (HD\xc2\xa0%s)", m->hd);
  if (m->count == 1)
    spanf(e, CB_FONT_REGULAR, " %c%s%s%s%s.", upper(m->name[0]), m->name + (m->name[0] != '\0'), hd,
          doing ? ", " : "", doing ? doing : "");
  else
    spanf(e, CB_FONT_REGULAR, " %d %s%s%s%s.", m->count, m->name, hd, doing ? ", " : "", doing ? doing : "");
}

static void room_treasure(entry *e, const cb_key_style *ks, const cb_room *r) {
  const cb_contents *c = r->contents;
  int shown = 0;
  for (int i = 0; i < c->ntreasure; i++) {
    const cb_treasure *t = &c->treasure[i];
    if (is_key_object(r, t->what)) continue;
    const char *lead = shown ? "; " : ks->full ? " Treasure: " : " ";
    if (!strcmp(t->what, "Coins"))
      spanf(e, CB_FONT_REGULAR, "%s%d gp", lead, t->value); /* the sheet stays terse */
    else if (t->value > 0 && !is_coins(t->what))
      spanf(e, CB_FONT_REGULAR, "%s%s (%d gp)", lead, t->what, t->value);
    else
      spanf(e, CB_FONT_REGULAR, "%s%s", lead, t->what);
    shown++;
  }
  if (shown && !strchr(".!?", last_char(e))) span(e, CB_FONT_REGULAR, ".");
}

/* The generator's sentence, in a buffer tried again twice the size until it holds it whole. */
static void key_note(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  for (size_t cap = 2048;; cap *= 2) {
    char *note = cb_malloc(cap);
    if (!note) {
      e->oom = true;
      return;
    }
    note[0] = '\0';
    ks->note(d, r, note, cap);
    bool whole = strlen(note) + 1 < cap;
    if (whole && note[0]) spanf(e, CB_FONT_REGULAR, " %s", note);
    free(note);
    if (whole) return;
  }
}

static void room_contents(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  const cb_contents *c = r->contents;
  if (c->name) spanf(e, CB_FONT_BOLD, " %s.", c->name);
  if (r->tags & (CB_TAG_GOAL | CB_TAG_UNREACHABLE))
    span(e, CB_FONT_ITALIC, r->tags & CB_TAG_GOAL ? " Goal." : " Unreachable.");
  if (c->dressing) sentence(e, CB_FONT_REGULAR, brief(ks, c->dressing, c->dressing_short));
  for (int i = 0; i < c->nmonsters; i++)
    monster_words(e, ks, d, &c->monsters[i]);
  if (c->trap) {
    const char *trigger = brief(ks, c->trap->trigger, c->trap->trigger_short),
               *effect = brief(ks, c->trap->effect, c->trap->effect_short);
    /* "Trap, the top shelf: ladder bucks: 1d6" where the effect has a colon of its own */
    said(e, CB_FONT_REGULAR, " Trap%s %s: %s.", strchr(effect, ':') ? "," : ":", trigger, effect);
    if (ks->full) spanf(e, CB_FONT_ITALIC, " Tell: %s.", c->trap->tell);
  }
  if (c->special) sentence(e, CB_FONT_REGULAR, brief(ks, c->special, c->special_short));
  room_treasure(e, ks, r);
}

static void build_entry(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  entry_head(e, ks, d, r);
  if (r->contents) {
    /* a stocked room: the procedure's own numbers stay in the appendix */
    room_contents(e, ks, d, r);
    room_keys(e, d, r);
    room_exits(e, ks, d, r, " Exits: ");
    return;
  }
  char buf[512];
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof tag_words / sizeof *tag_words; i++) {
    if (!(r->tags & tag_words[i].tag) || tag_words[i].tag == CB_TAG_KEY) continue;
    if (tag_words[i].tag == CB_TAG_START && (r->tags & CB_TAG_MAIN_START)) continue;
    n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%s", n ? ", " : "",
                          tag_words[i].word);
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
  room_keys(e, d, r);
  room_exits(e, ks, d, r, " Leads to ");
  if (ks->note) key_note(e, ks, d, r);
}

int cb_key_extras(const cb_dungeon *d) {
  return d->theme && d->hook[0] && d->nwandering == 6 ? 2 + d->nroster : 0;
}

int cb_key_extras_full(const cb_dungeon *d) { return cb_key_extras(d); }

/* A roster entry: the kind's stat line; the booklet adds what it is. */
static void roster_entry(entry *e, const cb_key_style *ks, const cb_roster_entry *k, bool first) {
  spanf(e, CB_FONT_BOLD, "%s%c%s. ", first ? "Roster. " : "", upper(k->name[0]),
        k->name + (k->name[0] != '\0'));
  /* a stat's name and its value never part at a line's end */
  spanf(e, CB_FONT_REGULAR, "AC\xc2\xa0%d\xc2\xa0[%d], HD\xc2\xa0%s, %s %s, ML\xc2\xa0%d, MV\xc2\xa0%s.",
        k->ac, 19 - k->ac, k->hd, k->attacks, k->damage, k->morale, k->move);
  if (ks->full && k->about && k->about[0]) span(e, CB_FONT_REGULAR, " "), span(e, CB_FONT_ITALIC, k->about);
}

/* The d6 wandering-monster table, its rows "1: 4 giant bats (HD 1/2)". */
static void wandering_entry(entry *e, const cb_key_style *ks, const cb_dungeon *d) {
  span(e, CB_FONT_BOLD, "Wandering monsters");
  span(e, CB_FONT_REGULAR, ks->full ? " (d6; check every other turn, a 1 on a d6 meets one)." : " (d6).");
  for (int i = 0; i < d->nwandering; i++) {
    const cb_monster *m = &d->wandering[i];
    spanf(e, CB_FONT_BOLD, " %d:", i + 1);
    if (m->count == 1)
      spanf(e, CB_FONT_REGULAR, " %s (HD\xc2\xa0%s)", m->name, m->hd);
    else
      spanf(e, CB_FONT_REGULAR, " %d %s (HD\xc2\xa0%s)", m->count, m->name, m->hd);
    if (ks->full && m->doing) spanf(e, CB_FONT_REGULAR, ", %s", m->doing);
    span(e, CB_FONT_REGULAR, i + 1 < d->nwandering ? ";" : ".");
  }
}

/* The extras in the order booklet.md asks: the hook (extra 0), the roster,
 * one kind an entry, then the wandering-monster table. */
static void build_extra(entry *e, const cb_key_style *ks, const cb_dungeon *d, int extra) {
  entry_clear(e);
  if (extra >= 1 && extra <= d->nroster) {
    roster_entry(e, ks, &d->roster[extra - 1], extra == 1);
    return;
  }
  if (extra > d->nroster) {
    wandering_entry(e, ks, d);
    return;
  }
  span(e, CB_FONT_BOLD, "The hook. ");
  const char *h0 = brief(ks, d->hook[0], d->hook_short[0]),
             *h1 = d->hook[1] ? brief(ks, d->hook[1], d->hook_short[1]) : NULL;
  spanf(e, CB_FONT_ITALIC, "%s%s%s", h0, h1 ? " " : "", h1 ? h1 : "");
}

/* The room entry i stands for (-1: an extra, *extra gets which): rooms
 * first, or the extras first where the style asks. */
static int entry_index(const cb_key_style *ks, const cb_dungeon *d, int i, int *extra) {
  int room = ks->extras_first ? i - ks->extras : i;
  if (room >= 0 && room < d->nrooms) return room;
  *extra = ks->extras_first ? i : i - d->nrooms;
  return -1;
}

static void build(entry *e, const cb_key_style *ks, const cb_dungeon *d, int i) {
  int extra = 0, room = entry_index(ks, d, i, &extra);
  if (room >= 0)
    build_entry(e, ks, d, &d->rooms[room]);
  else
    build_extra(e, ks, d, extra);
}

/* Entry i's place in the memo: the rooms, then the extras. */
static int memo_at(const cb_key_style *ks, const cb_dungeon *d, int i) {
  int extra = 0, room = entry_index(ks, d, i, &extra);
  return room >= 0 ? room : d->nrooms + extra;
}

/* Entry i's spans, `at` its place in the memo: built once where the memo
 * keeps them, else into scratch; NULL when out of memory. */
static entry *entry_of(entry *scratch, const cb_key_style *ks, const cb_dungeon *d, int i, int at) {
  cb_key_memo *m = ks->memo;
  entry *e = m && m->built && at < m->n ? &m->built[2 * at + ks->compact] : scratch;
  if (e->ready && e != scratch) return e;
  build(e, ks, d, i);
  e->ready = entry_spans(e) != NULL;
  return e->ready ? e : NULL;
}

/* The entry's lines from f->first_word on (drawn at x, y when p is given); -1 when out of memory. */
static int flow_entry(cb_page *p, const cb_flow *f, const entry *e, double x, double y) {
  int lines = -1;
  if (e) cb_text_flow(p, f, e->spans, e->n, x, y, &lines, NULL);
  return lines;
}

static double column_width(double w, int cols, double gutter) { return (w - gutter * (cols - 1)) / cols; }

static int fill(entry *e, cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int from, int *word,
                double x, double y, double w, double h, int cols, double gutter) {
  double cw = column_width(w, cols, gutter);
  cb_flow f = {ks->m, ks->size, ks->leading, cw, ks->ink, draw_mark, (void *)ks->symbols};
  int col = 0, i = from, skip = word ? *word : 0; /* skip: the entry's first word still to draw */
  int per_column = (int)(h / ks->leading) > 0 ? (int)(h / ks->leading) : 1;
  double cy = 0;
  int total = d->nrooms + ks->extras;
  while (i < total && col < cols) {
    /* the lines left of the entry; a whole one's count is kept across fills */
    int at = memo_at(ks, d, i);
    int rest = skip == 0 ? memo_lines(ks->memo, at, ks, cw) : 0;
    const entry *en = NULL;
    if (!rest) {
      en = entry_of(e, ks, d, i, at);
      f.first_word = skip, f.limit = 0, f.stop_word = NULL;
      rest = flow_entry(NULL, &f, en, 0, 0);
      if (rest < 0) return -1;
      if (skip == 0) memo_keep(ks->memo, at, ks, cw, rest);
    }
    if (cy > 0 && cy + rest * ks->leading > h) {
      col++;
      cy = 0;
      continue;
    }
    /* taller than a whole column: as many lines as fit, the rest runs on */
    int now = cy == 0 && rest > per_column ? per_column : rest, stop = 0;
    if (p || now < rest) {
      if (!en) en = entry_of(e, ks, d, i, at);
      f.first_word = skip, f.limit = now, f.stop_word = &stop;
      if (flow_entry(p, &f, en, x + col * (cw + gutter), y + cy + ks->size) < 0) return -1;
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

cb_status cb_key_lines(const cb_key_style *ks, const cb_dungeon *d, int i, double w, int *lines,
                       cb_error *err) {
  entry e = {0};
  cb_flow f = {ks->m, ks->size, ks->leading, w, ks->ink, draw_mark, (void *)ks->symbols};
  int n = flow_entry(NULL, &f, entry_of(&e, ks, d, i, memo_at(ks, d, i)), 0, 0);
  entry_free(&e);
  if (n < 0) return cb_error_oom(err);
  *lines = n;
  return CB_OK;
}

/* fill with its own scratch: the next entry, -1 when out of memory. */
static int fill_from(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int from, int *word, double x,
                     double y, double w, double h, int cols, double gutter) {
  entry e = {0};
  int next = fill(&e, p, ks, d, from, word, x, y, w, h, cols, gutter);
  entry_free(&e);
  return next;
}

cb_status cb_key_fill(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int *next, int *word, double x,
                      double y, double w, double h, int cols, double gutter, cb_error *err) {
  int at = fill_from(p, ks, d, *next, word, x, y, w, h, cols, gutter);
  if (at < 0) return cb_error_oom(err);
  *next = at;
  return CB_OK;
}

cb_status cb_key_height(const cb_key_style *ks, const cb_dungeon *d, int from, double w, double h, int cols,
                        double gutter, double *out, cb_error *err) {
  cb_key_style k = *ks;
  if (!k.memo && !(k.memo = cb_key_memo_new(d))) return cb_error_oom(err);
  double lo = 0, hi = h;
  int total = d->nrooms + ks->extras, all = fill_from(NULL, &k, d, from, NULL, 0, 0, w, h, cols, gutter);
  if (all >= 0 && all < total) hi = INFINITY;
  if (all == total) {
    /* never so short that an entry splits: the tallest entry is the floor */
    for (int i = from; i < total; i++) {
      int extra = 0, room = entry_index(&k, d, i, &extra);
      if (room >= 0) lo = fmax(lo, memo_lines(k.memo, room, &k, column_width(w, cols, gutter)) * k.leading);
    }
    int at_lo = lo < hi ? fill_from(NULL, &k, d, from, NULL, 0, 0, w, lo, cols, gutter) : 0;
    if (at_lo < 0) all = -1;
    if (at_lo == total) hi = lo;
    for (int it = 0; all >= 0 && it < 20 && hi - lo > 0.5; it++) {
      double mid = (lo + hi) / 2;
      int n = fill_from(NULL, &k, d, from, NULL, 0, 0, w, mid, cols, gutter);
      if (n < 0)
        all = -1;
      else if (n == total)
        hi = mid;
      else
        lo = mid;
    }
  }
  if (!ks->memo) cb_key_memo_free(k.memo);
  if (all < 0) return cb_error_oom(err);
  *out = hi;
  return CB_OK;
}

cb_status cb_key_fill_balanced(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int *next, int *word,
                               double x, double y, double w, double h, int cols, double gutter,
                               cb_error *err) {
  double bh = h;
  if (cols >= 2 && !(word && *word) && cb_key_height(ks, d, *next, w, h, cols, gutter, &bh, err) != CB_OK)
    return CB_EINTERNAL;
  return cb_key_fill(p, ks, d, next, word, x, y, w, isfinite(bh) ? bh : h, cols, gutter, err);
}
