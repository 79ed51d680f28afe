#include "sizes.h"

#include <string.h>

#include "base/units.h"

/* In points; A4 as PDFs conventionally round it (595.2756 x 841.8898), the
 * size every dungeon has had by default, so that asking for a4 by name gives
 * the very same page. */
#define MM(x) ((x)*CB_PT_PER_MM)
static const struct {
  const char *name;
  double w, h;
} sizes[] = {{"a4", 595.2756, 841.8898},
             {"letter", MM(215.9), MM(279.4)},
             {"a5", MM(148), MM(210)},
             {"half-letter", MM(139.7), MM(215.9)}};

bool cb_page_size_named(const char *name, double *w, double *h) {
  for (size_t i = 0; name && i < sizeof sizes / sizeof *sizes; i++)
    if (strcmp(name, sizes[i].name) == 0) {
      *w = sizes[i].w, *h = sizes[i].h;
      return true;
    }
  return false;
}
