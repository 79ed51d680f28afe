/* Where crawlbook finds the fonts and templates it ships. */
#ifndef CB_DATADIR_H
#define CB_DATADIR_H

/* The first directory holding fonts/Vollkorn-Regular.ttf among:
 * $CRAWLBOOK_DATADIR, ../share/crawlbook beside the running binary, the source
 * tree it was built from, and the install prefix. NULL when none does. The
 * string is static. */
const char *cb_datadir(void);

#endif
