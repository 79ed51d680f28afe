/* dropdice's options, in the order it records them. */
#include <stddef.h>

#include "proc.h"

#define OWN(member) offsetof(cb_dropdice_options, member)

_Static_assert(sizeof(cb_dropdice_options) <= CB_PROC_OPTIONS_MAX,
               "dropdice's options fit the command line's buffer");

static const char *const extra_by[] = {"tree", "length", NULL};

static const cb_option_spec specs[] = {
    CB_OPTION_COMMON_NUMBER("rooms", rooms, CB_REC_ALWAYS),
    {.name = "extra-by",
     .arg = "HOW",
     .kind = CB_OPT_WORD,
     .words = extra_by,
     .field = OWN(extra_by),
     .expect = "expected 'tree' or 'length'",
     .help = "dropdice: rank extra paths by 'tree' distance (default)\n"
             "or straight 'length'",
     .record = CB_REC_ALWAYS},
    CB_OPTION_COMMON_FLAG("faithful", faithful),
    {.name = "content",
     .arg = "FILE",
     .kind = CB_OPT_FILE,
     .hi = 1000,
     .field = OWN(content),
     .expect = "expected a table file",
     .help = "dropdice: what each room holds by its tags (default\n"
             "templates/dropdice-contents.txt)",
     .record = CB_REC_IF_SET},
};

const cb_option_set cb_dropdice_option_specs = {
    .size = sizeof(cb_dropdice_options),
    .about = "Jaquaysed drop-dice point-crawl, 10 rooms",
    .seed = 4,
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
