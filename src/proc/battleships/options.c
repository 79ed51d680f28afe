/* battleships' options, in the order it records them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

#define OWN(member) offsetof(cb_battleships_options, member)

_Static_assert(sizeof(cb_battleships_options) <= CB_PROC_OPTIONS_MAX,
               "battleships's options fit the command line's buffer");

/* A comma-separated list of ship lengths, 1 to 100 each. */
static cb_status parse_fleet(const cb_option_spec *s, const char *v, void *opts, cb_error *err) {
  cb_battleships_options *g = opts;
  char buf[16];
  unsigned long long n;
  (void)s;
  g->nfleet = 0;
  for (const char *p = v;;) {
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof buf)
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': expected ship lengths such as 5,4,3,3,2", v);
    memcpy(buf, p, len);
    buf[len] = '\0';
    if (!cb_option_whole_number(buf, 1, 100, &n))
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': '%s' is not a ship length from 1 to 100", v, buf);
    if (g->nfleet == CB_MAX_FLEET)
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': at most %d ships", v, CB_MAX_FLEET);
    g->fleet[g->nfleet++] = (int)n;
    if (!p[len]) break;
    p += len + 1;
  }
  return CB_OK;
}

/* The fleet as given (none when the classic one is scaled). */
static int format_fleet(const cb_option_spec *s, const void *opts, char *buf, size_t cap) {
  const cb_battleships_options *g = opts;
  size_t len = 0;
  (void)s;
  for (int i = 0; i < g->nfleet && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? "," : "", g->fleet[i]);
  return g->nfleet > 0;
}

static cb_status square_grid(const void *opts, cb_error *err) {
  const cb_battleships_options *g = opts;
  if (g->grid.w != g->grid.h)
    return cb_error_set(err, CB_EINPUT, "--grid %dx%d: battleships grids are square: give one number",
                        g->grid.w, g->grid.h);
  return CB_OK;
}

static const cb_option_spec specs[] = {
    CB_OPTION_COMMON_NUMBER("levels", levels, CB_REC_ALWAYS),
    {.name = "grid",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .field = OWN(grid),
     .parse = cb_option_parse_size,
     .check = square_grid,
     .help = "battleships: rooms per level, an N x N grid, 2 to 100\n"
             "(default 10)",
     .record = CB_REC_ALWAYS},
    {.name = "fleet",
     .arg = "LIST",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_fleet,
     .format = format_fleet,
     .help = "battleships: ship lengths, e.g. 5,4,3,3,2 (default: the\n"
             "classic fleet scaled to the grid)",
     .record = CB_REC_IF_SET},
    {.name = "extra",
     .arg = "K",
     .kind = CB_OPT_NUMBER,
     .lo = 0,
     .hi = 10000,
     .field = OWN(extra),
     .seen = OWN(extra_set),
     .help = "battleships: extra white pegs per grid (default 3)",
     .record = CB_REC_ALWAYS},
    {.name = "extra-stairs",
     .arg = "K",
     .kind = CB_OPT_NUMBER,
     .lo = 0,
     .hi = 100,
     .field = OWN(extra_stairs),
     .help = "battleships: K more stairs between each pair of levels",
     .record = CB_REC_ALWAYS},
    {.name = "secret-rows",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(secret_rows),
     .help = "battleships: the pegs added for rows are secret passages",
     .record = CB_REC_IF_SET},
    {.name = "matching-stairs",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(matching_stairs),
     .help = "battleships: stairs join room k to room k of the next level",
     .record = CB_REC_IF_SET},
    CB_OPTION_COMMON_FLAG("faithful", faithful),
};

const cb_option_set cb_battleships_option_specs = {
    .size = sizeof(cb_battleships_options),
    .about = "BattleDungeon grid-crawl, 2 levels",
    .seed = 3,
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
