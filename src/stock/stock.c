#include "stock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/text.h"
#include "model/bfs.h"
#include "model/check.h"
#include "model/recorded.h"
#include "stocker.h"

/* Stocking's own streams of the seed: the dungeon uses 0, jitter others.
 * The generator's name goes in too, so that one seed gives each generator
 * its own theme and words; the numbers stream takes the depth as well. */
static const uint64_t WORDS_STREAM = 0x53746f636bu, NUMBERS_STREAM = 0x4e756d6265u,
                      THEME_STREAM = 0x5468656d65u;

static uint64_t stream(const cb_dungeon *d, uint64_t base) {
  return base ^ ((uint64_t)cb_hash_str(CB_HASH_START, d->generator) << 32);
}

typedef cb_stocker stocker;

/* ---- room kinds and names ---- */

static cb_theme_role role_of(const cb_room *r) {
  if (r->tags & CB_TAG_GOAL) return CB_ROLE_GOAL;
  if (r->tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) return CB_ROLE_ENTRANCE;
  return CB_ROLE_ANY;
}

/* A kind of the role with a name left, drawn at random; -1 when none. */
static int kind_with_name(stocker *s, cb_theme_role role) {
  int n = 0;
  for (int k = 0; k < s->t->nrooms; k++)
    n += s->t->rooms[k].role == role && s->names_used[k] < s->t->rooms[k].nnames;
  if (!n) return -1;
  int at = (int)cb_rng_below(&s->words, (uint32_t)n);
  for (int k = 0; k < s->t->nrooms; k++)
    if (s->t->rooms[k].role == role && s->names_used[k] < s->t->rooms[k].nnames && at-- == 0) return k;
  return -1;
}

static const char *const ordinals[] = {"Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth"};

/* The room's kind and name: its role's kinds first, then any kind; once
 * every name is used, a new round tells repeats apart ("Second barracks"). */
static int name_room(stocker *s, cb_room *r, cb_contents *c) {
  cb_theme_role role = role_of(r);
  int k = kind_with_name(s, role);
  if (k < 0 && role != CB_ROLE_ANY) k = kind_with_name(s, CB_ROLE_ANY);
  for (int pass = 0; k < 0 && pass < 3; pass++)
    k = kind_with_name(s, (cb_theme_role)pass);
  if (k < 0) { /* every name used: the next round */
    s->round++;
    memset(s->names_used, 0, (size_t)s->t->nrooms * sizeof *s->names_used);
    k = kind_with_name(s, role);
    if (k < 0) k = kind_with_name(s, CB_ROLE_ANY);
    if (k < 0) k = kind_with_name(s, role == CB_ROLE_GOAL ? CB_ROLE_ENTRANCE : CB_ROLE_GOAL);
  }
  const cb_theme_room *kind = &s->t->rooms[k];
  s->room_kind[r - s->d->rooms] = k;
  int at = (s->dress_at[k] + s->names_used[k]++) % kind->nnames;
  const char *name = kind->names[at];
  if (s->round) {
    int o = s->round - 1 < 7 ? s->round - 1 : 6;
    name = cb_arena_printf(s->d->arena, "%s %c%s", ordinals[o],
                           name[0] >= 'A' && name[0] <= 'Z' ? name[0] + 32 : name[0], name + 1);
    if (!name) return -1;
  }
  c->name = name;
  /* each dressing line once in a dungeon: a kind out of lines leaves the room bare */
  /* name i goes with dressing line i where a kind writes them in pairs */
  if (s->dress[k] < kind->ndressing) {
    int di = kind->ndressing == kind->nnames ? at : (s->dress_at[k] + s->dress[k]) % kind->ndressing;
    s->dress[k]++;
    const cb_text *dr = &kind->dressing[di];
    c->dressing = dr->text, c->dressing_short = dr->brief;
  }
  return 0;
}

/* ---- monsters ---- */

