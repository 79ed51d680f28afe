#include "stock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/text.h"
#include "model/check.h"
#include "model/rng.h"

/* Stocking's own streams of the seed: the dungeon uses 0, jitter others.
 * The generator's name goes in too, so that one seed gives each generator
 * its own theme and words. */
static const uint64_t STOCK_STREAM = 0x53746f636bu, THEME_STREAM = 0x5468656d65u;

static uint64_t stream(const cb_dungeon *d, uint64_t base) {
  return base ^ ((uint64_t)cb_hash_str(CB_HASH_START, d->generator) << 32);
}

/* A kind's rows dealt like cards: no row comes twice before all have come. */
typedef struct deck {
  int *order;
  int n, next;
} deck;

typedef struct stocker {
  cb_dungeon *d;
  const cb_theme *t;
  cb_rng rng;
  int depth;
  bool marks; /* the procedure marks rooms (cards, dropdice): its word stands */
  deck decks[CB_THEME_KIND_COUNT];
} stocker;

static int draw(stocker *s, cb_theme_kind k) {
  deck *dk = &s->decks[k];
  if (dk->next >= dk->n) {
    for (int i = 0; i < dk->n; i++)
      dk->order[i] = i;
    cb_rng_shuffle(&s->rng, dk->order, dk->n);
    dk->next = 0;
  }
  return dk->order[dk->next++];
}

static const char *field(const stocker *s, cb_theme_kind k, int row, int f) {
  return s->t->rows[k][row]->fields[f];
}
static const char *deal(stocker *s, cb_theme_kind k, int f) { return field(s, k, draw(s, k), f); }

static int roll(stocker *s, cb_dice dc) {
  int v = dc.plus;
  if (!dc.sides) return dc.n;
  for (int i = 0; i < dc.n; i++)
    v += cb_rng_die(&s->rng, dc.sides);
  return v;
}

/* A monster row for a depth; the deck skips rows of other depths. */
static const cb_theme_monster *monster_at(stocker *s, int depth) {
  if (depth > CB_STOCK_MAX_DEPTH) depth = CB_STOCK_MAX_DEPTH;
  const cb_theme_monster *m = NULL;
  for (int tries = 0; tries < 2 * s->t->n[CB_THEME_MONSTER]; tries++) {
    m = &s->t->monsters[draw(s, CB_THEME_MONSTER)];
    if (m->lo <= depth && depth <= m->hi) return m;
  }
  return m;
}

static cb_monster group(stocker *s, int depth) {
  const cb_theme_monster *m = monster_at(s, depth);
  int n = roll(s, m->count);
  if (n < 1) n = 1;
  return (cb_monster){n == 1 ? m->singular : m->plural, n, m->hd, deal(s, CB_THEME_DOING, 1)};
}

static int add_monster(stocker *s, cb_contents *c, cb_monster m) {
  cb_monster *a = cb_arena_alloc(s->d->arena, (size_t)c->nmonsters + 1, sizeof *a);
  if (!a) return -1;
  if (c->nmonsters) memcpy(a, c->monsters, (size_t)c->nmonsters * sizeof *a);
  a[c->nmonsters++] = m;
  c->monsters = a;
  return 0;
}

static int add_treasure(stocker *s, cb_contents *c, const char *what, int value) {
  cb_treasure *a = cb_arena_alloc(s->d->arena, (size_t)c->ntreasure + 1, sizeof *a);
  if (!a) return -1;
  if (c->ntreasure) memcpy(a, c->treasure, (size_t)c->ntreasure * sizeof *a);
  a[c->ntreasure++] = (cb_treasure){what, value};
  c->treasure = a;
  return 0;
}

/* Coins by depth and, by chance, an item (worth more deeper) or a magic item;
 * `rich` for the goal: more coins, always an item. */
