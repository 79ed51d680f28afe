#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"

int cb_utf8_char(const char *s, size_t n, unsigned *cp) {
  const unsigned char *p = (const unsigned char *)s;
  if (n == 0) return 0;
  unsigned c = p[0];
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || (size_t)len > n) return 0;
  if (len > 1) c &= 0x3Fu >> (len - 1);
  for (int k = 1; k < len; k++) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    c = (c << 6) | (p[k] & 0x3Fu);
  }
  static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  if (cp) *cp = c;
  return len;
}

static bool is_control(unsigned c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

const char *cb_text_bad(const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    unsigned c;
    int len = cb_utf8_char(s + i, n - i, &c);
    if (len == 0 || is_control(c)) return s + i;
    i += (size_t)len;
  }
  return NULL;
}

size_t cb_utf8_cut(const char *s, size_t n, size_t max) {
  if (n <= max) return n;
  size_t k = max;
  while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) /* s[k] continues a character */
    k--;
  return k;
}

void cb_utf8_shorten(char *s, size_t max) {
  size_t n = strlen(s);
  if (n > max) memcpy(s + cb_utf8_cut(s, n, max - 3), "\xe2\x80\xa6", 4);
}

int cb_text_appendf(char **buf, size_t *cap, size_t *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0 || cb_grow(buf, cap, *n + (size_t)k + 1, 1)) return -1;
  va_start(ap, fmt);
  vsnprintf(*buf + *n, (size_t)k + 1, fmt, ap);
  va_end(ap);
  *n += (size_t)k;
  return 0;
}

bool cb_utf8_valid(const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    int len = cb_utf8_char(s + i, n - i, NULL);
    if (len == 0) return false;
    i += (size_t)len;
  }
  return true;
}

char *cb_escape(char *out, size_t cap, const char *s) {
  size_t n = strlen(s), o = 0;
  if (cap == 0) return out;
  for (size_t i = 0; i < n;) {
    unsigned c = 0;
    int len = cb_utf8_char(s + i, n - i, &c);
    int bad = len == 0 || is_control(c);
    if (len == 0) len = 1; /* one stray byte at a time */
    size_t need = bad ? 4u * (size_t)len : (size_t)len;
    if (o + need >= cap) break;
    for (int k = 0; k < len; k++) {
      unsigned char b = (unsigned char)s[i + (size_t)k];
      if (bad)
        o += (size_t)snprintf(out + o, cap - o, "\\x%02x", b);
      else
        out[o++] = (char)b;
    }
    i += (size_t)len;
  }
  out[o] = '\0';
  return out;
}

size_t cb_shell_word(char *buf, size_t cap, size_t n, const char *v) {
  if (*v &&
      strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/+=@%") == strlen(v))
    return n + (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s", v);
  n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "'");
  for (; *v; v++)
    n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, *v == '\'' ? "'\\''" : "%c", *v);
  return n + (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "'");
}

const char *cb_text_join(char *buf, size_t cap, const char *const *words, size_t n, const char *pre,
                         const char *post, const char *last) {
  size_t used = 0;
  if (cap) buf[0] = '\0';
  for (size_t i = 0; i < n && used < cap; i++) {
    const char *between = i == 0 ? "" : i + 1 == n ? last : ", ";
    int k = snprintf(buf + used, cap - used, "%s%s%s%s", between, pre, words[i], post);
    if (k < 0) break;
    used += (size_t)k;
  }
  return buf;
}

/* The lead before the kept colon was one word: it becomes "Lead, word",
 * the word after it in lower case unless it reads as a name ("Trap:
 * Snikt's door") or a code ("K1"). */
static void unchain_lead(char *colon) {
  *colon = ',';
  char *w = colon + 1;
  if (*w != ' ') return;
  w++;
  size_t len = strcspn(w, " ,.;:");
  bool ordinary = w[0] >= 'A' && w[0] <= 'Z' && w[1] >= 'a' && w[1] <= 'z';
  if (ordinary && !memchr(w, '\'', len)) w[0] = (char)(w[0] - 'A' + 'a');
}

void cb_text_unchain(cb_unchain *u, char *s) {
  for (char *p = s; *p; p++) {
    char next = p[1];
    bool ends = next == ' ' || next == '\0';
    if (strchr(".!?;", *p) && ends) {
      *u = (cb_unchain){0};
      continue;
    }
    if (*p == ':' && ends) {
      if (!u->kept) {
        u->kept = p;
      } else if (u->words <= 1) {
        unchain_lead(u->kept);
        u->kept = p;
        u->words = 2;
      } else {
        *p = ',';
      }
      continue;
    }
    bool word = *p != ' ';
    if (word && !u->in_word && !u->kept) u->words++;
    u->in_word = word;
  }
}