static int add_monster(stocker *s, cb_contents *c, cb_monster m) {
  cb_monster *a = cb_arena_alloc(s->d->arena, (size_t)c->nmonsters + 1, sizeof *a);
  if (!a) return -1;
  if (c->nmonsters) memcpy(a, c->monsters, (size_t)c->nmonsters * sizeof *a);
  a[c->nmonsters++] = m;
  c->monsters = a;
  return 0;
}

/* The kind of a group: from who may be found here, among the situation's
 * faction, rival and beasts (the faction when the room names none of them). */
static int pick_kind(stocker *s, unsigned who, bool strong) {
  const cb_theme_situation *sit = s->sit;
  const int *lists[3] = {sit->faction, sit->rival, sit->beasts};
  int ns[3] = {sit->nfaction, sit->nrival, sit->nbeasts}, avail[3], n = 0;
  for (int g = 0; g < 3; g++)
    if ((who & (1u << g)) && ns[g]) avail[n++] = g;
  int g = n ? avail[cb_rng_below(&s->words, (uint32_t)n)] : 0;
  int a = lists[g][cb_rng_below(&s->words, (uint32_t)ns[g])];
  int b = lists[g][cb_rng_below(&s->words, (uint32_t)ns[g])];
  /* a strong card picks the tougher of two draws */
  const cb_theme_monster *ma = &s->t->monsters[a], *mb = &s->t->monsters[b];
  bool b_tougher = mb->hd > ma->hd || (mb->hd == ma->hd && mb->hd_plus > ma->hd_plus);
  return strong && b_tougher ? b : a;
}

/* A doing of kind m, each in turn so that a dungeon repeats few. */
static const cb_text *doing_of(stocker *s, int m) {
  const cb_theme_monster *tm = &s->t->monsters[m];
  return &tm->doing[s->doings_used[m]++ % tm->ndoing];
}

static cb_monster group_of(stocker *s, int m, int extra, bool boss) {
  const cb_theme_monster *tm = &s->t->monsters[m];
  const cb_text *doing = doing_of(s, m);
  int n = boss ? 1 : cb_stocker_count(s, tm, extra), kind = cb_stocker_roster(s, m, boss);
  const cb_roster_entry *e = kind >= 0 ? &s->d->roster[kind] : NULL;
  if (!e) s->d->oom = true;
  return (cb_monster){
      n == 1 ? tm->singular : tm->plural, n, e ? e->hd : "1", doing->text, doing->brief, kind};
}

static int group(stocker *s, cb_contents *c, const cb_theme_room *kind, int extra, bool strong) {
  return add_monster(s, c, group_of(s, pick_kind(s, kind->who, strong), extra, false));
}

/* ---- traps, specials, treasure ---- */

static int trap(stocker *s, cb_contents *c, const cb_theme_room *kind, int k) {
  cb_trap *tr = cb_arena_alloc(s->d->arena, 1, sizeof *tr);
  if (!tr) return -1;
  const cb_theme_trap *t = &kind->traps[s->traps_used[k]++ % kind->ntraps];
  *tr = (cb_trap){t->trigger.text, t->effect.text, t->tell, t->trigger.brief, t->effect.brief};
  c->trap = tr;
  return 0;
}

static void special(stocker *s, cb_contents *c, const cb_theme_room *kind, int k) {
  if (s->specials_used[k] >= kind->nspecials) return; /* said once: the room stays plain */
  const cb_text *sp = &kind->specials[s->specials_used[k]++];
  c->special = sp->text, c->special_short = sp->brief;
}

/* The classic basic-game odds on a d6, where the procedure leaves contents
 * open: 1-2 monster (treasure on 1-3), 3 trap (1-2), 4 special, 5-6 empty (1). */
