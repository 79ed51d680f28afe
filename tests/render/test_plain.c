/* The cairo backend shapes a plain text (printable ASCII and a few
 * punctuation marks outside it, in a face whose one font draws them all)
 * straight through HarfBuzz and draws it without a layout, from pieces
 * shaped once a run: it must measure and draw the very same as pango's
 * layout does, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/backend.h"
#include "testlib.h"

/* Texts of every kind: plain, plain with the punctuation outside ASCII the
 * key is full of, figures alone, and texts the plain path must leave to
 * pango (accented letters, a lone space). */
static const char *const texts[] = {
    "Goblins", "3 goblins (HD 1)",
    "HD\xc2\xa0"
    "1",
    "AC\xc2\xa0"
    "7\xc2\xa0[12], HD\xc2\xa0"
    "1, 1 weapon 1d6",
    "12",
    "12\xc2\xa0"
    "ft",
    "\xe2\x80\x94 ", "Crypt \xc2\xb7 seed 1 \xc2\xb7 10 rooms \xc2\xb7 page 2",
    "1\xe2\x80\x93"
    "3",
    "the sexton\xe2\x80\x99s key", "\xe2\x80\x9cHalt!\xe2\x80\x9d", "Wait\xe2\x80\xa6",
    "2\xc3\x97"
    "3",
    "caf\xc3\xa9", "\xce\xb1\xce\xb2", "\xe2\x86\x92 4", " ", "x", "Roster. Ghoul.", "L2 K1", "?",
    "Trap, threshold: pit, 1d6.", "\xc2\xb7",
    "(card\xc2\xa0"
    "7)",
    /* lines drawn piece by piece, each a word and its spaces shaped with
     * the letter after (the font kerns "f" and " " and "w"): a
     * piece met again, pieces too long to keep, spaces leading, doubled
     * and trailing, figures alone */
    "Shrine of bones. A heap of skulls, wheeling and shrieking. ", "T. Y. V. W. of f. To Ty AVAWAY f w",
    "  two  spaces  between  ", "12 13 14, 20", "Shrine of bones. A heap of skulls, wheeling and shrieking. ",
    "a-long-hyphenated-word-beyond-what-a-piece-keeps-in-memory of it", "of f. To Ty AVAWAY f w"};

static cb_backend *cairo_of(bool layout_only) {
  cb_render_options ro = {CB_FORMAT_PDF, 150, cb_test_source_path("fonts"), layout_only, layout_only};
  cb_error err = {0};
  cb_backend *b = NULL;
  assert_int_equal(cb_backend_create(cb_backend_find("cairo"), &ro, &b, &err), CB_OK);
  return b;
}

static void render(cb_backend *b, const cb_document *doc, cb_test_buf *out) {
  cb_error err = {0};
  if (cb_backend_render(b, doc, (cb_sink){out, cb_test_buf_write}, &err) != CB_OK) fail_msg("%s", err.msg);
}

/* A page of every text in every face, each measured alike by both backends. */
static cb_page *page_of_texts(cb_backend *quick, cb_backend *slow) {
  const cb_measure *mq = quick->cls->measure(quick), *ms = slow->cls->measure(slow);
  cb_page *p = cb_page_new(595, 842);
  assert_non_null(p);
  double y = 20;
  for (int f = 0; f < CB_FONT_COUNT; f++)
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++, y += 7) {
      double size = 6 + (double)((i + (size_t)f) % 4) * 1.5;
      double wq = mq->width(mq->ctx, (cb_font)f, size, texts[i]),
             ws = ms->width(ms->ctx, (cb_font)f, size, texts[i]);
      if (wq != ws) fail_msg("'%s' in font %d: %.9f pt plain, %.9f by the layout", texts[i], f, wq, ws);
      cb_page_text(p, (cb_font)f, size, 20 + (double)(i % 3) * 150, y < 820 ? y : y - 800, (cb_rgb){0, 0, 0},
                   texts[i]);
    }
  return p;
}

/* x drawn by bx and y drawn by by are the same PDF, byte for byte. */
static void same_bytes(cb_backend *bx, const cb_document *x, cb_backend *by, const cb_document *y) {
  cb_test_buf a = {0}, b = {0};
  render(bx, x, &a);
  render(by, y, &b);
  assert_true(a.len > 1000);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  free(a.data);
  free(b.data);
}

static void plain_texts_measure_and_draw_as_the_layout_does(void **state) {
  (void)state;
  cb_backend *quick = cairo_of(false), *slow = cairo_of(true);
  cb_document doc = {.title = "plain", .date = 1700000000};
  assert_int_equal(cb_document_add(&doc, page_of_texts(quick, slow)), 0);
  same_bytes(quick, &doc, slow, &doc);
  cb_document_free(&doc);
  cb_backend_destroy(quick);
  cb_backend_destroy(slow);
}

/* Issue 24: a batch's worker shapes its pages' lines ahead of drawing
 * (cb_backend_prepare, with fonts of its own); the drawing backend draws
 * them from those glyphs, to the same bytes as shaping them itself. */
static void a_page_prepared_elsewhere_draws_the_same(void **state) {
  (void)state;
  cb_backend *drawer = cairo_of(false), *worker = cairo_of(true), *layout = cairo_of(true);
  cb_render_options ro = {CB_FORMAT_PDF, 150, cb_test_source_path("fonts"), true, false};
  cb_error err = {0};
  cb_backend_destroy(worker);
  assert_int_equal(cb_backend_create(cb_backend_find("cairo"), &ro, &worker, &err), CB_OK);
  cb_document plain = {.title = "plain", .date = 1700000000}, ahead = plain;
  assert_int_equal(cb_document_add(&plain, page_of_texts(drawer, layout)), 0);
  assert_int_equal(cb_document_add(&ahead, page_of_texts(drawer, layout)), 0);
  cb_backend_prepare(worker, ahead.pages[0]);
  assert_true(ahead.pages[0]->prepared != NULL);
  same_bytes(drawer, &plain, drawer, &ahead);
  cb_document_free(&plain);
  cb_document_free(&ahead);
  cb_backend_destroy(drawer);
  cb_backend_destroy(worker);
  cb_backend_destroy(layout);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(plain_texts_measure_and_draw_as_the_layout_does),
                                     cmocka_unit_test(a_page_prepared_elsewhere_draws_the_same)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
