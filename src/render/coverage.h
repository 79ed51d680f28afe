/* Which characters the fonts we ship can draw. Text with others is refused
 * (exit 2, naming them as U+XXXX) by every backend alike, instead of printing
 * empty boxes: cairo would fall back to nothing (the fonts are private) and
 * libharu draws one font a run. */
#ifndef CB_COVERAGE_H
#define CB_COVERAGE_H

#include "base/error.h"
#include "page/page.h"

/* The font file of each cb_font, in the fonts directory. */
extern const char *const cb_font_files[CB_FONT_COUNT];

typedef struct cb_coverage cb_coverage;
/* The characters of each font in fonts_dir; NULL when a font cannot be read
 * (the backend that loads it then says why). */
cb_coverage *cb_coverage_load(const char *fonts_dir);
void cb_coverage_free(cb_coverage *c);
/* CB_EINPUT naming the characters of the page's text its fonts lack. */
cb_status cb_coverage_check(const cb_coverage *c, const cb_page *p, cb_error *err);
/* The same for one text, in every font (NULL c or text: CB_OK). */
cb_status cb_coverage_check_text(const cb_coverage *c, const char *text, cb_error *err);

#endif