static int classic(stocker *s, cb_contents *c, const cb_theme_room *kind, int k) {
  int r = cb_d6(&s->words), odds = 1;
  if (r <= 2) {
    if (group(s, c, kind, 0, false)) return -1;
    odds = 3;
  } else if (r == 3) {
    if (trap(s, c, kind, k)) return -1;
    odds = 2;
  } else if (r == 4) {
    special(s, c, kind, k), odds = 0;
  }
  return cb_d6(&s->words) <= odds ? cb_stocker_treasure(s, c, kind, false) : 0;
}

/* The procedure's word on a room: its tags, and what its room rules add
 * (a card's suit and value, say). */
static int marked(stocker *s, cb_room *r, cb_contents *c, int k) {
  const cb_theme_room *kind = &s->t->rooms[k];
  cb_room_word w = {0};
  if (s->d->room_rules) s->d->room_rules(r, &w);
  if ((r->tags & CB_TAG_ENCOUNTER) && !(r->tags & CB_TAG_BOSS) && !w.no_monster &&
      group(s, c, kind, w.more + ((r->tags & CB_TAG_GOAL) != 0), w.tough))
    return -1;
  if (w.trap && trap(s, c, kind, k)) return -1;
  if (w.wonder) special(s, c, kind, k);
  if ((r->tags & CB_TAG_TREASURE) && !(r->tags & CB_TAG_GOAL)) return cb_stocker_treasure(s, c, kind, false);
  return 0;
}

/* The dungeon's goal (the first goal room) holds what the hook names; other
 * goal rooms are lesser prizes, and say so. */
static int goal_room(stocker *s, cb_room *r, cb_contents *c, const cb_theme_room *kind) {
  if (!s->d->goal_room) {
    s->d->goal_room = r->id;
    c->special = s->goal->about.text, c->special_short = s->goal->about.brief;
  } else {
    c->special = "A lesser prize: not what the party came for, but worth carrying home";
    c->special_short = "A lesser prize";
  }
  return cb_stocker_treasure(s, c, kind, true);
}

static int stock_room(stocker *s, cb_room *r, bool boss) {
  cb_contents *c = cb_arena_alloc(s->d->arena, 1, sizeof *c);
  if (!c) return -1;
  r->contents = c;
  if (name_room(s, r, c)) return -1;
  int k = s->room_kind[r - s->d->rooms];
  const cb_theme_room *kind = &s->t->rooms[k];
  if (boss) {
    if (add_monster(s, c, group_of(s, s->sit->boss, 0, true))) return -1;
    s->d->boss_room = r->id;
  }
  if (r->tags & CB_TAG_GOAL) {
    if (!s->marks && !boss && group(s, c, kind, 1, false)) return -1;
    if (goal_room(s, r, c, kind)) return -1;
  }
  if (r->tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) {
    /* how the party gets in (an entrance kind's dressing says it): never a lair */
    const cb_text *e = &s->t->list[CB_LIST_ENTRANCE][cb_stocker_deal(s, &s->lists[CB_LIST_ENTRANCE])][0];
    if (kind->role == CB_ROLE_ENTRANCE)
      special(s, c, kind, k);
    else if (!(r->tags & CB_TAG_GOAL))
      c->special = e->text, c->special_short = e->brief;
    return s->marks && !(r->tags & CB_TAG_GOAL) ? marked(s, r, c, k) : 0;
  }
  if (r->tags & CB_TAG_GOAL) return s->marks ? marked(s, r, c, k) : 0;
  return s->marks ? marked(s, r, c, k) : classic(s, c, kind, k);
}

/* The goal where the procedure made none: the room farthest from the
 * entrance in passages, never the entrance itself. */
