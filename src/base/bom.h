/* A UTF-8 byte-order mark at the start of a text file: some editors add one,
 * and none of our formats takes it. Readers refuse it with CB_BOM_MSG, since
 * the parsers would only show an invisible character. */
#ifndef CB_BOM_H
#define CB_BOM_H

#include <stddef.h>
#include <string.h>

#define CB_BOM_MSG "the file starts with a byte-order mark (bytes EF BB BF); save it as UTF-8 without one"

static inline int cb_starts_with_bom(const char *text, size_t len) {
  return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
}

#endif
