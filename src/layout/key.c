#include "key.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"

typedef struct entry {
  cb_span spans[128];
  int n;
  char buf[65536];
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

/* Adds text to the entry; text in the font of the span before it joins that
 * span, so a room of many ways keeps within the entry's spans. */
static void span(entry *e, cb_font font, const char *text) {
  cb_span *last = e->n > 0 ? &e->spans[e->n - 1] : NULL;
  size_t len = strlen(text);
  if (last && last->font == font && !last->object &&
      last->text + strlen(last->text) + 1 == e->buf + e->used && e->used + len <= sizeof e->buf) {
    memcpy(e->buf + e->used - 1, text, len + 1); /* over the span's terminating NUL */
    e->used += len;
    return;
  }
  if (e->n < (int)(sizeof e->spans / sizeof *e->spans))
    e->spans[e->n++] = (cb_span){font, keep(e, text), NULL, 0};
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
} exit_words;

static exit_words passage_words(const cb_dungeon *d, const cb_passage *ps, int here) {
  exit_words x = {.length_ft = ps->length_ft};
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

/* "5 (secret, 30 ft)"; with_what false leaves the kind out ("5 (30 ft)"). */
static void exit_text(const exit_words *x, bool with_what, char *out, size_t cap) {
  const char *what = with_what ? x->what : "";
  char len[32] = "";
  if (x->length_ft >= 0) snprintf(len, sizeof len, "%.0f ft", x->length_ft);
  if (what[0] || len[0])
    snprintf(out, cap, "%s (%s%s%s)", x->dest, what, what[0] && len[0] ? ", " : "", len);
  else
    snprintf(out, cap, "%s", x->dest);
}

/* Number, level, marks and the card or die value: every entry's head. */
static void entry_head(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  char buf[64];
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
  if (r->card)
    snprintf(buf, sizeof buf, " (%s)", r->card), span(e, CB_FONT_REGULAR, buf);
  else if (r->value != CB_NO_VALUE)
    snprintf(buf, sizeof buf, " (%d)", r->value), span(e, CB_FONT_REGULAR, buf);
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
  char buf[512];
  for (int k = 0; k < r->nkeys; k++) {
    span(e, CB_FONT_REGULAR, " ");
    span(e, CB_FONT_BOLD, r->keys[k]);
    const char *object = key_object(r, r->keys[k]);
    if (object) snprintf(buf, sizeof buf, " (%s)", object), span(e, CB_FONT_REGULAR, buf);
    int opens = 0;
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *ps = &d->passages[i];
      if (!ps->lock || strcmp(ps->lock, r->keys[k]) != 0) continue;
      const cb_room *a = cb_dungeon_room(d, ps->from), *b = cb_dungeon_room(d, ps->to);
      if (r->contents && a && b && a->level != b->level) /* a stairs lock names both levels */
        snprintf(buf, sizeof buf, "%s L%d %d\xe2\x80\x93L%d %d", opens ? "," : " opens", a->level, a->number,
                 b->level, b->number);
      else if (r->contents)
        snprintf(buf, sizeof buf, "%s %d\xe2\x80\x93%d", opens ? "," : " opens", a ? a->number : 0,
                 b ? b->number : 0);
      else
        snprintf(buf, sizeof buf, "%s the locked %s %d\xe2\x80\x93%d", opens ? " and" : " is here: it opens",
                 cb_passage_kind_name(ps->kind), a ? a->number : 0, b ? b->number : 0);
      span(e, CB_FONT_REGULAR, buf);
      opens++;
    }
    span(e, CB_FONT_REGULAR, opens ? "." : " is here.");
  }
}

/* The compact form names each kind of way once: "Exits: 4 (30 ft), 9;
 * obstructed: 2 (60 ft), 7 (120 ft)", the plain ways first, then the kinds
 * in the order they first come. A room's ways past the 256th are named one
 * by one. */
static int exits_grouped(entry *e, const cb_dungeon *d, const cb_room *r, const char *lead) {
  char buf[512];
  int shown = 0;
  unsigned char done[256] = {0}; /* the passages (of this room, in order) already named */
  /* the plain ways first, so that none reads as one of the kind named before it */
  for (int plain = 1; plain >= 0; plain--)
    for (int g = 0, pass = 0; g < d->npassages; g++) {
      const cb_passage *head = &d->passages[g];
      if (head->from != r->id && head->to != r->id) continue;
      int at = pass++;
      if (at < 256 && done[at]) continue;
      exit_words hx = passage_words(d, head, r->id);
      if ((hx.what[0] == '\0') != plain) continue;
      for (int i = g, k = at; i < d->npassages; i++) {
        const cb_passage *ps = &d->passages[i];
        if (ps->from != r->id && ps->to != r->id) continue;
        int me = k++;
        exit_words x = passage_words(d, ps, r->id);
        if (me >= 256 ? i != g : done[me] || strcmp(x.what, hx.what) != 0) continue;
        if (me < 256) done[me] = 1;
        bool first_of_group = i == g;
        if (!shown) span(e, CB_FONT_ITALIC, lead);
        if (first_of_group && hx.what[0]) {
          if (shown) span(e, CB_FONT_REGULAR, "; ");
          span(e, CB_FONT_ITALIC, hx.what);
        }
        /* the separator rides with the way: a room of many ways keeps to the entry's spans */
        const char *sep = first_of_group ? (hx.what[0] ? ": " : shown ? "; " : "") : ", ";
        size_t n = (size_t)snprintf(buf, sizeof buf, "%s", sep);
        exit_text(&x, false, buf + n, sizeof buf - n);
        span(e, CB_FONT_REGULAR, buf);
        shown++;
      }
    }
  return shown;
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
  /* the long form says what each lock, trap and secret way is, once for the
   * way: under the room it leads from (or to, for a way out) */
  for (int i = 0; ks->full && i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (!ps->note || (ps->from != r->id && ps->to != r->id)) continue;
    if (d->nroster && ps->from != r->id && cb_dungeon_room(d, ps->from)) continue;
    int other = ps->from == r->id ? ps->to : ps->from;
    const cb_room *o = cb_dungeon_room(d, other);
    snprintf(buf, sizeof buf, " To %d: ", o ? o->number : 0);
    span(e, CB_FONT_ITALIC, buf);
    span(e, CB_FONT_REGULAR, ps->note);
    const cb_room *kr = ps->lock && !strstr(ps->note, ps->lock) ? cb_dungeon_key_room(d, ps->lock) : NULL;
    if (kr)
      snprintf(buf, sizeof buf, " Its key, %s, lies in room %d.", ps->lock, kr->number),
          span(e, CB_FONT_REGULAR, buf);
  }
}

static void sentence(entry *e, cb_font font, const char *text) {
  char buf[1024];
  size_t n = strlen(text);
  snprintf(buf, sizeof buf, " %c%s%s", text[0] >= 'a' && text[0] <= 'z' ? text[0] - 32 : text[0], text + 1,
           n && strchr(".!?", text[n - 1]) ? "" : ".");
  span(e, font, buf);
}

/* The sheet's form of a text where the theme wrote one. */
static const char *brief(const cb_key_style *ks, const char *text, const char *short_form) {
  return !ks->full && short_form ? short_form : text;
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
  char buf[1024], hd[32] = "";
  /* the compact form of a crawlbook/2 key (no roster) leaves doings out, as it always did */
  const char *doing =
      ks->compact && !m->doing_short && !d->nroster ? NULL : brief(ks, m->doing, m->doing_short);
  if (m->kind < 0 || m->kind >= d->nroster || ks->full) snprintf(hd, sizeof hd, " (HD %s)", m->hd);
  if (m->count == 1)
    snprintf(buf, sizeof buf, " %c%s%s%s%s.",
             m->name[0] >= 'a' && m->name[0] <= 'z' ? m->name[0] - 32 : m->name[0], m->name + 1, hd,
             doing ? ", " : "", doing ? doing : "");
  else
    snprintf(buf, sizeof buf, " %d %s%s%s%s.", m->count, m->name, hd, doing ? ", " : "", doing ? doing : "");
  span(e, CB_FONT_REGULAR, buf);
}

static void room_treasure(entry *e, const cb_key_style *ks, const cb_room *r) {
  const cb_contents *c = r->contents;
  char buf[1024];
  int shown = 0;
  for (int i = 0; i < c->ntreasure; i++) {
    const cb_treasure *t = &c->treasure[i];
    if (is_key_object(r, t->what)) continue;
    const char *lead = shown ? "; " : ks->full ? " Treasure: " : " ";
    if (!strcmp(t->what, "Coins"))
      snprintf(buf, sizeof buf, "%s%d gp", lead, t->value); /* the sheet stays terse */
    else if (t->value > 0 && !is_coins(t->what))
      snprintf(buf, sizeof buf, "%s%s (%d gp)", lead, t->what, t->value);
    else
      snprintf(buf, sizeof buf, "%s%s", lead, t->what);
    span(e, CB_FONT_REGULAR, buf);
    shown++;
  }
  if (shown) span(e, CB_FONT_REGULAR, strchr(".!?", buf[strlen(buf) - 1]) ? "" : ".");
}

static void room_contents(entry *e, const cb_key_style *ks, const cb_dungeon *d, const cb_room *r) {
  const cb_contents *c = r->contents;
  char buf[1024];
  if (c->name) snprintf(buf, sizeof buf, " %s.", c->name), span(e, CB_FONT_BOLD, buf);
  if (r->tags & (CB_TAG_GOAL | CB_TAG_UNREACHABLE))
    span(e, CB_FONT_ITALIC, r->tags & CB_TAG_GOAL ? " Goal." : " Unreachable.");
  if (c->dressing && !ks->compact) sentence(e, CB_FONT_REGULAR, brief(ks, c->dressing, c->dressing_short));
  for (int i = 0; i < c->nmonsters; i++)
    monster_words(e, ks, d, &c->monsters[i]);
  if (c->trap) {
    snprintf(buf, sizeof buf, " Trap: %s: %s.", brief(ks, c->trap->trigger, c->trap->trigger_short),
             brief(ks, c->trap->effect, c->trap->effect_short));
    span(e, CB_FONT_REGULAR, buf);
    if (ks->full) snprintf(buf, sizeof buf, " Tell: %s.", c->trap->tell), span(e, CB_FONT_ITALIC, buf);
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
  if (ks->note) {
    char note[2048] = "";
    ks->note(d, r, note, sizeof note);
    if (note[0]) {
      span(e, CB_FONT_REGULAR, " ");
      span(e, CB_FONT_REGULAR, note);
    }
  }
}

int cb_key_extras(const cb_dungeon *d) { return d->theme && d->hook[0] && d->nwandering == 6 ? 2 : 0; }

int cb_key_extras_full(const cb_dungeon *d) { return cb_key_extras(d) ? 2 + d->nroster : 0; }

/* The hook (extra 0) or the wandering-monster table (extra 1). */
static void build_extra(entry *e, const cb_key_style *ks, const cb_dungeon *d, int extra) {
  char buf[1024];
  e->n = 0;
  e->used = 0;
  if (extra >= 2) { /* the booklet's roster: one kind a entry */
    const cb_roster_entry *k = &d->roster[extra - 2];
    snprintf(buf, sizeof buf, "%s%c%s. ", extra == 2 ? "Roster. " : "",
             k->name[0] >= 'a' && k->name[0] <= 'z' ? k->name[0] - 32 : k->name[0], k->name + 1);
    span(e, CB_FONT_BOLD, buf);
    snprintf(buf, sizeof buf, "AC %d [%d], HD %s, %s %s, ML %d, MV %s. ", k->ac, 19 - k->ac, k->hd,
             k->attacks, k->damage, k->morale, k->move);
    span(e, CB_FONT_REGULAR, buf);
    span(e, CB_FONT_ITALIC, k->about);
    return;
  }
  if (extra == 0) {
    span(e, CB_FONT_BOLD, "The hook. ");
    snprintf(buf, sizeof buf, "%s %s", d->hook[0], d->hook[1] ? d->hook[1] : "");
    span(e, CB_FONT_ITALIC, buf);
    return;
  }
  span(e, CB_FONT_BOLD, "Wandering monsters");
  span(e, CB_FONT_REGULAR, ks->full ? " (d6; check every other turn, a 1 on a d6 meets one):" : " (d6):");
  for (int i = 0; i < d->nwandering; i++) {
    const cb_monster *m = &d->wandering[i];
    snprintf(buf, sizeof buf, " %d", i + 1);
    span(e, CB_FONT_BOLD, buf);
    if (m->count == 1)
      snprintf(buf, sizeof buf, " %s (HD %s)", m->name, m->hd);
    else
      snprintf(buf, sizeof buf, " %d %s (HD %s)", m->count, m->name, m->hd);
    span(e, CB_FONT_REGULAR, buf);
    if (ks->full && m->doing) snprintf(buf, sizeof buf, ", %s", m->doing), span(e, CB_FONT_REGULAR, buf);
    span(e, CB_FONT_REGULAR, i + 1 < d->nwandering ? ";" : ".");
  }
}

static void build(entry *e, const cb_key_style *ks, const cb_dungeon *d, int i) {
  if (i < d->nrooms)
    build_entry(e, ks, d, &d->rooms[i]);
  else
    build_extra(e, ks, d, i - d->nrooms);
}

int cb_key_fill(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int from, int *word, double x,
                double y, double w, double h, int cols, double gutter) {
  static entry e; /* 70 KB of scratch; the layout runs on one thread */
  double cw = (w - gutter * (cols - 1)) / cols;
  cb_flow f = {ks->m, ks->size, ks->leading, cw, ks->ink, draw_mark, (void *)ks->symbols};
  int col = 0, i = from, skip = word ? *word : 0; /* skip: the entry's first word still to draw */
  int per_column = (int)(h / ks->leading) > 0 ? (int)(h / ks->leading) : 1;
  double cy = 0;
  int total = d->nrooms + ks->extras;
  while (i < total && col < cols) {
    /* the lines left of the entry; a whole one's count is kept across fills */
    cb_key_memo *mem = ks->memo && skip == 0 && i < d->nrooms ? &ks->memo[i] : NULL;
    int rest =
            mem && mem->lines > 0 && mem->width == cw && mem->size == ks->size && mem->compact == ks->compact
                ? mem->lines
                : 0,
        built = 0;
    if (!rest) {
      build(&e, ks, d, i);
      built = 1;
      f.first_word = skip, f.limit = 0, f.stop_word = NULL;
      rest = cb_text_flow(NULL, &f, e.spans, e.n, 0, 0);
      if (rest < 0) return -1;
      if (mem) *mem = (cb_key_memo){cw, ks->size, ks->compact, rest};
    }
    if (cy > 0 && cy + rest * ks->leading > h) {
      col++;
      cy = 0;
      continue;
    }
    /* taller than a whole column: as many lines as fit, the rest runs on */
    int now = cy == 0 && rest > per_column ? per_column : rest, stop = 0;
    if (p || now < rest) {
      if (!built) build(&e, ks, d, i);
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
  int total = d->nrooms + ks->extras, all = cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, h, cols, gutter);
  if (all >= 0 && all < total) hi = INFINITY;
  if (all == total) {
    /* never so short that an entry splits: the tallest entry is the floor */
    for (int i = from; i < d->nrooms; i++)
      lo = fmax(lo, k.memo[i].lines * k.leading);
    int at_lo = lo < hi ? cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, lo, cols, gutter) : 0;
    if (at_lo < 0) all = -1;
    if (at_lo == total) hi = lo;
    for (int it = 0; all >= 0 && it < 20 && hi - lo > 0.5; it++) {
      double mid = (lo + hi) / 2;
      int n = cb_key_fill(NULL, &k, d, from, NULL, 0, 0, w, mid, cols, gutter);
      if (n < 0)
        all = -1;
      else if (n == total)
        hi = mid;
      else
        lo = mid;
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
