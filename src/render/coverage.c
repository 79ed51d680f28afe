#include "coverage.h"

#include <fontconfig/fontconfig.h>
/* (after fontconfig.h, which it needs) */
#include <fontconfig/fcfreetype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/text.h"

const char *const cb_font_files[CB_FONT_COUNT] = {"Vollkorn-Regular.ttf", "Vollkorn-Italic.ttf",
                                                  "Vollkorn-Bold.ttf", "Vollkorn-BoldItalic.ttf"};

struct cb_coverage {
  FcCharSet *set[CB_FONT_COUNT];
  uint64_t ascii[CB_FONT_COUNT][2]; /* a bit for each ASCII character the font has: the most of any text */
};

void cb_coverage_free(cb_coverage *c) {
  if (!c) return;
  for (int i = 0; i < CB_FONT_COUNT; i++)
    if (c->set[i]) FcCharSetDestroy(c->set[i]);
  free(c);
}

cb_coverage *cb_coverage_load(const char *fonts_dir) {
  cb_coverage *c = cb_calloc(1, sizeof *c);
  for (int i = 0; c && i < CB_FONT_COUNT; i++) {
    char path[4096];
    int count = 0;
    snprintf(path, sizeof path, "%s/%s", fonts_dir, cb_font_files[i]);
    FcPattern *pat = FcFreeTypeQuery((const FcChar8 *)path, 0, NULL, &count);
    FcCharSet *set = NULL;
    if (pat && FcPatternGetCharSet(pat, FC_CHARSET, 0, &set) == FcResultMatch) c->set[i] = FcCharSetCopy(set);
    if (pat) FcPatternDestroy(pat);
    if (!c->set[i]) {
      cb_coverage_free(c);
      return NULL;
    }
    for (unsigned cp = 0; cp < 128; cp++)
      if (FcCharSetHasChar(c->set[i], cp)) c->ascii[i][cp / 64] |= (uint64_t)1 << (cp % 64);
  }
  return c;
}

/* Appends " U+XXXX" for cp unless already listed; at most 8. */
static void add_missing(char *list, size_t cap, int *n, unsigned cp) {
  char one[16];
  snprintf(one, sizeof one, " U+%04X", cp);
  if (*n >= 8 || strstr(list, one)) return;
  size_t len = strlen(list);
  snprintf(list + len, cap - len, "%s", one);
  ++*n;
}

/* Adds the characters of text (in font) the fonts lack to list; *first gets
 * text when it lacks one. */
static void scan(const cb_coverage *c, cb_font font, const char *text, char *list, size_t cap, int *n,
                 const char **first) {
  int f = (unsigned)font < CB_FONT_COUNT ? font : 0;
  const FcCharSet *set = c->set[f];
  size_t len = strlen(text);
  for (size_t i = 0; i < len;) {
    unsigned char b = (unsigned char)text[i];
    if (b < 128 && (c->ascii[f][b / 64] >> (b % 64) & 1)) {
      i++;
      continue;
    }
    unsigned cp = 0;
    int step = cb_utf8_char(text + i, len - i, &cp);
    if (step == 0 || !FcCharSetHasChar(set, cp)) {
      add_missing(list, cap, n, step ? cp : 0xFFFD);
      if (!*first) *first = text;
    }
    i += step ? (size_t)step : 1;
  }
}

static cb_status missing(const char *list, int n, const char *first, cb_error *err) {
  if (!first) return CB_OK;
  return cb_error_set(err, CB_EINPUT,
                      "our fonts cannot draw%s%s (in \"%.80s\"): they cover Latin, Greek and Cyrillic "
                      "text",
                      list, n == 8 ? " and more" : "", first);
}

cb_status cb_coverage_check(const cb_coverage *c, const cb_page *p, cb_error *err) {
  char list[128] = "";
  const char *first = NULL;
  int n = 0;
  for (int k = 0; c && k < p->nitems; k++) {
    const cb_item *it = &p->items[k];
    if (it->kind == CB_ITEM_TEXT && it->text) scan(c, it->font, it->text, list, sizeof list, &n, &first);
  }
  return missing(list, n, first, err);
}

cb_status cb_coverage_check_text(const cb_coverage *c, const char *text, cb_error *err) {
  char list[128] = "";
  const char *first = NULL;
  int n = 0;
  for (int f = 0; c && text && f < CB_FONT_COUNT; f++)
    scan(c, (cb_font)f, text, list, sizeof list, &n, &first);
  return missing(list, n, first, err);
}
