/* preconnect's options, in the order it records them. */
#include <stddef.h>

#include "proc/proc.h"

#define GEN(member) offsetof(cb_gen_options, member)

static const cb_option_spec specs[] = {
    CB_OPTION_COMMON_NUMBER("rooms", rooms, CB_REC_ALWAYS),
    {.name = "ladders",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = GEN(ladders),
     .help = "preconnect: a corridor crossing under or over another\n"
             "area on an odd roll has ladders, not stairs",
     .record = CB_REC_IF_SET},
    CB_OPTION_COMMON_FLAG("faithful", faithful),
};

const cb_option_set cb_preconnect_option_specs = {
    .about = "pre-connecting, SubMethod I, 12 rooms",
    .seed = 2,
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