static int treasure(stocker *s, cb_contents *c, bool rich) {
  int coins = (cb_d6(&s->rng) + cb_d6(&s->rng)) * 10 * s->depth * (rich ? 3 : 1);
  if (add_treasure(s, c, "Coins", coins)) return -1;
  if (rich || cb_d6(&s->rng) <= 2) {
    int i = draw(s, CB_THEME_TREASURE);
    int value = s->t->treasure_value[i] * (s->depth + 1) / 2;
    if (add_treasure(s, c, field(s, CB_THEME_TREASURE, i, 1), value > 0 ? value : 1)) return -1;
  }
  if (cb_d6(&s->rng) <= (rich ? 3 : 1) && add_treasure(s, c, deal(s, CB_THEME_MAGIC, 1), 0)) return -1;
  return 0;
}

static int trap(stocker *s, cb_contents *c) {
  cb_trap *tr = cb_arena_alloc(s->d->arena, 1, sizeof *tr);
  if (!tr) return -1;
  /* one trap in three is a hazard of the place instead */
  cb_theme_kind k = cb_d6(&s->rng) <= 2 ? CB_THEME_HAZARD : CB_THEME_TRAP;
  int i = draw(s, k);
  *tr = (cb_trap){field(s, k, i, 1), field(s, k, i, 2), field(s, k, i, 3)};
  c->trap = tr;
  return 0;
}

/* The classic basic-game odds on a d6, where the procedure leaves contents
 * open: 1-2 monster (treasure on 1-3), 3 trap (1-2), 4 special, 5-6 empty (1). */
static int classic(stocker *s, cb_contents *c) {
  int r = cb_d6(&s->rng), odds;
  if (r <= 2) {
    if (add_monster(s, c, group(s, s->depth))) return -1;
    odds = 3;
  } else if (r == 3) {
    if (trap(s, c)) return -1;
    odds = 2;
  } else if (r == 4) {
    c->special = deal(s, CB_THEME_SPECIAL, 1);
    odds = 0;
  } else {
    odds = 1;
  }
  return cb_d6(&s->rng) <= odds ? treasure(s, c, false) : 0;
}

/* A card's word: diamonds easy or moderate, hearts tough, a high value a
 * deeper monster; black cards no monster; face cards a trap (red) or a
 * wonder (black); 8-10 black a sign of what lies ahead. */
static int card_strength(const cb_room *r, int depth) {
  size_t n = r->card ? strlen(r->card) : 0;
  char suit = n ? r->card[n - 1] : 'D';
  return depth + (suit == 'H') + (r->value >= 7) + (r->value >= 11);
}

static int marked(stocker *s, cb_room *r, cb_contents *c) {
  bool cards = r->card != NULL;
  size_t n = cards ? strlen(r->card) : 0;
  bool black = cards && (r->card[n - 1] == 'S' || r->card[n - 1] == 'C');
  if ((r->tags & CB_TAG_ENCOUNTER) && !(r->tags & CB_TAG_BOSS) && !black) {
    int depth = cards ? card_strength(r, s->depth) : s->depth;
    if (r->tags & CB_TAG_GOAL) depth += 2;
    if (add_monster(s, c, group(s, depth))) return -1;
  }
  if (cards && !black && r->value >= 11 && trap(s, c)) return -1;
  if (cards && black && r->value >= 8) c->special = deal(s, CB_THEME_SPECIAL, 1);
  if ((r->tags & CB_TAG_TREASURE) && !(r->tags & CB_TAG_GOAL)) return treasure(s, c, false);
  return 0;
}

static int stock_room(stocker *s, cb_room *r) {
  cb_contents *c = cb_arena_alloc(s->d->arena, 1, sizeof *c);
  if (!c) return -1;
  r->contents = c;
  c->name = deal(s, CB_THEME_ROOM, 1);
  c->dressing = deal(s, CB_THEME_DRESSING, 1);
  if (r->tags & CB_TAG_BOSS) {
    int b = draw(s, CB_THEME_BOSS);
    if (add_monster(s, c,
                    (cb_monster){field(s, CB_THEME_BOSS, b, 1), 1, field(s, CB_THEME_BOSS, b, 2),
                                 field(s, CB_THEME_BOSS, b, 3)}))
      return -1;
  }
  if (r->tags & CB_TAG_GOAL) {
    c->special = deal(s, CB_THEME_GOAL, 1);
    if (!s->marks && !(r->tags & CB_TAG_BOSS) && add_monster(s, c, group(s, s->depth + 2))) return -1;
    if (treasure(s, c, true)) return -1;
  }
  if (r->tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) {
    /* how the party gets in: never a lair */
    c->special = deal(s, CB_THEME_ENTRANCE, 1);
    return s->marks && !(r->tags & CB_TAG_GOAL) ? marked(s, r, c) : 0;
  }
  if (r->tags & CB_TAG_GOAL) return s->marks ? marked(s, r, c) : 0;
  return s->marks ? marked(s, r, c) : classic(s, c);
}

