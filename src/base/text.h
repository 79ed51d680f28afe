/* UTF-8 checks and the one escape used for everything printed from input
 * (error messages, --explain lines), so that no byte from a file or an
 * option reaches a terminal as a control sequence. */
#ifndef CB_UTIL_TEXT_H
#define CB_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 character at s (at most n
 * bytes), 0 when it is not one: no overlong forms, surrogates or values
 * above U+10FFFF. *cp gets its code point (may be NULL). */
int cb_utf8_char(const char *s, size_t n, unsigned *cp);
/* The length of the longest start of s (n bytes) of at most max bytes that
 * ends between two characters: a cut there never splits one. */
size_t cb_utf8_cut(const char *s, size_t n, size_t max);
/* Cuts s (valid UTF-8) to at most max bytes (max >= 3), between two
 * characters, with an ellipsis at the cut; s is kept when it fits. */
void cb_utf8_shorten(char *s, size_t max);
/* Every byte of s belongs to a well-formed UTF-8 character. */
bool cb_utf8_valid(const char *s);
/* The first character that is not well-formed UTF-8 or is a control (C0,
 * DEL, C1), or NULL when there is none. */
const char *cb_text_bad(const char *s);
/* s into out (cap bytes, always terminated) with every byte of a control
 * character (C0, DEL, C1) or of ill-formed UTF-8 written as \xHH; a cut
 * falls between characters. Returns out. */
char *cb_escape(char *out, size_t cap, const char *s);

/* printf appended to *buf at *n (its length), *buf grown as needed (*cap
 * bytes, NULL and 0 to begin with; the caller frees it), always terminated;
 * -1 when out of memory (what was there is kept). */
int cb_text_appendf(char **buf, size_t *cap, size_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* words[0..n) into buf (cap bytes, always terminated) for a message, each
 * between pre and post, `last` before the last and ", " before the others:
 * "'cairo' or 'haru'", ".pdf, .svg or .dot". Returns buf. */
const char *cb_text_join(char *buf, size_t cap, const char *const *words, size_t n, const char *pre,
                         const char *post, const char *last);

/* A sentence's colons as a reader takes them (booklet.md: no chains of
 * colons). cb_text_unchain rewrites, in place, every sentence of s that has
 * two or more: a one-word lead's colon becomes a comma ("Trap: threshold:
 * pit" reads "Trap, threshold: pit"), and every colon after the one kept
 * ("low arch: hornets: 1d4" reads "low arch: hornets, 1d4"). A text told in
 * pieces is given piece by piece with one state, zeroed to begin with; the
 * pieces must stay in place until the last is given. */
typedef struct cb_unchain {
  char *kept;   /* the sentence's colon kept so far, or NULL */
  int words;    /* words of the sentence before it */
  bool in_word; /* the last character was part of a word */
} cb_unchain;
void cb_text_unchain(cb_unchain *u, char *s);

/* Appends v to buf (cap bytes, n used) as one word for a POSIX shell,
 * quoted when it needs it; returns the new length (as snprintf counts). */
size_t cb_shell_word(char *buf, size_t cap, size_t n, const char *v);

#endif
