/* The depth tables (spec/stocking.md "Monsters a game master can run"),
 * after the classic dungeon-level tables, in our words in
 * templates/themes/README.md: how strong an encounter is, how a kind's stat
 * line grows with depth, and what treasure a room holds. Which kind, which
 * object and whether it is there come from the words stream; how many and
 * how much from the numbers stream, so that a deeper dungeon is the same
 * dungeon with bigger numbers. */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "stocker.h"

int cb_stocker_deal(cb_stocker *s, cb_deck *dk) {
  if (dk->n <= 0) return 0;
  if (dk->next >= dk->n) {
    for (int i = 0; i < dk->n; i++)
      dk->order[i] = i;
    cb_rng_shuffle(&s->words, dk->order, dk->n);
    dk->next = 0;
  }
  return dk->order[dk->next++];
}

static int roll(cb_rng *r, cb_dice dc) {
  int v = dc.plus;
  if (!dc.sides) return dc.n;
  for (int i = 0; i < dc.n; i++)
    v += cb_rng_die(r, dc.sides);
  return v;
}

/* The encounter's level: at depth 1 always 1; deeper, a d6: 1 a level
 * shallower, 2-5 the depth, 6 a level deeper. Its kind's stat line is the
 * depth's; the level says how many come: half as many a level shallower,
 * half as many again a level deeper, and as much again per extra level (a
 * strong card). */
int cb_stocker_count(cb_stocker *s, const cb_theme_monster *m, int extra) {
  int roll6 = cb_d6(&s->numbers), n = roll(&s->numbers, m->count);
  int shift = (s->depth == 1 ? 0 : roll6 == 1 ? -1 : roll6 == 6 ? 1 : 0) + extra;
  if (shift < 0) n = (n + 1) / 2;
  if (shift > 0) n += n * shift / 2 + (n == 1 && shift > 1);
  return n < 1 ? 1 : n;
}

/* Hit Dice at depth: the kind's depth-1 dice plus one a depth. */
static const char *hd_at(cb_arena *a, const cb_theme_monster *m, int depth) {
  int hd = m->hd + depth - 1;
  if (hd == 0) return "1/2";
  if (m->hd == 0) return cb_arena_printf(a, "%d", hd);
  return m->hd_plus ? cb_arena_printf(a, "%d+%d", hd, m->hd_plus) : cb_arena_printf(a, "%d", hd);
}

/* Damage at depth: each die of "1d4/1d4/1d8" gains one a second depth. */
static const char *damage_at(cb_arena *a, const char *damage, int depth) {
  char out[256];
  size_t n = 0;
  const char *p = damage;
  while (p && n < sizeof out) {
    const char *slash = strchr(p, '/');
    char one[64];
    size_t len = slash ? (size_t)(slash - p) : strlen(p);
    snprintf(one, sizeof one, "%.*s", (int)len, p);
    cb_dice dc = {1, 6, 0};
    cb_dice_parse(one, &dc); /* the theme reader checked it */
    int plus = dc.plus + (depth - 1) / 2;
    n += (size_t)snprintf(out + n, sizeof out - n, "%s%dd%d", n ? "/" : "", dc.n, dc.sides);
    if (plus && n < sizeof out) n += (size_t)snprintf(out + n, sizeof out - n, "+%d", plus);
    p = slash ? slash + 1 : NULL;
  }
  return cb_arena_strdup(a, out);
}

int cb_stocker_roster(cb_stocker *s, int m, bool boss) {
  cb_dungeon *d = s->d;
  if (s->roster_of[m] >= 0) return s->roster_of[m];
  const cb_theme_monster *tm = &s->t->monsters[m];
  cb_roster_entry *r = cb_arena_alloc(d->arena, (size_t)d->nroster + 1, sizeof *r);
  if (!r) return -1;
  if (d->nroster) memcpy(r, d->roster, (size_t)d->nroster * sizeof *r);
  d->roster = r;
  cb_roster_entry *e = &r[d->nroster];
  int ac = tm->ac - (s->depth - 1) / 3;
  *e = (cb_roster_entry){tm->singular,
                         boss ? tm->singular : tm->plural,
                         ac < -5 ? -5 : ac,
                         hd_at(d->arena, tm, s->depth),
                         tm->attacks,
                         damage_at(d->arena, tm->damage, s->depth),
                         tm->move,
                         tm->about.text,
                         tm->morale + (s->depth - 1) / 3 > 12 ? 12 : tm->morale + (s->depth - 1) / 3};
  if (!e->hd || !e->damage) return -1;
  return s->roster_of[m] = d->nroster++;
}

