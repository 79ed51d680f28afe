/* cards: Cardtography (seed 000, generators.md "cards"). A shuffled deck is
 * dealt face down on a grid; each card turned face up rolls 3d6 for its
 * exits on a six-position dial (1..6 = N, NE, SE, S, SW, NW on the square
 * grid); cards never reached are removed; a face-up card matching the colour
 * and value of one already up on its level holds stairs down.
 *
 * Grid encoding: cells are found by (level, col, row) in a hash; col and row
 * count from 1 on a bounded grid (row 1 at the top) and from the entrance at
 * (0, 0) with --sprawl until the end, when they are shifted to start at 1.
 * A cell's `doors` holds bit p for a door at dial position p. */
#include "generate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/table.h"
#include "layout.h"
#include "model/bfs.h"
#include "model/check.h"
#include "model/rng.h"
#include "proc.h"

enum { DEFAULT_SIDE = 5, MAX_SIDE = 64, MAX_DECKS = CB_CARDS_MAX_DECKS, DEFAULT_MIN_ROOMS = 5 };
/* a sprawl of more than 200 cards is for --format json (crawlbook.c checks) */
enum { DEFAULT_SPRAWL_ROOMS = 25 };
static const long MAX_CARDS_DEALT = 1000000; /* every level's cards, all told */
enum { MAX_SPRAWL_ROOMS = 100000, MAX_DEALS = 1000, MAX_REROLLS = 20, DEFAULT_LENGTH_UNIT = 10 };
static const double CELL_FT = 30.0;
static const char SUITS[] = "SHDC";
static const char *const SUIT_NAMES[] = {"spades", "hearts", "diamonds", "clubs"};
static const char *const RANK_NAMES[] = {"joker", "ace", "2", "3",  "4",    "5",     "6",
                                         "7",     "8",   "9", "10", "jack", "queen", "king"};
static const char *const RANK_CODES[] = {"JK", "A", "2", "3",  "4", "5", "6",
                                         "7",  "8", "9", "10", "J", "Q", "K"};
static const char *const DIAL[] = {"",       "top",        "upper right", "lower right",
                                   "bottom", "lower left", "upper left"};

/* A card code: suit * 13 + rank - 1 for the 52, 52 and 53 for the jokers. */
static int card_rank(int c) { return c >= 52 ? 0 : c % 13 + 1; }
static int card_suit(int c) { return c >= 52 ? -1 : c / 13; }
static int card_red(int c) { return card_suit(c) == 1 || card_suit(c) == 2; }

static void card_code(int c, char *buf, size_t cap) {
  if (c >= 52)
    snprintf(buf, cap, "JK");
  else
    snprintf(buf, cap, "%s%c", RANK_CODES[card_rank(c)], SUITS[card_suit(c)]);
}

static void card_words(int c, char *buf, size_t cap) {
  if (c >= 52)
    snprintf(buf, cap, "a joker");
  else
    snprintf(buf, cap, "%s of %s", RANK_NAMES[card_rank(c)], SUIT_NAMES[card_suit(c)]);
}

static int opposite(int pos) { return (pos + 2) % 6 + 1; }

void cb_cards_neighbour(int col, int row, int pos, int *ncol, int *nrow) {
  static const int dc[] = {0, 0, 1, 1, 0, -1, -1}, dr[] = {0, -1, -1, 1, 1, 1, -1};
  *ncol = col + dc[pos];
  *nrow = row + dr[pos];
}

/* ---- options: the grid's shape, the entrance, the content table ---- */

typedef enum { ENTRANCE_BOTTOM, ENTRANCE_TOP, ENTRANCE_CENTRE, ENTRANCE_CELL } entrance_kind;

typedef struct layout {
  int w, h;
  char *mask; /* w * h bytes, '#' or '.' (bounded grids) */
  int ncells; /* '#' cells */
  entrance_kind entrance;
  int ecol, erow; /* the entrance cell (bounded) */
  int decks, deck_size, min_rooms, sprawl_rooms, length_unit;
  const char *shape_name;
} layout;

/* The next line of a mask's text into line (cap bytes, its newline kept);
 * false at the end of the text. */
static bool next_line(const char **text, char *line, size_t cap) {
  if (!**text) return false;
  size_t n = strcspn(*text, "\n");
  n += (*text)[n] == '\n';
  size_t k = n < cap - 1 ? n : cap - 1;
  memcpy(line, *text, k);
  line[k] = '\0';
  *text += k;
  return true;
}