static int place_goal(cb_dungeon *d) {
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].tags & CB_TAG_GOAL) return 0;
  int start = cb_check_start_room(d), far = -1;
  if (start < 0) return 0;
  cb_graph g;
  cb_bfs b;
  if (cb_bfs_init(&b, d->nrooms) || cb_graph_build(d, &g)) {
    cb_bfs_free(&b);
    return -1;
  }
  int *dist = b.hops;
  cb_bfs_reach(&b, -1, start);
  for (int u; (u = cb_bfs_next(&b)) >= 0;) {
    if (dist[u] > 0 && (far < 0 || dist[u] > dist[far])) far = u;
    for (int k = g.start[u]; k < g.start[u + 1]; k++)
      cb_bfs_reach(&b, u, g.room[k]);
  }
  int st = 0;
  if (far >= 0) {
    d->rooms[far].tags |= CB_TAG_GOAL;
    st = cb_dungeon_log(d, "Stocking: room %d, %d passages from the entrance (the farthest), holds the goal.",
                        d->rooms[far].number, dist[far]);
  }
  cb_graph_free(&g);
  cb_bfs_free(&b);
  return st;
}

/* ---- passages and keys ---- */

/* Whether roster entry `kind` is one of the situation's beasts (they carry
 * no keys). */
static bool is_beast(const stocker *s, int kind) {
  for (int i = 0; i < s->sit->nbeasts; i++)
    if (s->roster_of[s->sit->beasts[i]] == kind) return true;
  return false;
}

/* The key object goes with the key, in its room's treasure: "K1: the
 * sexton's key" (layout/key.c reads it back by the prefix), carried by
 * whoever is in the room. */
static int key_object(stocker *s, const char *key, const char *object) {
  cb_room *r = (cb_room *)cb_dungeon_key_room(s->d, key);
  if (!r || !r->contents) return 0;
  const cb_contents *c = r->contents;
  const char *what;
  if (!c->nmonsters || is_beast(s, c->monsters[0].kind))
    what = cb_arena_printf(s->d->arena, "%s: %s", key, object);
  else if (r->id == s->d->boss_room)
    what = cb_arena_printf(s->d->arena, "%s: %s, carried by %s", key, object, c->monsters[0].name);
  else if (c->monsters[0].count == 1)
    what = cb_arena_printf(s->d->arena, "%s: %s, carried by the %s", key, object, c->monsters[0].name);
  else
    what = cb_arena_printf(s->d->arena, "%s: %s, carried by one of the %s", key, object, c->monsters[0].name);
  return what ? cb_stocker_add_treasure(s, r->contents, what, 0) : -1;
}

/* A passage's note and its short form, grown as the theme's rows make them. */
typedef struct note {
  char *text, *brief;
  size_t n, b, cap_n, cap_b;
  int st; /* -1: out of memory */
} note;

/* Each sentence of a note begins with a capital, whatever case its row has. */
static void capital(char *buf, size_t at, size_t n) {
  if (at < n && buf[at] >= 'a' && buf[at] <= 'z') buf[at] = (char)(buf[at] - 32);
}

/* One sentence and its short form (NULL: out of memory) appended. */
static void add(note *nt, const char *text, const char *brief) {
  size_t at = nt->n, bt = nt->b;
  if (nt->st || !text || !brief || cb_text_appendf(&nt->text, &nt->cap_n, &nt->n, "%s ", text) ||
      cb_text_appendf(&nt->brief, &nt->cap_b, &nt->b, "%s ", brief)) {
    nt->st = -1;
    return;
  }
  capital(nt->text, at, nt->n);
  capital(nt->brief, bt, nt->b);
}

static const char *level_room(const cb_dungeon *d, const cb_room *r, char *buf, size_t cap) {
  if (d->nlevels > 1)
    snprintf(buf, cap, "L%d %d", r->level, r->number);
  else
    snprintf(buf, cap, "%d", r->number);
  return buf;
}

/* A locked way: its lock told once, on the first passage it shuts; the
 * others say whose lock they share. */