int cb_stocker_add_treasure(cb_stocker *s, cb_contents *c, const char *what, int value) {
  cb_treasure *a = cb_arena_alloc(s->d->arena, (size_t)c->ntreasure + 1, sizeof *a);
  if (!a) return -1;
  if (c->ntreasure) memcpy(a, c->treasure, (size_t)c->ntreasure * sizeof *a);
  a[c->ntreasure++] = (cb_treasure){what, value};
  c->treasure = a;
  return 0;
}

/* The classic table of a room's treasure by depth: silver (dice x each),
 * gold on a 50% chance, and the chances in a hundred of gems, jewellery and
 * a magic item, each gems and jewellery d6 pieces. */
static const struct {
  int silver_sides, silver_each, gold_each, gems, jewels, magic;
} by_depth[] = {
    {6, 100, 10, 5, 2, 2},       /* depth 1 */
    {12, 100, 100, 10, 5, 8},    /* 2-3 */
    {6, 1000, 200, 20, 10, 10},  /* 4-5 */
    {6, 2000, 500, 30, 15, 15},  /* 6-7 */
    {6, 5000, 1000, 40, 20, 20}, /* 8 and deeper */
};

static int row_of(int depth) { return depth <= 1 ? 0 : depth <= 3 ? 1 : depth <= 5 ? 2 : depth <= 7 ? 3 : 4; }

/* A gem's worth on a d6: 10, 50, 100, 100, 500, 1000 gp. */
static int gem_value(cb_rng *r) {
  static const int worth[6] = {10, 50, 100, 100, 500, 1000};
  return worth[cb_d6(r) - 1];
}

static int coins(cb_stocker *s, cb_contents *c, int row, bool gold_here) {
  int silver = cb_rng_die(&s->numbers, by_depth[row].silver_sides) * by_depth[row].silver_each;
  int gold = gold_here ? cb_d6(&s->numbers) * by_depth[row].gold_each : 0;
  const char *what = gold ? cb_arena_printf(s->d->arena, "%d sp, %d gp", silver, gold)
                          : cb_arena_printf(s->d->arena, "%d sp", silver);
  return what ? cb_stocker_add_treasure(s, c, what, silver / 10 + gold) : -1;
}

/* Whether each part is there comes from the words stream (a percentile
 * drawn whatever the depth), its amount from the numbers stream; a hoard is
 * the table three depths down, with gold and gems always, jewellery and a
 * magic item each on an even chance. */
int cb_stocker_treasure(cb_stocker *s, cb_contents *c, const cb_theme_room *kind, bool hoard) {
  int row = row_of(s->depth + (hoard ? 3 : 0));
  int gold = (int)cb_rng_below(&s->words, 100), gems = (int)cb_rng_below(&s->words, 100);
  int jewels = (int)cb_rng_below(&s->words, 100), magic = (int)cb_rng_below(&s->words, 100);
  int object = (int)cb_rng_below(&s->words, (uint32_t)kind->ntreasure);
  int item = cb_stocker_deal(s, &s->lists[CB_LIST_MAGIC]);
  if (coins(s, c, row, hoard || gold < 50)) return -1;
  if (hoard || gems < by_depth[row].gems) {
    int n = cb_d6(&s->numbers), v = 0;
    for (int i = 0; i < n; i++)
      v += gem_value(&s->numbers);
    const char *what = cb_arena_printf(s->d->arena, "%d gem%s", n, n == 1 ? "" : "s");
    if (!what || cb_stocker_add_treasure(s, c, what, v)) return -1;
  }
  if (hoard ? jewels < 50 : jewels < by_depth[row].jewels) {
    int v = (cb_d6(&s->numbers) + cb_d6(&s->numbers) + cb_d6(&s->numbers)) * 100;
    if (cb_stocker_add_treasure(s, c, kind->treasure[object], v)) return -1;
  }
  if ((hoard ? magic < 50 : magic < by_depth[row].magic) &&
      cb_stocker_add_treasure(s, c, s->t->list[CB_LIST_MAGIC][item][0].text, 0))
    return -1;
  return 0;
}