/* The goal where the procedure made none: the room farthest from the
 * entrance in passages, never the entrance itself. */
static int place_goal(cb_dungeon *d) {
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].tags & CB_TAG_GOAL) return 0;
  int start = cb_check_start_room(d), far = -1;
  if (start < 0) return 0;
  cb_graph g;
  int *dist = cb_malloc((size_t)d->nrooms * sizeof *dist),
      *queue = cb_malloc((size_t)d->nrooms * sizeof *queue);
  if (!dist || !queue || cb_graph_build(d, &g)) {
    free(dist);
    free(queue);
    return -1;
  }
  for (int i = 0; i < d->nrooms; i++)
    dist[i] = -1;
  int head = 0, tail = 0;
  dist[start] = 0, queue[tail++] = start;
  while (head < tail) {
    int u = queue[head++];
    if (dist[u] > 0 && (far < 0 || dist[u] > dist[far])) far = u;
    for (int k = g.start[u]; k < g.start[u + 1]; k++)
      if (dist[g.room[k]] < 0) dist[g.room[k]] = dist[u] + 1, queue[tail++] = g.room[k];
  }
  int st = 0;
  if (far >= 0) {
    d->rooms[far].tags |= CB_TAG_GOAL;
    st = cb_dungeon_log(d, "Stocking: room %d, %d passages from the entrance (the farthest), holds the goal.",
                        d->rooms[far].number, dist[far]);
  }
  cb_graph_free(&g);
  free(dist);
  free(queue);
  return st;
}

/* Which lock row each key id got, so that one key's locks read alike. */
typedef struct lock_rows {
  const char **key;
  int *row, n;
} lock_rows;

static int lock_row(stocker *s, lock_rows *lr, const char *key, bool *fresh) {
  for (int i = 0; i < lr->n; i++)
    if (!strcmp(lr->key[i], key)) return *fresh = false, lr->row[i];
  *fresh = true;
  lr->key[lr->n] = key;
  return lr->row[lr->n++] = draw(s, CB_THEME_LOCK);
}

/* The key object goes with the key, in its room's treasure: "K1: the
 * sexton's skull-headed key" (layout/key.c reads it back by the prefix). */
static int key_object(stocker *s, const char *key, const char *object) {
  cb_room *r = (cb_room *)cb_dungeon_key_room(s->d, key);
  if (!r || !r->contents) return 0;
  const char *what = cb_arena_printf(s->d->arena, "%s: %s", key, object);
  return what ? add_treasure(s, r->contents, what, 0) : -1;
}

/* Each sentence of a note begins with a capital, whatever case its row has. */
static void capital(char *buf, size_t at, size_t cap) {
  if (at < cap && buf[at] >= 'a' && buf[at] <= 'z') buf[at] = (char)(buf[at] - 32);
}

