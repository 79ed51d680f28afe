/* preconnect's options, in the order it records them. */
#include <stddef.h>

#include "proc.h"

#define OWN(member) offsetof(cb_preconnect_options, member)

_Static_assert(sizeof(cb_preconnect_options) <= CB_PROC_OPTIONS_MAX,
               "preconnect's options fit the command line's buffer");

static const cb_option_spec specs[] = {
    CB_OPTION_COMMON_NUMBER("rooms", rooms, CB_REC_ALWAYS),
    {.name = "ladders",
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = OWN(ladders),
     .help = "preconnect: a corridor crossing under or over another\n"
             "area on an odd roll has ladders, not stairs",
     .record = CB_REC_IF_SET},
    CB_OPTION_COMMON_FLAG("faithful", faithful),
};

const cb_option_set cb_preconnect_option_specs = {
    .size = sizeof(cb_preconnect_options),
    .about = "pre-connecting, SubMethod I, 12 rooms",
    .seed = 2,
    .specs = specs,
    .n = sizeof specs / sizeof *specs,
};
