#include "option.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

#define FIELD(opts, s, type) ((type *)(void *)((char *)(opts) + (s)->field))
#define CFIELD(opts, s, type) ((const type *)(const void *)((const char *)(opts) + (s)->field))

bool cb_option_whole_number(const char *s, unsigned long long lo, unsigned long long hi,
                            unsigned long long *out) {
  if (!s || *s < '0' || *s > '9') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

cb_status cb_option_number(const cb_option_spec *s, const char *arg, unsigned long long *out, cb_error *err) {
  if (cb_option_whole_number(arg, s->lo, s->hi, out)) return CB_OK;
  char expect[128];
  snprintf(expect, sizeof expect, s->expect ? s->expect : "expected a whole number from %llu to %llu", s->lo,
           s->hi);
  return cb_error_set(err, CB_EINPUT, "--%s '%s': %s", s->name, arg, expect);
}

cb_status cb_option_text(const char *name, const char *arg, size_t max, cb_error *err) {
  if (strlen(arg) > max) return cb_error_set(err, CB_EINPUT, "--%s: longer than %zu bytes", name, max);
  /* it is drawn (the footer's command at least): pango warns about and haru drops what is not UTF-8 */
  const char *bad = cb_text_bad(arg);
  if (bad)
    return cb_error_set(err, CB_EINPUT, "--%s: byte %zu is %s", name, (size_t)(bad - arg) + 1,
                        cb_utf8_char(bad, strlen(bad), NULL) ? "a control character" : "not UTF-8 text");
  return CB_OK;
}

/* "expected a, b or c" from the row's words. */
static void word_list(const cb_option_spec *s, char *buf, size_t cap) {
  size_t n = 0;
  int count = 0;
  while (s->words[count])
    count++;
  n += (size_t)snprintf(buf, cap, "expected");
  for (int i = 0; i < count && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s",
                          i == 0           ? " "
                          : i == count - 1 ? " or "
                                           : ", ",
                          s->words[i]);
}

static cb_status parse_word(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  for (int i = 0; s->words[i]; i++)
    if (strcmp(arg, s->words[i]) == 0) {
      *FIELD(opts, s, int) = i;
      return CB_OK;
    }
  char expect[256];
  if (s->expect)
    snprintf(expect, sizeof expect, "%s", s->expect);
  else
    word_list(s, expect, sizeof expect);
  return cb_error_set(err, CB_EINPUT, "--%s '%s': %s", s->name, arg, expect);
}

cb_status cb_option_parse(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  unsigned long long v = 0;
  if (s->parse) {
    if (s->parse(s, arg, opts, err) != CB_OK) return err->status;
  } else {
    switch (s->kind) {
    case CB_OPT_FLAG: *FIELD(opts, s, bool) = s->set; break;
    case CB_OPT_NUMBER:
      if (cb_option_number(s, arg, &v, err)) return err->status;
      *FIELD(opts, s, int) = (int)v;
      break;
    case CB_OPT_WORD:
      if (parse_word(s, arg, opts, err)) return err->status;
      break;
    case CB_OPT_FILE:
      if (!*arg)
        return cb_error_set(err, CB_EINPUT, "--%s: %s", s->name, s->expect ? s->expect : "give a file");
      /* fall through */
    case CB_OPT_TEXT:
      if (s->hi && cb_option_text(s->name, arg, (size_t)s->hi, err)) return err->status;
      *FIELD(opts, s, const char *) = arg;
      break;
    case CB_OPT_CUSTOM: return cb_error_set(err, CB_EINTERNAL, "--%s: no parser", s->name);
    }
  }
  if (s->seen) *(bool *)(void *)((char *)opts + s->seen) = true;
  return CB_OK;
}

/* One row's value as recorded: 0 none, 1 text, 2 a number, 3 a flag. */
static int record_value(const cb_option_spec *s, const void *opts, char *buf, size_t cap, const char **text) {
  *text = buf;
  switch (s->kind) {
  case CB_OPT_FLAG: return *CFIELD(opts, s, bool) == s->set ? 3 : 0;
  case CB_OPT_NUMBER: {
    int v = *CFIELD(opts, s, int);
    if (v == 0 && s->record == CB_REC_IF_SET) return 0;
    snprintf(buf, cap, "%d", v);
    return 2;
  }
  case CB_OPT_WORD: *text = s->words[*CFIELD(opts, s, int)]; return 1;
  case CB_OPT_TEXT:
  case CB_OPT_FILE:
    *text = *CFIELD(opts, s, char *); /* the field is a const char * */
    if (!*text && s->record == CB_REC_ALWAYS) *text = s->dflt;
    return *text ? 1 : 0;
  case CB_OPT_CUSTOM: return s->format ? s->format(s, opts, buf, cap) : 0;
  }
  return 0;
}

int cb_option_record_all(cb_dungeon *d, const cb_option_set *set, const void *common, const void *own) {
  char buf[512];
  for (int i = 0; i < set->n; i++) {
    const cb_option_spec *s = &set->specs[i];
    const void *opts = s->flags & CB_OPTF_COMMON ? common : own;
    const char *text;
    int how = s->record == CB_REC_NONE ? 0 : record_value(s, opts, buf, sizeof buf, &text);
    if (how == 3 ? cb_dungeon_set_flag(d, s->name)
        : how    ? cb_dungeon_set_option(d, s->name, text, how == 2)
                 : 0)
      return -1;
  }
  return 0;
}

const cb_option_spec *cb_option_find(const cb_option_set *set, const char *name) {
  for (int i = 0; set && i < set->n; i++)
    if (strcmp(set->specs[i].name, name) == 0) return &set->specs[i];
  return NULL;
}

/* Digits only, from lo to hi (what strtoull reads whole from a digit). */
static bool digits(const char *s, size_t n, unsigned long long lo, unsigned long long hi,
                   unsigned long long *out) {
  unsigned long long v = 0;
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (unsigned long long)(s[i] - '0');
    if (v > hi) return false;
  }
  *out = v;
  return v >= lo;
}

cb_status cb_option_parse_size(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  const char *x = strchr(arg, 'x');
  unsigned long long w = 0, h = 0;
  bool ok = x ? digits(arg, (size_t)(x - arg), 1, 100, &w) && cb_option_whole_number(x + 1, 1, 100, &h)
              : cb_option_whole_number(arg, 1, 100, &w);
  if (!ok)
    return cb_error_set(err, CB_EINPUT, "--%s '%s': expected N or WxH, 1 to 100 a side, e.g. 10 or 5x5",
                        s->name, arg);
  *FIELD(opts, s, cb_option_size) = (cb_option_size){(int)w, x ? (int)h : (int)w};
  return CB_OK;
}
