/* cards' options, in the order it records them. */
#include <stddef.h>
#include <stdio.h>

#include "proc.h"

#define OWN(member) offsetof(cb_cards_options, member)

_Static_assert(sizeof(cb_cards_options) <= CB_PROC_OPTIONS_MAX,
               "cards's options fit the command line's buffer");

static const char *const rediscovered[] = {"door", "ignore", "one-way", "concealed", NULL};

/* The grid dealt, WxH (none on a sprawl or under a mask). */
static int format_grid(const cb_option_spec *s, const void *opts, char *buf, size_t cap) {
  const cb_cards_options *c = opts;
  (void)s;
  snprintf(buf, cap, "%dx%d", c->grid.w, c->grid.h);
  return c->grid.w > 0;
}

static const cb_option_spec specs[] = {
    {.name = "sprawl",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(sprawl),
     .help = "deal cards only as the dice call for them, on an\n"
             "unbounded grid, up to --rooms per level (default 25)",
     .record = CB_REC_IF_SET},
    CB_OPTION_COMMON_NUMBER("rooms", rooms, CB_REC_IF_SET),
    {.name = "grid",
     .arg = "WxH",
     .kind = CB_OPT_CUSTOM,
     .field = OWN(grid),
     .parse = cb_option_parse_size,
     .format = format_grid,
     .help = "the grid of cards dealt face down (default 5x5)",
     .record = CB_REC_IF_SET},
    {.name = "shape",
     .arg = "SHAPE",
     .kind = CB_OPT_FILE,
     .hi = 1000,
     .field = OWN(shape),
     .expect = "expected rect, oval or a mask file",
     .help = "rect (default), oval, or a mask file of '#' (card) and '.'\n"
             "rows, e.g. templates/mask-cross.txt (or mask-cross)",
     .record = CB_REC_IF_SET},
    {.name = "entrance",
     .arg = "WHERE",
     .kind = CB_OPT_TEXT,
     .hi = 40,
     .field = OWN(entrance),
     .help = "bottom (centre, default), top, centre, or a cell C,R",
     .record = CB_REC_ALWAYS},
    {.name = "decks",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .lo = 1,
     .hi = CB_CARDS_MAX_DECKS,
     .field = OWN(decks),
     .help = "decks shuffled together, 1 to 2000 (default 1)",
     .record = CB_REC_ALWAYS},
    {.name = "jokers",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(jokers),
     .help = "add the jokers: boss rooms",
     .record = CB_REC_IF_SET},
    {.name = "rediscovered",
     .arg = "HOW",
     .kind = CB_OPT_WORD,
     .words = rediscovered,
     .field = OWN(rediscovered),
     .help = "a die into an explored card with no door to this one:\n"
             "door (default), ignore, one-way or concealed",
     .record = CB_REC_ALWAYS},
    {.name = "doubles-obstructed",
     .kind = CB_OPT_FLAG,
     .set = false,
     .field = OWN(plain_doubles),
     .record = CB_REC_IF_SET},
    {.name = "no-doubles-obstructed",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(plain_doubles),
     /* (the name runs past the column: two spaces, as the text always had) */
     .help = " doubles make plain doors (default: trapped,\n"
             "locked, jammed or obstructed, rolled)",
     .record = CB_REC_IF_SET},
    CB_OPTION_COMMON_NUMBER("levels", levels, CB_REC_ALWAYS),
    CB_OPTION_COMMON_FLAG("faithful", faithful),
    {.name = "min-rooms",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .lo = 1,
     .hi = 100000,
     .field = OWN(min_rooms),
     .help = "deal again when a level keeps fewer cards (default 5)",
     .record = CB_REC_IF_SET},
    {.name = "content",
     .arg = "FILE",
     .kind = CB_OPT_FILE,
     .hi = 1000,
     .field = OWN(content),
     .expect = "expected a table file",
     .help = "the table of what each card holds (default\n"
             "templates/cards-contents.txt)",
     .record = CB_REC_IF_SET,
     .table = "cards"},
    {.name = "lengths",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(lengths),
     .help = "roll a die for each connection's length",
     .record = CB_REC_IF_SET},
    {.name = "length-unit",
     .arg = "FT",
     .kind = CB_OPT_NUMBER,
     .lo = 1,
     .hi = 5280,
     .field = OWN(length_unit),
     .expect = "expected feet per pip, %llu to %llu",
     .help = "feet per pip of that die (default 10)",
     .record = CB_REC_IF_SET},
};

const cb_option_set cb_cards_option_specs = {
    .size = sizeof(cb_cards_options),
    .about = "Cardtography: a deck dealt on a grid",
    .seed = 0,
    .heading = "cards (Cardtography) options:",
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
