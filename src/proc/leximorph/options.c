/* leximorph's options, in the order it records them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

#define OWN(member) offsetof(cb_leximorph_options, member)

_Static_assert(sizeof(cb_leximorph_options) <= CB_PROC_OPTIONS_MAX,
               "leximorph's options fit the command line's buffer");

/* CxR, 1 to 12 each. */
static cb_status parse_sectors(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_leximorph_options *o = opts;
  unsigned long long c, r;
  const char *x = strchr(arg, 'x');
  char cols[16] = "";
  (void)s;
  if (x && (size_t)(x - arg) < sizeof cols) memcpy(cols, arg, (size_t)(x - arg)), cols[x - arg] = '\0';
  if (!x || !cb_option_whole_number(cols, 1, 12, &c) || !cb_option_whole_number(x + 1, 1, 12, &r))
    return cb_error_set(err, CB_EINPUT, "--sectors '%s': expected columns x rows, each 1 to 12 (e.g. 3x2)",
                        arg);
  o->sector_cols = (int)c;
  o->sector_rows = (int)r;
  return CB_OK;
}

static int format_sectors(const cb_option_spec *s, const void *opts, char *buf, size_t cap) {
  const cb_leximorph_options *o = opts;
  (void)s;
  snprintf(buf, cap, "%dx%d", o->sector_cols, o->sector_rows);
  return 1;
}

/* A table: a name in templates/ or a path. */
#define TABLE(opt, member, dflt_, text)                                                                      \
  {                                                                                                          \
    .name = opt, .arg = "FILE", .kind = CB_OPT_FILE, .hi = 900, .field = OWN(member),                        \
    .expect = "give a table file", .help = text, .record = CB_REC_ALWAYS, .dflt = dflt_, .table = opt        \
  }

static const cb_option_spec specs[] = {
    {.name = "sectors",
     .arg = "CxR",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_sectors,
     .format = format_sectors,
     .help = "leximorph: columns x rows of sectors, 1x1 to 12x12\n"
             "(default 2x2)",
     .record = CB_REC_ALWAYS},
    {.name = "sector-ft",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .lo = 120,
     .hi = 1200,
     .field = OWN(sector_ft),
     .expect = "expected a whole number of feet from %llu to %llu",
     .help = "leximorph: a sector's side in feet, 120 to 1200\n"
             "(default 240)",
     .record = CB_REC_ALWAYS},
    {.name = "rotate",
     .kind = CB_OPT_FLAG,
     .set = false,
     .field = OWN(no_rotate),
     .help = "leximorph: roll a d4 to turn each letter (default)",
     .record = CB_REC_IF_SET},
    {.name = "no-rotate",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(no_rotate),
     .help = "leximorph: keep every letter upright",
     .record = CB_REC_IF_SET},
    TABLE("letters", letters, "leximorph-letters",
          "leximorph: the d10 letter table (default\n"
          "templates/leximorph-letters.txt, which explains strokes)"),
    TABLE("junctions", junctions, "leximorph-junctions",
          "leximorph: the d6 junction table (leximorph-junctions)"),
    TABLE("walls", walls, "leximorph-walls", "leximorph: the d8 wall table (leximorph-walls)"),
    TABLE("doors", doors, "leximorph-doors",
          "leximorph: the d20 table of what lies beyond a door\n"
          "(leximorph-doors)"),
    CB_OPTION_COMMON_FLAG("faithful", faithful),
};

const cb_option_set cb_leximorph_option_specs = {
    .size = sizeof(cb_leximorph_options),
    .about = "pre-loading tunnel templates",
    .seed = 1,
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
