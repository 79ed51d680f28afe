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
  if (x->length_ft >= 0)
    snprintf(len, sizeof len,
             "%.0f\xc2\xa0"
             "ft",
             x->length_ft); /* never parted */
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
  /* a stocked room's card or die says what it is in the booklet, and is
   * left off the sheet, whose legend does not explain it (stocking.md) */
  bool said = !r->contents || ks->full;
  const char *as = r->contents ? (r->card ? "card\xc2\xa0" : "die\xc2\xa0") : "";
  if (r->card && said)
    snprintf(buf, sizeof buf, " (%s%s)", as, r->card), span(e, CB_FONT_REGULAR, buf);
  else if (r->value != CB_NO_VALUE && said)
    snprintf(buf, sizeof buf, " (%s%d)", as, r->value), span(e, CB_FONT_REGULAR, buf);
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
 * obstructed 2 (60 ft), 7 (120 ft)" (no chain of colons), the plain ways first, then the kinds
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
        const char *sep = first_of_group ? (hx.what[0] ? " " : shown ? "; " : "") : ", ";
        size_t n = (size_t)snprintf(buf, sizeof buf, "%s", sep);
        exit_text(&x, false, buf + n, sizeof buf - n);
        span(e, CB_FONT_REGULAR, buf);
        shown++;
      }
    }
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

static void sentence(entry *e, cb_font font, const char *text) {
  char buf[1024];
  size_t n = strlen(text);
  snprintf(buf, sizeof buf, " %c%s%s", text[0] >= 'a' && text[0] <= 'z' ? text[0] - 32 : text[0], text + 1,
           n && strchr(".!?", text[n - 1]) ? "" : ".");
  capitals(buf, sizeof buf);
  span(e, font, buf);
}

/* A sentence as written, with a capital and a full stop, no space before it. */
static void sentence_bare(entry *e, const char *text) {
  char buf[1024];
  size_t n = strlen(text);
  snprintf(buf, sizeof buf, "%c%s%s", text[0] >= 'a' && text[0] <= 'z' ? text[0] - 32 : text[0], text + 1,
           n && strchr(".!?", text[n - 1]) ? "" : ".");
  capitals(buf, sizeof buf);
  span(e, CB_FONT_REGULAR, buf);
}

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
    snprintf(buf, sizeof buf, "%s%s", note, note[0] && strchr(".!?", note[strlen(note) - 1]) ? "" : "."),
        capitals(buf, sizeof buf), span(e, CB_FONT_REGULAR, buf);
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
  char buf[1024], hd[32] = "";
  const char *doing = brief(ks, m->doing, m->doing_short);
  if (m->kind < 0 || m->kind >= d->nroster || ks->full) snprintf(hd, sizeof hd, " (HD\xc2\xa0%s)", m->hd);
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
  if (c->dressing) sentence(e, CB_FONT_REGULAR, brief(ks, c->dressing, c->dressing_short));
  for (int i = 0; i < c->nmonsters; i++)
    monster_words(e, ks, d, &c->monsters[i]);
  if (c->trap) {
    const char *trigger = brief(ks, c->trap->trigger, c->trap->trigger_short),
               *effect = brief(ks, c->trap->effect, c->trap->effect_short);
    /* "Trap, the top shelf: ladder bucks: 1d6" where the effect has a colon of its own */
    snprintf(buf, sizeof buf, " Trap%s %s: %s.", strchr(effect, ':') ? "," : ":", trigger, effect);
    capitals(buf, sizeof buf);
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

int cb_key_extras(const cb_dungeon *d) {
  return d->theme && d->hook[0] && d->nwandering == 6 ? 2 + d->nroster : 0;
}

int cb_key_extras_full(const cb_dungeon *d) { return cb_key_extras(d); }

/* A roster entry: the kind's stat line; the booklet adds what it is. */
static void roster_entry(entry *e, const cb_key_style *ks, const cb_roster_entry *k, bool first) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s%c%s. ", first ? "Roster. " : "",
           k->name[0] >= 'a' && k->name[0] <= 'z' ? k->name[0] - 32 : k->name[0], k->name + 1);
  span(e, CB_FONT_BOLD, buf);
  /* a stat's name and its value never part at a line's end */
  snprintf(buf, sizeof buf, "AC\xc2\xa0%d\xc2\xa0[%d], HD\xc2\xa0%s, %s %s, ML\xc2\xa0%d, MV\xc2\xa0%s.",
           k->ac, 19 - k->ac, k->hd, k->attacks, k->damage, k->morale, k->move);
  span(e, CB_FONT_REGULAR, buf);
  if (ks->full && k->about && k->about[0]) span(e, CB_FONT_REGULAR, " "), span(e, CB_FONT_ITALIC, k->about);
}

/* The d6 wandering-monster table, its rows "1: 4 giant bats (HD 1/2)". */
static void wandering_entry(entry *e, const cb_key_style *ks, const cb_dungeon *d) {
  char buf[1024];
  span(e, CB_FONT_BOLD, "Wandering monsters");
  span(e, CB_FONT_REGULAR, ks->full ? " (d6; check every other turn, a 1 on a d6 meets one)." : " (d6).");
  for (int i = 0; i < d->nwandering; i++) {
    const cb_monster *m = &d->wandering[i];
    snprintf(buf, sizeof buf, " %d:", i + 1);
    span(e, CB_FONT_BOLD, buf);
    if (m->count == 1)
      snprintf(buf, sizeof buf, " %s (HD\xc2\xa0%s)", m->name, m->hd);
    else
      snprintf(buf, sizeof buf, " %d %s (HD\xc2\xa0%s)", m->count, m->name, m->hd);
    span(e, CB_FONT_REGULAR, buf);
    if (ks->full && m->doing) snprintf(buf, sizeof buf, ", %s", m->doing), span(e, CB_FONT_REGULAR, buf);
    span(e, CB_FONT_REGULAR, i + 1 < d->nwandering ? ";" : ".");
  }
}

/* The extras in the order booklet.md asks: the hook (extra 0), the roster,
 * one kind an entry, then the wandering-monster table. */
static void build_extra(entry *e, const cb_key_style *ks, const cb_dungeon *d, int extra) {
  char buf[1024];
  e->n = 0;
  e->used = 0;
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
  snprintf(buf, sizeof buf, "%s%s%s", h0, h1 ? " " : "", h1 ? h1 : "");
  span(e, CB_FONT_ITALIC, buf);
}

/* The room entry i stands for (-1: an extra, *extra gets which): rooms
 * first, or the extras first where the style asks. */
static int entry_room(const cb_key_style *ks, const cb_dungeon *d, int i, int *extra) {
  int room = ks->extras_first ? i - ks->extras : i;
  if (room >= 0 && room < d->nrooms) return room;
  *extra = ks->extras_first ? i : i - d->nrooms;
  return -1;
}

static void build(entry *e, const cb_key_style *ks, const cb_dungeon *d, int i) {
  int extra = 0, room = entry_room(ks, d, i, &extra);
  if (room >= 0)
    build_entry(e, ks, d, &d->rooms[room]);
  else
    build_extra(e, ks, d, extra);
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
    int extra = 0, room = entry_room(ks, d, i, &extra);
    cb_key_memo *mem = ks->memo && skip == 0 && room >= 0 ? &ks->memo[room] : NULL;
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
    for (int i = from; i < total; i++) {
      int extra = 0, room = entry_room(&k, d, i, &extra);
      if (room >= 0) lo = fmax(lo, k.memo[room].lines * k.leading);
    }
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
