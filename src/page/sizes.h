/* The named page sizes, one table for the command line and the templates. */
#ifndef CB_SIZES_H
#define CB_SIZES_H

#include <stdbool.h>

/* The size called name ("a4", "letter", "a5", "half-letter") in points,
 * portrait; false when there is none of that name. */
bool cb_page_size_named(const char *name, double *w, double *h);

#endif