static void lock_note(stocker *s, cb_passage *p, int *first_of, const char **key_of, int *nkeys, note *nt) {
  cb_dungeon *d = s->d;
  char a[32], b[32];
  const cb_room *kr = cb_dungeon_key_room(d, p->lock);
  int i = 0;
  while (i < *nkeys && strcmp(key_of[i], p->lock))
    i++;
  if (i < *nkeys) {
    const cb_passage *f = &d->passages[first_of[i]];
    const char *as = cb_arena_printf(d->arena, "Locked by %s, as %s to %s.", p->lock,
                                     level_room(d, cb_dungeon_room(d, f->from), a, sizeof a),
                                     level_room(d, cb_dungeon_room(d, f->to), b, sizeof b));
    add(nt, as, as);
    return;
  }
  key_of[*nkeys] = p->lock, first_of[(*nkeys)++] = (int)(p - d->passages);
  const cb_text *row = s->t->list[CB_LIST_LOCK][cb_stocker_deal(s, &s->lists[CB_LIST_LOCK])];
  char where[32] = "nowhere";
  if (kr) level_room(d, kr, where, sizeof where);
  add(nt,
      cb_arena_printf(d->arena, "%s, opened by %s (%s, in %s).", row[0].text, row[1].text, p->lock, where),
      cb_arena_printf(d->arena, "%s (%s, in %s).", row[0].brief, p->lock, where));
  if (kr && key_object(s, p->lock, row[1].text)) d->oom = true;
}

static int note_passage(stocker *s, cb_passage *p, int *first_of, const char **key_of, int *nkeys) {
  note nt = {.n = 0};
  cb_arena *a = s->d->arena;
  if (p->flags & CB_FLAG_LOCKED && p->lock) lock_note(s, p, first_of, key_of, nkeys, &nt);
  if (p->flags & (CB_FLAG_SOFT_LOCKED | CB_FLAG_OBSTRUCTED)) {
    const cb_text *row = s->t->list[CB_LIST_SOFT_LOCK][cb_stocker_deal(s, &s->lists[CB_LIST_SOFT_LOCK])];
    add(&nt, cb_arena_printf(a, "%s: %s.", row[0].text, row[1].text),
        cb_arena_printf(a, "%s: %s.", row[0].brief, row[1].brief));
  }
  if (p->flags & CB_FLAG_SECRET) {
    const cb_text *row = s->t->list[CB_LIST_SECRET][cb_stocker_deal(s, &s->lists[CB_LIST_SECRET])];
    add(&nt, cb_arena_printf(a, "Secret: %s. Found: %s.", row[0].text, row[1].text),
        cb_arena_printf(a, "Secret: %s.", row[0].brief));
  }
  if (p->flags & CB_FLAG_TRAPPED) {
    const cb_theme_trap *t = &s->t->door_traps[cb_stocker_deal(s, &s->door_traps)];
    add(&nt, cb_arena_printf(a, "Trapped: %s: %s. Tell: %s.", t->trigger.text, t->effect.text, t->tell),
        cb_arena_printf(a, "Trap: %s: %s.", t->trigger.brief, t->effect.brief));
  }
  int st = nt.st;
  if (!st && nt.n > 0) {
    nt.text[nt.n - 1] = nt.brief[nt.b - 1] = '\0'; /* the last spaces */
    cb_utf8_shorten(nt.text, CB_TEXT_MAX);         /* what the JSON reader takes back */
    cb_utf8_shorten(nt.brief, CB_TEXT_MAX);
    p->note = cb_arena_strdup(a, nt.text);
    p->note_short = cb_arena_strdup(a, nt.brief);
    st = p->note && p->note_short ? 0 : -1;
  }
  free(nt.text);
  free(nt.brief);
  return st;
}

static int note_passages(stocker *s) {
  int np = s->d->npassages, nkeys = 0;
  int *first_of = cb_malloc(((size_t)np + 1) * sizeof *first_of);
  const char **key_of = cb_malloc(((size_t)np + 1) * sizeof *key_of);
  int st = first_of && key_of ? 0 : -1;
  for (int i = 0; i < np && !st; i++)
    st = note_passage(s, &s->d->passages[i], first_of, key_of, &nkeys);
  free(first_of);
  free((void *)key_of);
  return st;
}

