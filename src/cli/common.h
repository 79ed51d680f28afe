/* The options every procedure shares, one table in --help order. */
#ifndef CB_CLI_COMMON_H
#define CB_CLI_COMMON_H

#include "proc/option.h"

/* Their fields are offsets into cb_cli (cli/options.h). */
extern const cb_option_spec cb_cli_common[];
extern const int cb_cli_ncommon;

#endif