static cb_status read_mask(const char *path, layout *L, cb_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return cb_error_set(err, CB_EINPUT, "--shape %s: cannot open the mask file", path);
  fclose(f);
  char *text = NULL; /* read as tables are: 1 MiB at most, no NUL byte, no byte-order mark */
  cb_status st = cb_table_text(path, &text, err);
  if (st != CB_OK) return st;
  const char *at = text;
  char line[256];
  int lineno = 0, w = 0, h = 0;
  char rows[MAX_SIDE][MAX_SIDE + 1];
  while (next_line(&at, line, sizeof line)) {
    lineno++;
    size_t n = strlen(line);
    if (n == sizeof line - 1 && line[n - 1] != '\n') {
      st = cb_error_set(err, CB_EINPUT, "%s:%d: line too long (a mask is at most %d cells wide)", path,
                        lineno, MAX_SIDE);
      goto done;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
      line[--n] = 0;
    if (n == 0 || line[0] == ';') continue; /* blank lines and ';' comments */
    for (size_t i = 0; i < n; i++)
      if (line[i] != '#' && line[i] != '.') {
        st = cb_error_set(err, CB_EINPUT, "%s:%d: column %zu: '%c' is not '#' (a card) or '.' (no card)",
                          path, lineno, i + 1, line[i] >= 32 && line[i] < 127 ? line[i] : '?');
        goto done;
      }
    if (n > MAX_SIDE) {
      st = cb_error_set(err, CB_EINPUT, "%s:%d: %zu cells wide; a mask is at most %d", path, lineno, n,
                        MAX_SIDE);
      goto done;
    }
    if (h == MAX_SIDE) {
      st = cb_error_set(err, CB_EINPUT, "%s:%d: more than %d rows", path, lineno, MAX_SIDE);
      goto done;
    }
    if (h > 0 && (int)n != w) {
      st =
          cb_error_set(err, CB_EINPUT, "%s:%d: row is %zu cells wide, the rows above %d", path, lineno, n, w);
      goto done;
    }
    w = (int)n;
    memcpy(rows[h++], line, n + 1);
  }
  if (h == 0) {
    st = cb_error_set(err, CB_EINPUT, "%s:%d: no rows of '#' and '.'", path, lineno > 0 ? lineno : 1);
    goto done;
  }
  L->w = w, L->h = h;
  L->mask = cb_malloc((size_t)w * h);
  if (!L->mask) {
    st = cb_error_oom(err);
    goto done;
  }
  for (int r = 0; r < h; r++)
    memcpy(L->mask + r * w, rows[r], (size_t)w);
  for (int i = 0; i < w * h; i++)
    L->ncells += L->mask[i] == '#';
  if (L->ncells == 0) st = cb_error_set(err, CB_EINPUT, "%s:1: the mask has no '#' cell", path);
done:
  free(text);
  return st;
}

static int in_mask(const layout *L, int col, int row) {
  return col >= 1 && row >= 1 && col <= L->w && row <= L->h && L->mask[(row - 1) * L->w + col - 1] == '#';
}

/* The entrance cell on a bounded grid: the '#' nearest the middle of the
 * lowest (top: highest) row, or nearest the grid's centre. */
static void place_entrance(layout *L) {
  double mc = (L->w + 1) / 2.0, mr = (L->h + 1) / 2.0, best = 1e18;
  for (int r = 1; r <= L->h; r++)
    for (int c = 1; c <= L->w; c++) {
      if (!in_mask(L, c, r)) continue;
      double dc = c - mc, dr = r - mr, score;
      if (L->entrance == ENTRANCE_BOTTOM)
        score = (L->h - r) * 1e6 + dc * dc + (dc > 0) * 0.1;
      else if (L->entrance == ENTRANCE_TOP)
        score = (r - 1) * 1e6 + dc * dc + (dc > 0) * 0.1;
      else
        score = dc * dc + dr * dr;
      if (score < best) best = score, L->ecol = c, L->erow = r;
    }
}

static cb_status resolve_layout(const cb_gen_options *o, layout *L, cb_error *err) {
  const cb_cards_options *c = cb_cards_options_of(o);
  memset(L, 0, sizeof *L);
  L->decks = c->decks ? c->decks : 1;
  if (L->decks < 1 || L->decks > MAX_DECKS)
    return cb_error_set(err, CB_EINPUT, "--decks %d: expected 1 to %d", L->decks, MAX_DECKS);
  L->deck_size = L->decks * (c->jokers ? 54 : 52);
  L->length_unit = c->length_unit ? c->length_unit : DEFAULT_LENGTH_UNIT;
  if (L->length_unit < 1 || L->length_unit > 5280)
    return cb_error_set(err, CB_EINPUT, "--length-unit %d: expected 1 to 5280 feet", L->length_unit);
  int levels = o->levels ? o->levels : 1;
  const char *deck_words = L->decks == 1 ? "one deck holds" : "the decks hold";
  L->entrance = ENTRANCE_BOTTOM;
  int cell_c = 0, cell_r = 0;
  if (c->entrance && strcmp(c->entrance, "bottom") != 0) {
    if (strcmp(c->entrance, "top") == 0)
      L->entrance = ENTRANCE_TOP;
    else if (strcmp(c->entrance, "centre") == 0 || strcmp(c->entrance, "center") == 0)
      L->entrance = ENTRANCE_CENTRE;
    else {
      char tail;
      if (sscanf(c->entrance, "%d,%d%c", &cell_c, &cell_r, &tail) != 2 || cell_c < 1 || cell_r < 1)
        return cb_error_set(err, CB_EINPUT,
                            "--entrance '%s': expected bottom, top, centre or a cell C,R (from 1)",
                            c->entrance);
      L->entrance = ENTRANCE_CELL;
    }
  }
  if (c->sprawl) {
    if (c->grid.w || c->grid.h || c->shape)
      return cb_error_set(err, CB_EINPUT,
                          "--sprawl deals on an unbounded grid: --grid and --shape do not apply");
    if (L->entrance == ENTRANCE_CELL)
      return cb_error_set(err, CB_EINPUT,
                          "--entrance %s: a sprawling grid has no fixed cells; use bottom, top or centre",
                          c->entrance);
    L->sprawl_rooms = o->rooms ? o->rooms : DEFAULT_SPRAWL_ROOMS;
    if (L->sprawl_rooms > L->deck_size)
      return cb_error_set(err, CB_EINPUT, "--rooms %d: a level of up to %d cards, but %s %d (add --decks)",
                          L->sprawl_rooms, L->sprawl_rooms, deck_words, L->deck_size);
    L->ncells = L->sprawl_rooms;
    L->shape_name = "sprawl";
  } else {
    if (o->rooms)
      return cb_error_set(err, CB_EINPUT,
                          "--rooms %d: cards deals a grid (--grid WxH); --rooms is for --sprawl", o->rooms);
    const char *shape = c->shape ? c->shape : "rect";
    L->shape_name = shape;
    if (strcmp(shape, "rect") == 0 || strcmp(shape, "oval") == 0) {
      L->w = c->grid.w ? c->grid.w : DEFAULT_SIDE;
      L->h = c->grid.h ? c->grid.h : DEFAULT_SIDE;
      if (L->w < 1 || L->h < 1 || L->w > MAX_SIDE || L->h > MAX_SIDE)
        return cb_error_set(err, CB_EINPUT, "--grid %dx%d: expected 1x1 to %dx%d", L->w, L->h, MAX_SIDE,
                            MAX_SIDE);
      L->mask = cb_malloc((size_t)L->w * L->h);
      if (!L->mask) return cb_error_oom(err);
      double a = L->w / 2.0, b = L->h / 2.0;
      for (int r = 0; r < L->h; r++)
        for (int col = 0; col < L->w; col++) {
          double x = (col + 0.5 - a) / a, y = (r + 0.5 - b) / b;
          int on = shape[0] == 'r' || x * x + y * y <= 1.0 + 1e-9 || L->w * L->h <= 4;
          L->mask[r * L->w + col] = on ? '#' : '.';
          L->ncells += on;
        }
    } else {
      if (c->grid.w || c->grid.h)
        return cb_error_set(err, CB_EINPUT, "--grid and --shape %s: the mask file sets the grid's size",
                            shape);
      char buf[4096];
      cb_status st = read_mask(cb_table_path(shape, buf, sizeof buf), L, err);
      if (st != CB_OK) return st;
    }
    if (L->ncells > L->deck_size) {
      char grid[4200]; /* the option the user gave: --grid, or the mask file that sets the grid */
      if (strcmp(shape, "rect") != 0 && strcmp(shape, "oval") != 0)
        snprintf(grid, sizeof grid, "--shape %.4000s: its %dx%d grid has", shape, L->w, L->h);
      else
        snprintf(grid, sizeof grid, "--grid %dx%d:", L->w, L->h);
      return cb_error_set(err, CB_EINPUT, "%s %d cards, but %s %d (add --decks)", grid, L->ncells, deck_words,
                          L->deck_size);
    }
    if (L->entrance == ENTRANCE_CELL) {
      if (cell_c > L->w || cell_r > L->h)
        return cb_error_set(err, CB_EINPUT, "--entrance %s: outside the %dx%d grid", c->entrance, L->w, L->h);
      if (!in_mask(L, cell_c, cell_r))
        return cb_error_set(err, CB_EINPUT, "--entrance %s: that cell holds no card in the shape",
                            c->entrance);
      L->ecol = cell_c, L->erow = cell_r;
    } else {
      place_entrance(L);
    }
  }
  /* more levels than the decks hold shuffle in fresh decks as they run out, up to a bound on memory */
  if (levels < 1 || (long)levels * L->ncells > MAX_CARDS_DEALT)
    return cb_error_set(err, CB_EINPUT, "--levels %d: expected 1 to %ld levels of %d cards", levels,
                        MAX_CARDS_DEALT / L->ncells, L->ncells);
  L->min_rooms = c->min_rooms ? c->min_rooms : DEFAULT_MIN_ROOMS;
  if (L->min_rooms < 1)
    return cb_error_set(err, CB_EINPUT, "--min-rooms %d: expected 1 or more", L->min_rooms);
  if (c->min_rooms && L->min_rooms > L->ncells)
    return cb_error_set(err, CB_EINPUT, "--min-rooms %d: a level holds at most %d cards", L->min_rooms,
                        L->ncells);
  if (L->min_rooms > L->ncells) L->min_rooms = L->ncells;
  return CB_OK;
}

/* The content table: "suits | ranks | tags | text", the first row matching
 * a card wins. suits: letters of SHDC, "JK" for jokers or "*"; ranks: "*",
 * N or N-M (1 ace .. 13 king, 0 joker); tags: encounter, treasure, boss
 * (comma-separated) or "-"; a row tagged lieutenant is read only for a
 * joker that is not the boss (--jokers). */
typedef struct content_row {
  unsigned suits; /* bits 0..3 SHDC, bit 4 joker */
  int lo, hi;
  unsigned tags;
  bool lieutenant; /* the row for a joker that is the boss's lieutenant, not its own card's */
  const char *text;
} content_row;

typedef struct content {
  cb_table t;
  content_row *rows;
  int n;
} content;

static const content_row *content_match(const content *c, int card, bool lieutenant) {
  int suit = card_suit(card), rank = card_rank(card);
  unsigned bit = suit < 0 ? 16u : 1u << suit;
  for (int i = 0; i < c->n; i++)
    if ((c->rows[i].suits & bit) && rank >= c->rows[i].lo && rank <= c->rows[i].hi &&
        c->rows[i].lieutenant == lieutenant)
      return &c->rows[i];
  return NULL;
}

static const content_row *content_find(const content *c, int card) { return content_match(c, card, false); }

static void content_free(content *c) {
  cb_table_free(&c->t);
  free(c->rows);
  memset(c, 0, sizeof *c);
}

static cb_status content_load(const cb_gen_options *o, content *c, cb_error *err) {
  memset(c, 0, sizeof *c);
  char buf[4096];
  const char *table = cb_cards_options_of(o)->content;
  const char *path = cb_table_path(table ? table : "cards-contents", buf, sizeof buf);
  cb_status st = cb_table_read(path, 4, 4, &c->t, err);
  if (st != CB_OK) return st;
  c->rows = cb_calloc((size_t)c->t.nrows + 1, sizeof *c->rows);
  if (!c->rows) {
    content_free(c);
    return cb_error_oom(err);
  }
  for (int i = 0; i < c->t.nrows; i++) {
    const cb_table_row *row = &c->t.rows[i];
    content_row *cr = &c->rows[c->n++];
    const char *s = row->fields[0], *r = row->fields[1];
    if (strcmp(s, "*") == 0)
      cr->suits = 31;
    else if (strcmp(s, "JK") == 0)
      cr->suits = 16;
    else
      for (const char *p = s; *p; p++) {
        const char *k = strchr(SUITS, *p);
        if (!k || !*p) {
          st = cb_table_fail(&c->t, row, err, "suits '%s': expected letters of SHDC, JK or *", s);
          goto fail;
        }
        cr->suits |= 1u << (k - SUITS);
      }
    long lo, hi;
    const char *dash = strchr(r, '-');
    if (strcmp(r, "*") == 0)
      lo = 0, hi = 13;
    else if (dash) {
      char a[16];
      size_t n = (size_t)(dash - r);
      if (n >= sizeof a) n = sizeof a - 1;
      memcpy(a, r, n);
      a[n] = 0;
      if (!cb_table_int(a, 0, 13, &lo) || !cb_table_int(dash + 1, 0, 13, &hi) || lo > hi) {
        st =
            cb_table_fail(&c->t, row, err, "ranks '%s': expected *, N or N-M with 0 (joker) to 13 (king)", r);
        goto fail;
      }
    } else if (cb_table_int(r, 0, 13, &lo)) {
      hi = lo;
    } else {
      st = cb_table_fail(&c->t, row, err, "ranks '%s': expected *, N or N-M with 0 (joker) to 13 (king)", r);
      goto fail;
    }
    cr->lo = (int)lo, cr->hi = (int)hi;
    if (strcmp(row->fields[2], "-") != 0) {
      char tags[256];
      snprintf(tags, sizeof tags, "%s", row->fields[2]);
      for (char *save = NULL, *tok = strtok_r(tags, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        if (strcmp(tok, "encounter") == 0)
          cr->tags |= CB_TAG_ENCOUNTER;
        else if (strcmp(tok, "treasure") == 0)
          cr->tags |= CB_TAG_TREASURE;
        else if (strcmp(tok, "boss") == 0)
          cr->tags |= CB_TAG_BOSS;
        else if (strcmp(tok, "lieutenant") == 0)
          cr->lieutenant = true;
        else {
          st = cb_table_fail(&c->t, row, err, "tag '%s': expected encounter, treasure, boss, lieutenant or -",
                             tok);
          goto fail;
        }
      }
    }
    if (!row->fields[3][0]) {
      st = cb_table_fail(&c->t, row, err, "the text is empty");
      goto fail;
    }
    cr->text = row->fields[3];
  }
  for (int card = 0; card < 54; card++)
    if (!content_find(c, card)) {
      char w[32];
      card_words(card, w, sizeof w);
      st = cb_error_set(err, CB_EINPUT, "%s: no row for the %s", path, w);
      goto fail;
    }
  return CB_OK;
fail:
  content_free(c);
  return st;
}

/* ---- working state ---- */

typedef struct cell {
  int col, row, level;
  int card;
  int room;            /* room id once face up, 0 while face down */
  unsigned char doors; /* bit p: a door at dial position p */
} cell;

typedef struct link {
  int a, b; /* cell indices; b < 0: a way out of the dungeon */
  int pos;  /* dial position at a */
  cb_passage_kind kind;
  unsigned flags;
  int key;    /* locked: key number */
  int length; /* the length die, 0 none */
} link;

typedef struct pending {
  int from, to, pos;
} pending;

typedef struct cs {
  const cb_gen_options *o;
  const cb_cards_options *own;
  const layout *L;
  const content *content;
  const cb_cards_script *script;
  int nscript;
  cb_rng rng;
  int *deck, ndeck, next_card;
  cell *cells;
  int ncells;
  size_t cap_cells;
  int *hash; /* cell index + 1 */
  size_t hash_cap;
  link *links;
  int nlinks;
  size_t cap_links;
  pending *todo;
  int ntodo;
  size_t cap_todo;
  cb_card_turn *turns;
  int nturns;
  size_t cap_turns;
  int (*rerolls)[3];
  int nrerolls;
  size_t cap_rerolls;
  int *flipped; /* cell index by room id - 1 */
  size_t cap_flipped;
  int nflipped, level_first; /* rooms so far; the first room of the level being explored */
  int *key_cell;             /* key number - 1 -> cell */
  int nkeys;
  size_t cap_keys;
  int *stairs_cell; /* per level 0..levels: the cell holding stairs down, -1 none */
  int levels_reached;
  int dealt_level; /* cards dealt on the level being explored (sprawl) */
  char **lines;
  int nlines;
  size_t cap_lines;
  bool oom;
} cs;

static void say(cs *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(cs *s, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *line = cb_malloc(strlen(buf) + 1);
  if (!line || cb_grow(&s->lines, &s->cap_lines, (size_t)s->nlines + 1, sizeof *s->lines)) {
    free(line);
    s->oom = true;
    return;
  }
  strcpy(line, buf);
  s->lines[s->nlines++] = line;
}

static size_t hslot(int level, int col, int row, size_t cap) {
  uint64_t h = (uint64_t)(uint32_t)level * 0x9E3779B97F4A7C15ull ^
               (uint64_t)(uint32_t)col * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)(uint32_t)row * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  return (size_t)(h & (cap - 1));
}

static int cell_at(const cs *s, int level, int col, int row) {
  for (size_t i = hslot(level, col, row, s->hash_cap);; i = (i + 1) & (s->hash_cap - 1)) {
    int k = s->hash[i];
    if (!k) return -1;
    const cell *c = &s->cells[k - 1];
    if (c->level == level && c->col == col && c->row == row) return k - 1;
  }
}

static const cb_cards_script *scripted(const cs *s, int level, int col, int row);
static int parse_card(const char *code);

/* The cards have run out: a fresh pack (as many decks as --decks) is
 * shuffled in, as a player would. -1 on OOM. */
static int fresh_deck(cs *s) {
  int per = s->own->jokers ? 54 : 52, more = s->L->deck_size;
  size_t cap = (size_t)s->ndeck;
  if (cb_grow(&s->deck, &cap, (size_t)s->ndeck + (size_t)more, sizeof *s->deck)) return -1;
  for (int i = 0; i < more; i++)
    s->deck[s->ndeck + i] = i % per;
  cb_rng_shuffle(&s->rng, s->deck + s->ndeck, (size_t)more);
  s->ndeck += more;
  say(s, "The cards have run out: a fresh deck of %d cards is shuffled in.", more);
  return 0;
}

/* Deals the next card of the deck face down at (level, col, row). */
static int deal_card(cs *s, int level, int col, int row) {
  if ((s->next_card >= s->ndeck && fresh_deck(s)) ||
      cb_grow(&s->cells, &s->cap_cells, (size_t)s->ncells + 1, sizeof *s->cells)) {
    s->oom = true;
    return -1;
  }
  const cb_cards_script *sc = s->own->sprawl ? scripted(s, level, col, row) : NULL;
  int want = sc && sc->card ? parse_card(sc->card) : -1;
  for (int j = s->next_card; want >= 0 && j < s->ndeck; j++)
    if (s->deck[j] == want) {
      s->deck[j] = s->deck[s->next_card];
      s->deck[s->next_card] = want;
      break;
    }
  int k = s->ncells++;
  s->cells[k] = (cell){col, row, level, s->deck[s->next_card++], 0, 0};
  size_t i = hslot(level, col, row, s->hash_cap);
  while (s->hash[i])
    i = (i + 1) & (s->hash_cap - 1);
  s->hash[i] = k + 1;
  s->dealt_level++;
  return k;
}

static const cb_cards_script *scripted(const cs *s, int level, int col, int row) {
  for (int i = 0; i < s->nscript; i++)
    if (s->script[i].level == level && s->script[i].col == col && s->script[i].row == row)
      return &s->script[i];
  return NULL;
}

static int parse_card(const char *code) {
  if (strcmp(code, "JK") == 0) return 52;
  size_t n = strlen(code);
  if (n < 2) return -1;
  const char *k = strchr(SUITS, code[n - 1]);
  if (!k || !code[n - 1]) return -1;
  for (int r = 1; r <= 13; r++)
    if (strlen(RANK_CODES[r]) == n - 1 && strncmp(RANK_CODES[r], code, n - 1) == 0)
      return (int)(k - SUITS) * 13 + r - 1;
  return -1;
}

/* A scripted card goes where the script says: swapped with its place in the
 * deck (dealt on this level or still to come). */
static void place_scripted_cards(cs *s, int level, int first_cell) {
  for (int i = 0; i < s->nscript; i++) {
    const cb_cards_script *sc = &s->script[i];
    int want = sc->card ? parse_card(sc->card) : -1, k = cell_at(s, level, sc->col, sc->row);
    if (sc->level != level || want < 0 || k < 0) continue;
    for (int j = first_cell; j < s->ncells; j++)
      if (s->cells[j].card == want) {
        s->cells[j].card = s->cells[k].card;
        s->cells[k].card = want;
        want = -1;
        break;
      }
    for (int j = s->next_card; want >= 0 && j < s->ndeck; j++)
      if (s->deck[j] == want) {
        s->deck[j] = s->cells[k].card;
        s->cells[k].card = want;
        break;
      }
  }
}

/* A die's target: the cell at dial position pos, -1 out of the dungeon (off
 * the layout, a gap in the shape, beyond the entrance's edge), -3 past the
 * sprawl's card cap; with --sprawl a new cell is dealt when `deal` is set. */
static int target(cs *s, const cell *c, int pos, bool deal) {
  int col, row;
  cb_cards_neighbour(c->col, c->row, pos, &col, &row);
  int k = cell_at(s, c->level, col, row);
  if (!s->own->sprawl) return k;
  if (k >= 0) return k;
  if (c->level == 1 &&
      ((s->L->entrance == ENTRANCE_BOTTOM && row > 0) || (s->L->entrance == ENTRANCE_TOP && row < 0)))
    return -1;
  if (s->dealt_level >= s->L->sprawl_rooms) return -3; /* the cap: the dungeon ends there, no way out */
  return deal ? deal_card(s, c->level, col, row) : -2; /* -2: a card would be dealt */
}

static int add_link(cs *s, int a, int b, int pos, cb_passage_kind kind, unsigned flags) {
  if (cb_grow(&s->links, &s->cap_links, (size_t)s->nlinks + 1, sizeof *s->links)) {
    s->oom = true;
    return -1;
  }
  s->links[s->nlinks] = (link){a, b, pos, kind, flags, 0, 0};
  return s->nlinks++;
}

static void room_words(const cs *s, int k, char *buf, size_t cap) {
  char w[32];
  card_words(s->cells[k].card, w, sizeof w);
  snprintf(buf, cap, "room %d (%s)", s->cells[k].room, w);
}

/* Deal: shuffle the deck and deal the level's cards face down. */
static cb_status deal_level(cs *s, int level) {
  s->dealt_level = 0;
  int first = s->ncells;
  if (s->own->sprawl) return CB_OK;
  for (int r = 1; r <= s->L->h; r++)
    for (int c = 1; c <= s->L->w; c++)
      if (in_mask(s->L, c, r) && deal_card(s, level, c, r) < 0) return CB_EINTERNAL;
  place_scripted_cards(s, level, first);
  return CB_OK;
}

/* Variation 4: a door made by a doubled die is trapped, locked, jammed or obstructed (d4). */
static cb_obstacle roll_obstacle(cs *s, link *l) {
  cb_obstacle ob = (cb_obstacle)cb_d4(&s->rng);
  static const unsigned flag[] = {0, CB_FLAG_TRAPPED, CB_FLAG_LOCKED, CB_FLAG_SOFT_LOCKED,
                                  CB_FLAG_OBSTRUCTED};
  l->flags |= flag[ob];
  if (ob == CB_OBSTACLE_LOCKED) {
    /* its key lies in a room already explored on this level, so the party can fetch it first */
    int pick = s->level_first + (int)cb_rng_below(&s->rng, (uint32_t)(s->nflipped - s->level_first));
    if (cb_grow(&s->key_cell, &s->cap_keys, (size_t)s->nkeys + 1, sizeof *s->key_cell)) {
      s->oom = true;
      return ob;
    }
    s->key_cell[s->nkeys++] = s->flipped[pick];
    l->key = s->nkeys;
  }
  return ob;
}

/* Roll exits: 3d6 on the dial; each distinct value is a door position, read
 * by rules 1-4 (out, already a door, rediscovered, face down). */
static void read_dice(cs *s, int k, int entry, const int dice[3], cb_die_result res[3], int tgt[3]) {
  const cell *c = &s->cells[k];
  for (int i = 0; i < 3; i++) {
    int v = dice[i];
    tgt[i] = -1;
    bool repeat = false;
    for (int j = 0; j < i; j++)
      repeat |= dice[j] == v;
    int count = (dice[0] == v) + (dice[1] == v) + (dice[2] == v);
    if (repeat)
      res[i] = CB_DIE_IGNORED;
    else if (v == entry)
      res[i] = CB_DIE_ENTRY;
    else if (c->doors & (1u << v))
      res[i] = CB_DIE_EXISTING;
    else if ((tgt[i] = target(s, c, v, false)) == -1 || tgt[i] == -3)
      res[i] = count >= 2 && tgt[i] == -1 ? CB_DIE_SURFACE : CB_DIE_OUT;
    else if (tgt[i] >= 0 && s->cells[tgt[i]].room)
      res[i] = s->own->rediscovered == CB_REDISCOVERED_IGNORE ? CB_DIE_IGNORED : CB_DIE_REDISCOVERED;
    else
      res[i] = CB_DIE_DOOR;
  }
}

static int makes_door(const cb_die_result r[3]) {
  return r[0] == CB_DIE_DOOR || r[1] == CB_DIE_DOOR || r[2] == CB_DIE_DOOR;
}

/* Can any die of this card lead into the dungeon? (else no re-roll helps) */
static int has_way_in(cs *s, int k, int entry) {
  for (int p = 1; p <= 6; p++) {
    if (p == entry || (s->cells[k].doors & (1u << p))) continue;
    int t = target(s, &s->cells[k], p, false);
    if (t == -2 || (t >= 0 && !s->cells[t].room)) return 1;
  }
  return 0;
}

static void roll_3d6(cs *s, int k, int dice[3]) {
  const cell *c = &s->cells[k];
  const cb_cards_script *sc = scripted(s, c->level, c->col, c->row);
  for (int i = 0; i < 3; i++)
    dice[i] = sc ? sc->dice[i] : cb_d6(&s->rng);
}

static void append_phrase(char *buf, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void append_phrase(char *buf, size_t cap, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n + 3 >= cap) return;
  if (n) strcat(buf, "; "), n += 2;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, cap - n, fmt, ap);
  va_end(ap);
}

/* Levels: a card matching the colour and value of one face up on its level holds stairs down. */
static void find_stairs(cs *s, int k) {
  const cell *c = &s->cells[k];
  int levels = s->o->levels ? s->o->levels : 1;
  if (c->level >= levels || s->stairs_cell[c->level] >= 0 || c->card >= 52) return;
  for (int i = s->level_first; i < s->nflipped - 1; i++) {
    const cell *o = &s->cells[s->flipped[i]];
    if (o->card < 52 && card_rank(o->card) == card_rank(c->card) && card_red(o->card) == card_red(c->card)) {
      char w[32], them[64];
      card_words(c->card, w, sizeof w);
      s->stairs_cell[c->level] = k;
      room_words(s, s->flipped[i], them, sizeof them);
      say(s, "Room %d (%s) matches %s in colour and value: stairs lead down to level %d from here.", c->room,
          w, them, c->level + 1);
      return;
    }
  }
}

/* The words for a die that makes no door (entry, out, the cap, a door
 * already there, ignored); false for a die that makes one. */
static bool phrase_no_door(cs *s, int from, int v, cb_die_result r, int tgt, char *phr, size_t cap) {
  const char *pos = DIAL[v];
  char them[64];
  if (r == CB_DIE_IGNORED && tgt < 0) return true; /* a repeated value */
  if (r == CB_DIE_ENTRY && from >= 0)
    append_phrase(phr, cap, "%d (%s) is the door already there, the one we came in by", v, pos);
  else if (r == CB_DIE_ENTRY)
    append_phrase(phr, cap, "%d (%s) is the way out", v, pos);
  else if (r == CB_DIE_OUT && tgt == -3)
    append_phrase(phr, cap, "%d (%s) would need another card, but all %d are down: the dungeon ends there", v,
                  pos, s->L->sprawl_rooms);
  else if (r == CB_DIE_OUT)
    append_phrase(phr, cap, "%d (%s) leads out of the dungeon: ignored", v, pos);
  else if (r == CB_DIE_EXISTING)
    append_phrase(phr, cap, "%d (%s) is the door already there", v, pos);
  else if (r == CB_DIE_IGNORED) {
    room_words(s, tgt, them, sizeof them);
    append_phrase(phr, cap, "%d (%s) opens into %s, explored and not connected: ignored", v, pos, them);
  } else
    return false;
  return true;
}

/* Flip a card and roll its exits: the card at k turned face up, entered
 * through dial position `entry` (0: from above). */
static cb_status take_turn(cs *s, int k, int entry, int from) {
  cell *c = &s->cells[k];
  if (cb_grow(&s->flipped, &s->cap_flipped, (size_t)s->nflipped + 1, sizeof *s->flipped)) return CB_EINTERNAL;
  s->flipped[s->nflipped++] = k;
  c->room = s->nflipped;
  char me[64], them[64], w[32];
  room_words(s, k, me, sizeof me);
  card_words(c->card, w, sizeof w);
  me[0] = 'R';
  char head[256];
  if (from >= 0) {
    room_words(s, from, them, sizeof them);
    snprintf(head, sizeof head, "%s, entered from room %d's %s door", me, s->cells[from].room,
             DIAL[opposite(entry)]);
  } else {
    snprintf(head, sizeof head, "%s at column %d, row %d, %s", me, c->col, c->row,
             entry              ? (entry == 4 ? "the entrance with the way out below it"
                                              : "the entrance with the way out above it")
             : s->nflipped == 1 ? "the entrance, reached from above by stairs, a pit or a portal"
                                : "at the foot of the stairs from the level above");
  }
  find_stairs(s, k);
  if (cb_grow(&s->turns, &s->cap_turns, (size_t)s->nturns + 1, sizeof *s->turns)) return CB_EINTERNAL;
  cb_card_turn *t = &s->turns[s->nturns++];
  memset(t, 0, sizeof *t);
  t->room = c->room, t->col = c->col, t->row = c->row, t->level = c->level;
  int dice[3], tgt[3];
  cb_die_result res[3];
  roll_3d6(s, k, dice);
  read_dice(s, k, entry, dice, res, tgt);
  /* dull dungeons: a level's first card that opens no door into the dungeon rolls again */
  if (!s->o->faithful && s->nflipped - 1 == s->level_first) {
    int first_reroll = s->nrerolls;
    while (!makes_door(res) && has_way_in(s, k, entry) && s->nrerolls - first_reroll < MAX_REROLLS) {
      if (cb_grow(&s->rerolls, &s->cap_rerolls, (size_t)s->nrerolls + 1, sizeof *s->rerolls))
        return CB_EINTERNAL;
      memcpy(s->rerolls[s->nrerolls++], dice, sizeof dice);
      say(s,
          "Room %d (%s) rolled %d %d %d: not one door leads into the dungeon, so the game master rolls "
          "again (a repair; --faithful keeps the first roll).",
          c->room, w, dice[0], dice[1], dice[2]);
      for (int i = 0; i < 3; i++)
        dice[i] = cb_d6(&s->rng);
      read_dice(s, k, entry, dice, res, tgt);
    }
    t->nrerolls = s->nrerolls - first_reroll; /* s->rerolls holds every turn's in turn order */
  }
  char phr[768] = "";
  int ndoors = 0;
  for (int i = 0; i < 3; i++) {
    int v = dice[i], count = (dice[0] == v) + (dice[1] == v) + (dice[2] == v);
    if (res[i] == CB_DIE_DOOR && tgt[i] == -2) {
      /* sprawl: deal the card now; an earlier die may have taken the last one */
      tgt[i] = target(s, c, v, true);
      c = &s->cells[k];
      if (s->oom) return CB_EINTERNAL;
      if (tgt[i] < 0) res[i] = count >= 2 && tgt[i] == -1 ? CB_DIE_SURFACE : CB_DIE_OUT;
    }
    t->dice[i] = v;
    t->results[i] = res[i];
    const char *pos = DIAL[v];
    if (phrase_no_door(s, from, v, res[i], tgt[i], phr, sizeof phr)) continue;
    int l;
    if (res[i] == CB_DIE_SURFACE) {
      l = add_link(s, k, -1, v, CB_PASSAGE_DOOR, CB_FLAG_SECRET);
    } else {
      if (tgt[i] < 0) return CB_EINTERNAL;
      unsigned flags = 0;
      if (res[i] == CB_DIE_REDISCOVERED && s->own->rediscovered == CB_REDISCOVERED_ONE_WAY)
        flags = CB_FLAG_ONE_WAY;
      if (res[i] == CB_DIE_REDISCOVERED && s->own->rediscovered == CB_REDISCOVERED_CONCEALED)
        flags = CB_FLAG_CONCEALED;
      l = add_link(s, k, tgt[i], v, CB_PASSAGE_DOOR, flags);
      c->doors |= (unsigned char)(1u << v);
      s->cells[tgt[i]].doors |= (unsigned char)(1u << opposite(v));
    }
    if (l < 0) return CB_EINTERNAL;
    char extra[160] = "";
    if (count >= 2 && !s->own->plain_doubles && res[i] != CB_DIE_SURFACE) {
      t->obstacles[i] = roll_obstacle(s, &s->links[l]);
      if (s->oom) return CB_EINTERNAL;
      if (t->obstacles[i] == CB_OBSTACLE_LOCKED) {
        int kc = s->key_cell[s->nkeys - 1];
        snprintf(extra, sizeof extra, ", locked (doubles; its key K%d lies in room %d)", s->nkeys,
                 s->cells[kc].room);
      } else {
        snprintf(extra, sizeof extra, ", %s (doubles)", cb_obstacle_name(t->obstacles[i]));
      }
    }
    if (s->own->lengths) {
      t->lengths[i] = s->links[l].length = cb_d6(&s->rng);
      size_t n = strlen(extra);
      snprintf(extra + n, sizeof extra - n, ", %d ft long", t->lengths[i] * s->L->length_unit);
    }
    if (res[i] == CB_DIE_SURFACE) {
      append_phrase(phr, sizeof phr, "doubled %d (%s) leads out: a hidden passage back to the surface%s", v,
                    pos, extra);
    } else if (res[i] == CB_DIE_REDISCOVERED) {
      room_words(s, tgt[i], them, sizeof them);
      static const char *const how[] = {"a door", "", "a one-way door, opening only from this side",
                                        "a door, obvious here and concealed on the other side"};
      append_phrase(phr, sizeof phr, "%d (%s) opens into %s, explored and not connected: %s%s", v, pos, them,
                    how[s->own->rediscovered], extra);
    } else {
      append_phrase(phr, sizeof phr, "door at %d (%s)%s", v, pos, extra);
      if (cb_grow(&s->todo, &s->cap_todo, (size_t)s->ntodo + 1, sizeof *s->todo)) return CB_EINTERNAL;
      s->todo[s->ntodo++] = (pending){k, tgt[i], v};
      ndoors++;
    }
  }
  const char *kind = dice[0] == dice[1] && dice[1] == dice[2] ? " (triples: one exit)"
                     : dice[0] == dice[1] || dice[1] == dice[2] || dice[0] == dice[2]
                         ? " (doubles: two exits)"
                         : "";
  say(s, "%s: rolled %d %d %d%s -> %s.", head, dice[0], dice[1], dice[2], kind, phr);
  (void)ndoors;
  return s->oom ? CB_EINTERNAL : CB_OK;
}

/* Explore: until no unexplored door remains, the party takes one (seeded
 * random order), turns the card behind it face up and rolls for it. */
static cb_status explore_level(cs *s, int level, int start, int entry, int from) {
  s->level_first = s->nflipped;
  s->ntodo = 0;
  cb_status st = take_turn(s, start, entry, from);
  while (st == CB_OK) {
    int n = 0;
    for (int i = 0; i < s->ntodo; i++)
      if (!s->cells[s->todo[i].to].room) s->todo[n++] = s->todo[i];
    s->ntodo = n;
    if (n == 0) break;
    int pick = (int)cb_rng_below(&s->rng, (uint32_t)n);
    pending p = s->todo[pick];
    s->todo[pick] = s->todo[--s->ntodo];
    st = take_turn(s, p.to, opposite(p.pos), p.from);
  }
  (void)level;
  return st;
}

/* Remove the cards never reached: they are not part of the dungeon. */
static int remove_unreached(cs *s, int level, char *list, size_t cap) {
  int removed = 0;
  list[0] = 0;
  for (int i = 0; i < s->ncells; i++) {
    const cell *c = &s->cells[i];
    if (c->level != level || c->room) continue;
    char code[8];
    card_code(c->card, code, sizeof code);
    size_t n = strlen(list);
    if (n + 24 < cap) snprintf(list + n, cap - n, "%s%s at %d,%d", removed ? ", " : "", code, c->col, c->row);
    removed++;
  }
  return removed;
}

/* The entrance is never a joker (the boss): a joker dealt there changes
 * places with the next card of the deck (with none left, the next card
 * dealt on the grid that is not a joker). */
static void no_joker_at_entrance(cs *s, int start) {
  int *at = &s->cells[start].card, *with = NULL;
  if (*at < 52) return;
  for (int j = s->next_card; !with && j < s->ndeck; j++)
    if (s->deck[j] < 52) with = &s->deck[j];
  for (int k = 1; !with && k < s->ncells; k++) {
    cell *c = &s->cells[(start + k) % s->ncells];
    if (c->level == 1 && c->card < 52) with = &c->card;
  }
  if (!with) return;
  char w[32];
  card_words(*with, w, sizeof w);
  say(s,
      "The entrance was dealt a joker, and the boss never waits at the door: it changes places with the next "
      "card of the deck, %s.",
      w);
  int t = *at;
  *at = *with, *with = t;
}

/* One whole deal: every level dealt and explored; false when it is dull. */
static cb_status play_deal(cs *s, int deal_no, bool *dull) {
  const layout *L = s->L;
  int levels = s->o->levels ? s->o->levels : 1;
  s->ncells = s->nlinks = s->nturns = s->nrerolls = s->nflipped = s->nkeys = s->ntodo = 0;
  s->next_card = 0;
  if (s->ndeck != L->deck_size) /* fresh decks came in last deal: back to one pack */
    for (int i = s->ndeck = L->deck_size; i-- > 0;)
      s->deck[i] = i % (s->own->jokers ? 54 : 52);
  memset(s->hash, 0, s->hash_cap * sizeof *s->hash);
  for (int i = 0; i <= levels; i++)
    s->stairs_cell[i] = -1;
  cb_rng_shuffle(&s->rng, s->deck, s->ndeck);
  say(s, "Deal %d: shuffled %d cards and dealt %s face down.", deal_no, s->ndeck,
      s->own->sprawl ? "them one at a time as the dice call for them" : "the grid");
  s->levels_reached = 0;
  int start = -1, entry = L->entrance == ENTRANCE_BOTTOM ? 4 : L->entrance == ENTRANCE_TOP ? 1 : 0, from = -1;
  for (int level = 1; level <= levels; level++) {
    if (deal_level(s, level) != CB_OK) return CB_EINTERNAL;
    if (level == 1) {
      start = s->own->sprawl ? deal_card(s, 1, 0, 0) : cell_at(s, 1, L->ecol, L->erow);
      if (start < 0) return CB_EINTERNAL;
      if (!s->o->faithful) no_joker_at_entrance(s, start);
    } else {
      int up = s->stairs_cell[level - 1];
      if (up < 0) break;
      start = s->own->sprawl ? deal_card(s, level, s->cells[up].col, s->cells[up].row)
                             : cell_at(s, level, s->cells[up].col, s->cells[up].row);
      if (start < 0) return CB_EINTERNAL;
      if (add_link(s, up, start, 0, CB_PASSAGE_STAIRS, 0) < 0) return CB_EINTERNAL;
      say(s, "Level %d: dealt %s; the stairs from room %d come down at column %d, row %d.", level,
          s->own->sprawl ? "as needed" : "a fresh grid from the deck", s->cells[up].room, s->cells[up].col,
          s->cells[up].row);
      entry = 0;
      from = -1;
    }
    if (level == 1 && entry && add_link(s, start, -1, entry, CB_PASSAGE_DOOR, 0) < 0) return CB_EINTERNAL;
    if (level == 1 && !entry && add_link(s, start, -1, 0, CB_PASSAGE_STAIRS, 0) < 0) return CB_EINTERNAL;
    if (entry) s->cells[start].doors |= (unsigned char)(1u << entry);
    cb_status st = explore_level(s, level, start, entry, from);
    if (st != CB_OK) return st;
    s->levels_reached = level;
    char list[512];
    int kept = s->nflipped - s->level_first, removed = remove_unreached(s, level, list, sizeof list);
    if (removed)
      say(s,
          "Level %d: every path has dead-ended with %d card%s face up; the %d never reached %s removed (%s).",
          level, kept, kept == 1 ? "" : "s", removed, removed == 1 ? "is" : "are", list);
    else
      say(s, "Level %d: every card was reached; %d rooms.", level, kept);
    if (level < levels && s->stairs_cell[level] < 0)
      say(s, "Level %d: no card matched another in colour and value, so no stairs lead down.", level);
  }
  *dull = false;
  if (s->o->faithful) return CB_OK;
  for (int level = 1; level <= s->levels_reached; level++) {
    int kept = 0;
    for (int i = 0; i < s->nflipped; i++)
      kept += s->cells[s->flipped[i]].level == level;
    if (kept < L->min_rooms) {
      say(s, "Deal %d is dull: level %d kept %d card%s, fewer than --min-rooms %d; shuffled and dealt again.",
          deal_no, level, kept, kept == 1 ? "" : "s", L->min_rooms);
      *dull = true;
      return CB_OK;
    }
  }
  if (s->levels_reached < levels) {
    say(s, "Deal %d is dull: only %d of %d levels were reached; shuffled and dealt again.", deal_no,
        s->levels_reached, levels);
    *dull = true;
  }
  return CB_OK;
}

/* ---- the model ---- */

static void shift_sprawl(cs *s, cb_cards_proc *p) {
  int minc = 0, minr = 0, maxc = 0, maxr = 0;
  for (int i = 0; i < s->ncells; i++) {
    const cell *c = &s->cells[i];
    if (i == 0 || c->col < minc) minc = c->col;
    if (i == 0 || c->row < minr) minr = c->row;
    if (i == 0 || c->col > maxc) maxc = c->col;
    if (i == 0 || c->row > maxr) maxr = c->row;
  }
  for (int i = 0; i < s->ncells; i++)
    s->cells[i].col -= minc - 1, s->cells[i].row -= minr - 1;
  p->w = maxc - minc + 1, p->h = maxr - minr + 1;
}

/* Hops from the entrance to every room as the party walks (a one-way door
 * only from its side); -1 unreached. malloc-owned; NULL on OOM. */
static int *hops_from_entrance(const cb_dungeon *d) {
  cb_graph g;
  cb_bfs b;
  int n = d->nrooms, *hops = cb_malloc(((size_t)n + 1) * sizeof *hops), bad = cb_bfs_init(&b, n);
  if (bad || !hops || cb_graph_build(d, &g)) {
    free(hops);
    cb_bfs_free(&b);
    return NULL;
  }
  cb_bfs_reach(&b, -1, 0);
  for (int r; (r = cb_bfs_next(&b)) >= 0;)
    for (int k = g.start[r]; k < g.start[r + 1]; k++)
      cb_bfs_reach(&b, r, g.room[k]);
  hops[0] = -1;
  for (int i = 0; i < n; i++)
    hops[i + 1] = b.hops[i];
  cb_graph_free(&g);
  cb_bfs_free(&b);
  return hops;
}

/* The boss (--jokers): of the jokers reached, the one farthest from the
 * entrance (most hops, then the later turned up); any other joker is its
 * lieutenant; with none reached, the room farthest from the entrance holds
 * the boss. -1 on OOM. */
static int crown_boss(cs *s, cb_dungeon *d) {
  int *hops = hops_from_entrance(d), boss = 0, jokers = 0;
  if (!hops) return -1;
  for (int i = 0; i < d->nrooms; i++)
    jokers += d->rooms[i].value == 0;
  for (int i = 1; i < d->nrooms; i++) /* never the entrance */
    if ((!jokers || d->rooms[i].value == 0) && (!boss || hops[i + 1] >= hops[boss])) boss = i + 1;
  free(hops);
  const content_row *top = content_find(s->content, 52);
  for (int i = 0; i < d->nrooms; i++) {
    cb_room *r = &d->rooms[i];
    r->tags &= ~(unsigned)CB_TAG_BOSS;
    if (r->value != 0 || r->id == boss) continue;
    const content_row *lt = content_match(s->content, 52, true);
    r->tags = (r->tags & ~top->tags) | (lt ? lt->tags : top->tags & ~(unsigned)CB_TAG_BOSS);
    if (lt) r->text = cb_arena_strdup(d->arena, lt->text);
    cb_dungeon_log(
        d, "Room %d (a joker) is nearer the entrance than the boss: it holds the boss's lieutenant.", r->id);
  }
  if (!boss) return 0;
  cb_room *b = &d->rooms[boss - 1];
  b->tags |= top->tags | CB_TAG_BOSS;
  if (!jokers) { /* the boss moves in: the room's own contents give way */
    b->tags = (b->tags & ~content_find(s->content, s->cells[s->flipped[boss - 1]].card)->tags) | top->tags;
    b->text = cb_arena_strdup(d->arena, top->text);
    cb_dungeon_log(d, "No joker was reached: room %d, the farthest from the entrance, holds the boss.", boss);
  } else if (jokers > 1) {
    cb_dungeon_log(d, "Room %d, the joker farthest from the entrance, holds the boss.", boss);
  }
  return 0;
}

static cb_status build_model(cs *s, cb_dungeon *d, cb_error *err) {
  cb_arena *A = d->arena;
  cb_cards_proc *p = cb_cards_of(d);
  if (s->own->sprawl)
    shift_sprawl(s, p);
  else
    p->w = s->L->w, p->h = s->L->h;
  p->cell_ft = CELL_FT;
  p->mask = cb_arena_alloc(A, (size_t)p->h + 1, sizeof *p->mask);
  if (!p->mask) return cb_error_oom(err);
  for (int r = 0; r < p->h; r++) {
    char *row = cb_arena_alloc(A, (size_t)p->w + 1, 1);
    if (!row) return cb_error_oom(err);
    for (int c = 0; c < p->w; c++)
      row[c] = s->own->sprawl ? (cell_at(s, 1, c + 1, r + 1) >= 0 ? '#' : '.') : s->L->mask[r * p->w + c];
    p->mask[r] = row;
  }
  if (s->own->sprawl) /* the union of every level's cells */
    for (int i = 0; i < s->ncells; i++)
      ((char *)p->mask[s->cells[i].row - 1])[s->cells[i].col - 1] = '#';
  const cell *e = &s->cells[s->flipped[0]];
  p->entrance_col = e->col, p->entrance_row = e->row;
  p->ncells = s->ncells;
  p->cells = cb_arena_alloc(A, (size_t)s->ncells + 1, sizeof *p->cells);
  p->turns = cb_arena_alloc(A, (size_t)s->nturns + 1, sizeof *p->turns);
  if (!p->cells || !p->turns) return cb_error_oom(err);
  for (int i = 0; i < s->ncells; i++) {
    char code[8];
    card_code(s->cells[i].card, code, sizeof code);
    p->cells[i] = (cb_card_cell){s->cells[i].col, s->cells[i].row, s->cells[i].level,
                                 cb_arena_strdup(A, code), s->cells[i].room};
  }
  for (int i = 0, first = 0; i < s->nturns; i++, first += s->turns[i - 1].nrerolls) {
    cb_card_turn t = s->turns[i];
    const cell *c = &s->cells[s->flipped[t.room - 1]];
    t.col = c->col, t.row = c->row;
    t.rerolls = NULL;
    if (t.nrerolls) {
      t.rerolls = cb_arena_alloc(A, (size_t)t.nrerolls, sizeof *t.rerolls);
      if (!t.rerolls) return cb_error_oom(err);
      memcpy(t.rerolls, s->rerolls + first, (size_t)t.nrerolls * sizeof *t.rerolls);
    }
    p->turns[p->nturns++] = t;
  }
  for (int l = 1; l <= s->levels_reached; l++) {
    char name[32];
    snprintf(name, sizeof name, "Level %d", l);
    if (!cb_dungeon_add_level(d, l, name)) return cb_error_oom(err);
  }
  for (int i = 0; i < s->nflipped; i++) {
    const cell *c = &s->cells[s->flipped[i]];
    cb_room *r = cb_dungeon_add_room(d, c->level, (c->col - 0.5) * CELL_FT, (c->row - 0.5) * CELL_FT);
    if (!r) return cb_error_oom(err);
    char code[8];
    card_code(c->card, code, sizeof code);
    r->card = cb_arena_strdup(A, code);
    r->value = card_rank(c->card);
    const content_row *row = content_find(s->content, c->card);
    r->tags |= row->tags;
    r->text = cb_arena_strdup(A, row->text);
    if (i == 0) r->tags |= CB_TAG_ENTRANCE;
  }
  for (int k = 0; k < s->nkeys; k++) {
    char key[16];
    snprintf(key, sizeof key, "K%d", k + 1);
    if (cb_dungeon_add_key(d, &d->rooms[s->cells[s->key_cell[k]].room - 1], key)) return cb_error_oom(err);
  }
  p->stairs = cb_arena_alloc(A, (size_t)s->levels_reached + 1, sizeof *p->stairs);
  if (!p->stairs) return cb_error_oom(err);
  for (int i = 0; i < s->nlinks; i++) {
    const link *l = &s->links[i];
    int from = s->cells[l->a].room, to = l->b >= 0 ? s->cells[l->b].room : 0;
    cb_passage *ps = cb_dungeon_add_passage(d, from, to, l->kind);
    if (!ps) return cb_error_oom(err);
    ps->flags = l->flags;
    if (l->key) {
      char key[16];
      snprintf(key, sizeof key, "K%d", l->key);
      ps->lock = cb_arena_strdup(A, key);
    }
    if (l->length) ps->length_ft = l->length * s->L->length_unit;
    if (to == 0 && (l->flags & CB_FLAG_SECRET)) d->rooms[from - 1].tags |= CB_TAG_SURFACE_EXIT;
    if (l->kind == CB_PASSAGE_STAIRS && to) p->stairs[p->nstairs++] = (cb_card_stairs){from, to};
  }
  for (int i = 0; i < s->nlines; i++)
    cb_dungeon_log(d, "%s", s->lines[i]);
  if (s->own->jokers && !s->o->faithful && crown_boss(s, d)) return cb_error_oom(err);
  return d->oom ? cb_error_oom(err) : CB_OK;
}

static void record_options(cb_dungeon *d, const cb_gen_options *o, const layout *L) {
  static const char *const ent[] = {"bottom", "top", "centre", NULL};
  cb_gen_options used = *o;
  cb_cards_options mine = *cb_cards_options_of(o), *c = &mine;
  /* a sprawl records its rooms, a grid its size unless a mask shapes it */
  bool grid = !c->sprawl && (!c->shape || strcmp(c->shape, "rect") == 0 || strcmp(c->shape, "oval") == 0);
  char at[32];
  snprintf(at, sizeof at, "%d,%d", L->ecol, L->erow);
  used.rooms = c->sprawl ? L->sprawl_rooms : 0;
  c->grid = grid ? (cb_option_size){L->w, L->h} : (cb_option_size){0, 0};
  c->shape = c->sprawl ? NULL : c->shape ? c->shape : "rect";
  c->entrance = L->entrance == ENTRANCE_CELL ? at : ent[L->entrance];
  c->decks = L->decks;
  used.levels = o->levels ? o->levels : 1;
  c->min_rooms = o->faithful ? 0 : L->min_rooms;
  c->length_unit = c->lengths ? L->length_unit : 0;
  cb_option_record_all(d, &cb_cards_option_specs, &used, c);
}

static cb_status validate(const cb_gen_options *o, cb_error *err) {
  layout L;
  cb_status st = resolve_layout(o, &L, err);
  free(L.mask);
  if (st != CB_OK) return st;
  content c;
  st = content_load(o, &c, err);
  if (st == CB_OK) content_free(&c);
  return st;
}

/* The turns a test scripts (cb_cards_generate_scripted), the frame's ctx. */
typedef struct script {
  const cb_cards_script *turns;
  int n;
} script;

static cb_status steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  const script *sc = ctx;
  layout L;
  content ct = {0};
  cs s = {0};
  cb_status st = resolve_layout(o, &L, err);
  if (st != CB_OK || (st = content_load(o, &ct, err)) != CB_OK) goto done;
  s.o = o, s.own = cb_cards_options_of(o), s.L = &L, s.content = &ct;
  if (sc) s.script = sc->turns, s.nscript = sc->n;
  cb_rng_seed(&s.rng, o->seed, 0);
  s.ndeck = L.deck_size;
  s.deck = cb_malloc((size_t)s.ndeck * sizeof *s.deck);
  s.hash_cap = 64;
  while (s.hash_cap < (size_t)L.ncells * (size_t)(o->levels ? o->levels : 1) * 2)
    s.hash_cap *= 2;
  s.hash = cb_calloc(s.hash_cap, sizeof *s.hash);
  s.stairs_cell = cb_malloc(((size_t)(o->levels ? o->levels : 1) + 1) * sizeof *s.stairs_cell);
  if (!s.deck || !s.hash || !s.stairs_cell) goto fail_oom;
  for (int i = 0; i < s.ndeck; i++) {
    int per = s.own->jokers ? 54 : 52;
    s.deck[i] = i % per;
  }
  d->procedure = cb_arena_alloc(d->arena, 1, sizeof(cb_cards_proc));
  d->marks_rooms = true; /* the cards say what is in each room */
  if (!cb_cards_of(d)) goto fail_oom;
  record_options(d, o, &L);
  int deals = 0;
  for (;;) {
    for (int i = 0; i < s.nlines; i++)
      free(s.lines[i]);
    s.nlines = 0;
    bool dull = false;
    if (play_deal(&s, ++deals, &dull) != CB_OK || s.oom) goto fail_oom;
    if (!dull) break;
    if (deals == MAX_DEALS) {
      say(&s, "After %d deals every one was dull; keeping the last.", deals);
      break;
    }
    /* keep only the line that says why this deal was dealt again */
    char *why = s.lines[s.nlines - 1];
    s.lines[s.nlines - 1] = NULL;
    for (int i = 0; i < s.nlines - 1; i++)
      free(s.lines[i]);
    s.nlines = 0;
    cb_dungeon_log(d, "%s", why);
    free(why);
  }
  cb_cards_of(d)->deals = deals;
  st = build_model(&s, d, err);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(L.mask);
  content_free(&ct);
  free(s.deck);
  free(s.hash);
  free(s.cells);
  free(s.links);
  free(s.todo);
  free(s.turns);
  free(s.rerolls);
  free(s.flipped);
  free(s.key_cell);
  free(s.stairs_cell);
  for (int i = 0; i < s.nlines; i++)
    free(s.lines[i]);
  free(s.lines);
  return st;
}

cb_status cb_cards_generate_scripted(const cb_gen_options *o, const cb_cards_script *turns, int nturns,
                                     cb_dungeon **out, cb_error *err) {
  script sc = {turns, nturns};
  return cb_generator_frame(&cb_gen_cards, o, steps, &sc, out, err);
}

const cb_generator cb_gen_cards = {
    .name = "cards",
    .title_noun = "Card Vaults",
    .max_rooms = MAX_SPRAWL_ROOMS,
    .validate = validate,
    .steps = steps,
    .what = "A Cardtography dungeon",
    .io = &cb_proc_io_cards,
    .layout = &cb_cards_layout,
    .options = &cb_cards_option_specs,
    .room_rules = cb_cards_room_rules,
};