/* ---- the whole dungeon's words ---- */

/* A hook line with its slots filled: {boss}, {goal}, {power}, {rival}. */
static const char *fill(stocker *s, const char *line, bool brief) {
  char *out = NULL; /* as long as the line and its slots make it */
  size_t n = 0, cap = 0;
  int st = 0;
  const cb_theme_situation *sit = s->sit;
  for (const char *p = line; *p && !st;) {
    const char *with = NULL;
    size_t skip = 0;
    if (!strncmp(p, "{boss}", 6)) with = s->t->monsters[sit->boss].singular, skip = 6;
    if (!strncmp(p, "{goal}", 6)) with = s->goal->name, skip = 6;
    if (!strncmp(p, "{power}", 7)) with = brief ? sit->power.brief : sit->power.text, skip = 7;
    if (!strncmp(p, "{rival}", 7) && sit->rival_power.text)
      with = brief ? sit->rival_power.brief : sit->rival_power.text, skip = 7;
    st = with ? cb_text_appendf(&out, &cap, &n, "%s", with) : cb_text_appendf(&out, &cap, &n, "%c", *p);
    p += with ? skip : 1;
  }
  const char *done = NULL;
  if (!st && out) {
    capital(out, 0, n);
    cb_utf8_shorten(out, CB_TEXT_LINE); /* what the JSON reader takes back */
  }
  if (!st) done = cb_arena_strdup(s->d->arena, out ? out : "");
  free(out);
  return done;
}

/* Title (unless the user gave one), situation, goal and hook, drawn before
 * any room so that every room is stocked from them. */
static int situation(stocker *s) {
  cb_dungeon *d = s->d;
  const cb_theme *t = s->t;
  s->sit = &t->situations[cb_rng_below(&s->words, (uint32_t)t->nsituations)];
  s->goal = &t->goals[cb_rng_below(&s->words, (uint32_t)t->ngoals)];
  bool titled = cb_dungeon_recorded(d, CB_RECORDED_TITLE) != NULL;
  const char *a = t->list[CB_LIST_TITLE_A][cb_stocker_deal(s, &s->lists[CB_LIST_TITLE_A])][0].text;
  const char *b = t->list[CB_LIST_TITLE_B][cb_stocker_deal(s, &s->lists[CB_LIST_TITLE_B])][0].text;
  if (!titled) {
    const char *title = cb_arena_printf(d->arena, "The %s %s", a, b);
    if (!title || cb_dungeon_set_title(d, title)) return -1;
  }
  const cb_text *h = s->sit->hooks[cb_rng_below(&s->words, (uint32_t)s->sit->nhooks)];
  for (int i = 0; i < 2; i++)
    if (!(d->hook[i] = fill(s, h[i].text, false)) || !(d->hook_short[i] = fill(s, h[i].brief, true)))
      return -1;
  d->boss_name = t->monsters[s->sit->boss].singular;
  d->goal_name = s->goal->name;
  return 0;
}

/* The d6 wandering-monster table, from the situation's cast: every kind of
 * the faction and the rival first (so that the hook's powers are met),
 * then any of the cast. */
static int wandering(stocker *s) {
  cb_dungeon *d = s->d;
  const cb_theme_situation *sit = s->sit;
  d->wandering = cb_arena_alloc(d->arena, 6, sizeof *d->wandering);
  if (!d->wandering) return -1;
  d->nwandering = 6;
  for (int i = 0; i < 6; i++) {
    int m = i < sit->nfaction ? sit->faction[i]
            : i < sit->nfaction + sit->nrival
                ? sit->rival[i - sit->nfaction]
                : pick_kind(s, CB_WHO_FACTION | CB_WHO_RIVAL | CB_WHO_BEASTS, false);
    d->wandering[i] = group_of(s, m, 0, false);
  }
  return 0;
}