static int note_passage(stocker *s, cb_passage *p, lock_rows *lr) {
  char *buf = NULL; /* as long as the theme's rows make it */
  size_t cap = 0, n = 0, at;
  int st = 0;
#define ADD(...)                                                                                             \
  (at = n, st = st ? st : cb_text_appendf(&buf, &cap, &n, __VA_ARGS__), st ? (void)0 : capital(buf, at, n))
  if (p->flags & CB_FLAG_LOCKED) {
    bool fresh;
    int i = lock_row(s, lr, p->lock, &fresh);
    ADD("%s, opened by %s. ", field(s, CB_THEME_LOCK, i, 1), field(s, CB_THEME_LOCK, i, 2));
    if (fresh && key_object(s, p->lock, field(s, CB_THEME_LOCK, i, 2))) st = -1;
  }
  if (p->flags & (CB_FLAG_SOFT_LOCKED | CB_FLAG_OBSTRUCTED)) {
    int i = draw(s, CB_THEME_SOFT_LOCK);
    ADD("%s: %s. ", field(s, CB_THEME_SOFT_LOCK, i, 1), field(s, CB_THEME_SOFT_LOCK, i, 2));
  }
  if (p->flags & CB_FLAG_SECRET) {
    int i = draw(s, CB_THEME_SECRET);
    ADD("%s: %s. ", field(s, CB_THEME_SECRET, i, 1), field(s, CB_THEME_SECRET, i, 2));
  }
  if (p->flags & CB_FLAG_TRAPPED) {
    int i = draw(s, CB_THEME_TRAP);
    ADD("Trapped: %s: %s. Tell: %s. ", field(s, CB_THEME_TRAP, i, 1), field(s, CB_THEME_TRAP, i, 2),
        field(s, CB_THEME_TRAP, i, 3));
  }
#undef ADD
  if (!st && n > 0) {
    buf[n - 1] = '\0'; /* the last space */
    if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 32);
    cb_utf8_shorten(buf, CB_TEXT_MAX); /* what the JSON reader takes back */
    p->note = cb_arena_strdup(s->d->arena, buf);
    st = p->note ? 0 : -1;
  }
  free(buf);
  return st;
}

static int note_passages(stocker *s) {
  lock_rows lr = {cb_malloc(((size_t)s->d->npassages + 1) * sizeof *lr.key),
                  cb_malloc(((size_t)s->d->npassages + 1) * sizeof *lr.row), 0};
  int st = lr.key && lr.row ? 0 : -1;
  for (int i = 0; i < s->d->npassages && !st; i++)
    st = note_passage(s, &s->d->passages[i], &lr);
  free(lr.key);
  free(lr.row);
  return st;
}

/* The whole dungeon's words: title (unless the user gave one), hook and the
 * d6 wandering-monster table at this depth. */
static int dungeon_words(stocker *s) {
  cb_dungeon *d = s->d;
  bool titled = false;
  for (int i = 0; i < d->noptions; i++)
    titled |= !strcmp(d->options[i].name, "title");
  if (!titled) {
    const char *title =
        cb_arena_printf(d->arena, "The %s %s", deal(s, CB_THEME_TITLE_A, 1), deal(s, CB_THEME_TITLE_B, 1));
    if (!title || cb_dungeon_set_title(d, title)) return -1;
  }
  int h = draw(s, CB_THEME_HOOK);
  d->hook[0] = field(s, CB_THEME_HOOK, h, 1), d->hook[1] = field(s, CB_THEME_HOOK, h, 2);
  d->wandering = cb_arena_alloc(d->arena, 6, sizeof *d->wandering);
  if (!d->wandering) return -1;
  d->nwandering = 6;
  for (int i = 0; i < 6; i++)
    d->wandering[i] = group(s, s->depth);
  return 0;
}

static int deal_decks(stocker *s) {
  for (int k = 0; k < CB_THEME_KIND_COUNT; k++) {
    s->decks[k].n = s->t->n[k];
    s->decks[k].next = s->t->n[k];
    s->decks[k].order = cb_malloc(((size_t)s->t->n[k] + 1) * sizeof *s->decks[k].order);
    if (!s->decks[k].order) return -1;
  }
  return 0;
}

/* Theme strings live in the theme, which the caller frees: copy what the
 * dungeon keeps into its arena. */
static const char *keep(cb_dungeon *d, const char *s) { return s ? cb_arena_strdup(d->arena, s) : NULL; }

