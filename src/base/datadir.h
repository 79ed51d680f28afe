/* Where crawlbook finds the fonts and templates it ships. */
#ifndef CB_DATADIR_H
#define CB_DATADIR_H

#include "error.h"

/* The first directory holding fonts/Vollkorn-Regular.ttf among:
 * $CRAWLBOOK_DATADIR, ../share/crawlbook beside the running binary, the source
 * tree it was built from, and the install prefix. NULL when none does. The
 * string is static. Looked for once per process (safe from any thread). */
const char *cb_datadir(void);

/* CB_EINPUT naming the first entry under fonts_dir that is not a regular
 * file (or a directory of them): reading one would block. */
cb_status cb_fonts_check(const char *fonts_dir, cb_error *err);

#endif