static int deck(cb_deck *dk, int n) {
  dk->n = n, dk->next = n;
  dk->order = cb_malloc(((size_t)n + 1) * sizeof *dk->order);
  return dk->order ? 0 : -1;
}

static int setup(stocker *s) {
  const cb_theme *t = s->t;
  for (int l = 0; l < CB_LIST_COUNT; l++)
    if (deck(&s->lists[l], t->nlist[l])) return -1;
  if (deck(&s->door_traps, t->ndoor_traps)) return -1;
  size_t nk = (size_t)t->nrooms + 1, nm = (size_t)t->nmonsters + 1;
  s->room_kind = cb_calloc((size_t)s->d->nrooms + 1, sizeof *s->room_kind);
  s->names_used = cb_calloc(nk, sizeof(int)), s->dress = cb_calloc(nk, sizeof(int));
  s->dress_at = cb_calloc(nk, sizeof(int)), s->traps_used = cb_calloc(nk, sizeof(int));
  s->specials_used = cb_calloc(nk, sizeof(int)), s->doings_used = cb_calloc(nm, sizeof(int));
  s->roster_of = cb_calloc(nm, sizeof(int));
  if (!s->room_kind || !s->names_used || !s->dress || !s->dress_at || !s->traps_used || !s->specials_used ||
      !s->doings_used || !s->roster_of)
    return -1;
  for (int m = 0; m < t->nmonsters; m++)
    s->roster_of[m] = -1, s->doings_used[m] = (int)cb_rng_below(&s->words, (uint32_t)t->monsters[m].ndoing);
  for (int k = 0; k < t->nrooms; k++) {
    s->dress_at[k] = (int)cb_rng_below(&s->words, (uint32_t)t->rooms[k].nnames);
    s->traps_used[k] = (int)cb_rng_below(&s->words, (uint32_t)t->rooms[k].ntraps);
  }
  return 0;
}

static void teardown(stocker *s) {
  for (int l = 0; l < CB_LIST_COUNT; l++)
    free(s->lists[l].order);
  free(s->door_traps.order);
  free(s->room_kind), free(s->names_used), free(s->dress), free(s->dress_at), free(s->traps_used);
  free(s->specials_used), free(s->doings_used), free(s->roster_of);
}

/* Theme strings live in the theme, which the caller frees: copy what the
 * dungeon keeps into its arena. */
static const char *keep(cb_dungeon *d, const char *s) {
  if (!s) return NULL;
  const char *c = cb_arena_strdup(d->arena, s);
  if (!c) d->oom = true;
  return c;
}

static void keep_monsters(cb_dungeon *d, cb_monster *m, int n) {
  for (int k = 0; k < n; k++)
    m[k].name = keep(d, m[k].name), m[k].hd = keep(d, m[k].hd), m[k].doing = keep(d, m[k].doing),
    m[k].doing_short = keep(d, m[k].doing_short);
}

static void adopt_strings(cb_dungeon *d) {
  d->theme = keep(d, d->theme), d->boss_name = keep(d, d->boss_name), d->goal_name = keep(d, d->goal_name);
  keep_monsters(d, d->wandering, d->nwandering);
  for (int i = 0; i < d->nroster; i++) {
    cb_roster_entry *e = &d->roster[i];
    e->name = keep(d, e->name), e->plural = keep(d, e->plural), e->attacks = keep(d, e->attacks);
    e->move = keep(d, e->move), e->about = keep(d, e->about);
  }
  for (int i = 0; i < d->nrooms; i++) {
    cb_contents *c = d->rooms[i].contents;
    if (!c) continue;
    c->name = keep(d, c->name), c->dressing = keep(d, c->dressing), c->special = keep(d, c->special);
    c->dressing_short = keep(d, c->dressing_short), c->special_short = keep(d, c->special_short);
    keep_monsters(d, c->monsters, c->nmonsters);
    for (int k = 0; k < c->ntreasure; k++)
      c->treasure[k].what = keep(d, c->treasure[k].what);
    if (c->trap) {
      cb_trap *t = c->trap;
      t->trigger = keep(d, t->trigger), t->effect = keep(d, t->effect), t->tell = keep(d, t->tell);
      t->trigger_short = keep(d, t->trigger_short), t->effect_short = keep(d, t->effect_short);
    }
  }
}