static int adopt_strings(cb_dungeon *d) {
  int bad = 0;
  d->theme = keep(d, d->theme);
  bad |= !d->theme;
  for (int i = 0; i < 2; i++)
    bad |= !(d->hook[i] = keep(d, d->hook[i]));
  for (int i = 0; i < d->nwandering; i++) {
    cb_monster *m = &d->wandering[i];
    bad |= !(m->name = keep(d, m->name)) | !(m->hd = keep(d, m->hd)) | !(m->doing = keep(d, m->doing));
  }
  for (int i = 0; i < d->nrooms; i++) {
    cb_contents *c = d->rooms[i].contents;
    if (!c) continue;
    c->name = keep(d, c->name), c->dressing = keep(d, c->dressing), c->special = keep(d, c->special);
    for (int k = 0; k < c->nmonsters; k++) {
      cb_monster *m = &c->monsters[k];
      m->name = keep(d, m->name), m->hd = keep(d, m->hd), m->doing = keep(d, m->doing);
      bad |= !m->name || !m->hd;
    }
    for (int k = 0; k < c->ntreasure; k++)
      bad |= !(c->treasure[k].what = keep(d, c->treasure[k].what));
    if (c->trap) {
      cb_trap *t = c->trap;
      bad |= !(t->trigger = keep(d, t->trigger)) | !(t->effect = keep(d, t->effect)) |
             !(t->tell = keep(d, t->tell));
    }
  }
  return bad ? -1 : 0;
}

static int default_locks(const cb_dungeon *d, const cb_stock_options *o) {
  if (o->locks_set) return o->locks;
  if (o->faithful || d->nrooms < 8) return 0;
  for (int i = 0; i < d->npassages; i++)
    if (d->passages[i].flags & CB_FLAG_LOCKED) return 0;
  return 1;
}

static int stock_all(stocker *s, const cb_stock_options *o) {
  cb_dungeon *d = s->d;
  if (deal_decks(s) || place_goal(d)) return -1;
  int want = default_locks(d, o), placed = cb_stock_locks(d, want);
  if (placed < 0) return -1;
  if (placed < want && cb_dungeon_log(d, "Stocking: %d lock%s asked, %d place%s on the way to the goal.",
                                      want, want == 1 ? "" : "s", placed, placed == 1 ? "" : "s"))
    return -1;
  if (dungeon_words(s)) return -1;
  for (int i = 0; i < d->nrooms; i++)
    if (stock_room(s, &d->rooms[i])) return -1;
  if (note_passages(s)) return -1;
  d->theme = s->t->name;
  d->depth = s->depth;
  return adopt_strings(d);
}

cb_status cb_stock(cb_dungeon *d, const cb_theme *t, const cb_stock_options *o, cb_error *err) {
  if (o->depth < 0 || o->depth > CB_STOCK_MAX_DEPTH)
    return cb_error_set(err, CB_EINPUT, "--depth %d: a depth is 1..10", o->depth);
  if (o->locks < 0 || o->locks > CB_STOCK_MAX_LOCKS)
    return cb_error_set(err, CB_EINPUT, "--locks %d: at most %d", o->locks, CB_STOCK_MAX_LOCKS);
  stocker s = {.d = d, .t = t, .depth = o->depth ? o->depth : 1};
  s.marks = d->marks_rooms;
  cb_rng_seed(&s.rng, d->seed, stream(d, STOCK_STREAM));
  int bad = stock_all(&s, o);
  for (int k = 0; k < CB_THEME_KIND_COUNT; k++)
    free(s.decks[k].order);
  if (bad || d->oom) return cb_error_oom(err);
  return CB_OK;
}

cb_status cb_stock_run(cb_dungeon *d, const cb_stock_options *o, cb_error *err) {
  const char *name = o->theme;
  if (!name) {
    int n;
    const char *const *names = cb_theme_shipped(&n);
    cb_rng r;
    cb_rng_seed(&r, d->seed, stream(d, THEME_STREAM));
    name = names[cb_rng_below(&r, (uint32_t)n)];
  }
  cb_theme t;
  cb_status st = cb_theme_read(name, &t, err);
  if (st == CB_OK) {
    char depth[8], locks[8];
    snprintf(depth, sizeof depth, "%d", o->depth ? o->depth : 1);
    snprintf(locks, sizeof locks, "%d", o->locks);
    if (cb_dungeon_set_option(d, "theme", name, false) || cb_dungeon_set_option(d, "depth", depth, true) ||
        (o->locks_set && cb_dungeon_set_option(d, "locks", locks, true)))
      st = cb_error_oom(err);
  }
  if (st == CB_OK) st = cb_stock(d, &t, o, err);
  cb_theme_free(&t);
  return st;
}