static int default_locks(const cb_dungeon *d, const cb_stock_options *o) {
  if (o->locks_set) return o->locks;
  if (o->faithful || d->nrooms < 8) return 0;
  for (int i = 0; i < d->npassages; i++)
    if (d->passages[i].flags & CB_FLAG_LOCKED) return 0;
  return 1;
}

/* The room the boss holds: the procedure's boss room, else the goal. */
static int boss_index(const cb_dungeon *d) {
  int goal = -1;
  for (int i = 0; i < d->nrooms; i++) {
    if (d->rooms[i].tags & CB_TAG_BOSS) return i;
    if (goal < 0 && (d->rooms[i].tags & CB_TAG_GOAL)) goal = i;
  }
  return goal;
}

static int stock_all(stocker *s, const cb_stock_options *o) {
  cb_dungeon *d = s->d;
  if (setup(s) || place_goal(d)) return -1;
  int want = default_locks(d, o), placed = cb_stock_locks(d, want);
  if (placed < 0) return -1;
  if (placed < want && cb_dungeon_log(d, "Stocking: %d lock%s asked, %d place%s on the way to the goal.",
                                      want, want == 1 ? "" : "s", placed, placed == 1 ? "" : "s"))
    return -1;
  if (situation(s)) return -1;
  int boss = boss_index(d);
  for (int i = 0; i < d->nrooms; i++)
    if (stock_room(s, &d->rooms[i], i == boss)) return -1;
  if (wandering(s) || note_passages(s)) return -1;
  d->theme = s->t->name;
  d->depth = s->depth;
  adopt_strings(d);
  return 0;
}

cb_status cb_stock(cb_dungeon *d, const cb_theme *t, const cb_stock_options *o, cb_error *err) {
  if (o->depth < 0 || o->depth > CB_STOCK_MAX_DEPTH)
    return cb_error_set(err, CB_EINPUT, "--depth %d: a depth is 1..10", o->depth);
  if (o->locks < 0 || o->locks > CB_STOCK_MAX_LOCKS)
    return cb_error_set(err, CB_EINPUT, "--locks %d: at most %d", o->locks, CB_STOCK_MAX_LOCKS);
  stocker s = {.d = d, .t = t, .depth = o->depth ? o->depth : 1};
  s.marks = d->marks_rooms;
  cb_rng_seed(&s.words, d->seed, stream(d, WORDS_STREAM));
  cb_rng_seed(&s.numbers, d->seed, stream(d, NUMBERS_STREAM) + (uint64_t)s.depth);
  int bad = stock_all(&s, o);
  teardown(&s);
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
  cb_theme own;
  const cb_theme *t = NULL;
  cb_status st = cb_theme_shelf_get(o->themes, name, &own, &t, err);
  if (st == CB_OK) {
    char depth[8], locks[8];
    snprintf(depth, sizeof depth, "%d", o->depth ? o->depth : 1);
    snprintf(locks, sizeof locks, "%d", o->locks);
    if (cb_dungeon_record(d, CB_RECORDED_THEME, name) || cb_dungeon_record(d, CB_RECORDED_DEPTH, depth) ||
        cb_dungeon_record(d, CB_RECORDED_LOCKS, o->locks_set ? locks : NULL))
      st = cb_error_oom(err);
  }
  if (st == CB_OK) st = cb_stock(d, t, o, err);
  cb_theme_free(&own);
  return st;
}
