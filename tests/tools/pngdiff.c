/* Compares two PNGs the way cairo's test suite does: the same size, and no
 * more than a few pixels whose channels differ by more than a tolerance.
 * usage: pngdiff A.png B.png [TOLERANCE (0-255, default 48)] [MAX_PIXELS (default 0.2% of them)]
 * Exit 0 when they match, 1 when not (with counts), 2 when a file is unreadable. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *load(const char *path, png_uint_32 *w, png_uint_32 *h) {
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path)) return NULL;
  img.format = PNG_FORMAT_RGB;
  unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
  if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
    free(buf);
    png_image_free(&img);
    return NULL;
  }
  *w = img.width;
  *h = img.height;
  return buf;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: pngdiff A.png B.png [tolerance] [max-pixels]\n");
    return 2;
  }
  png_uint_32 wa, ha, wb, hb;
  unsigned char *a = load(argv[1], &wa, &ha), *b = load(argv[2], &wb, &hb);
  if (!a || !b) {
    fprintf(stderr, "pngdiff: cannot read %s\n", !a ? argv[1] : argv[2]);
    return 2;
  }
  if (wa != wb || ha != hb) {
    printf("pngdiff: sizes differ: %ux%u and %ux%u\n", wa, ha, wb, hb);
    return 1;
  }
  int tol = argc > 3 ? atoi(argv[3]) : 48;
  long total = (long)wa * ha, limit = argc > 4 ? atol(argv[4]) : total / 500, bad = 0;
  for (long i = 0; i < total; i++)
    for (int c = 0; c < 3; c++)
      if (abs(a[3 * i + c] - b[3 * i + c]) > tol) {
        bad++;
        break;
      }
  free(a);
  free(b);
  if (bad > limit) {
    printf("pngdiff: %ld of %ld pixels differ by more than %d (at most %ld allowed)\n", bad, total, tol,
           limit);
    return 1;
  }
  return 0;
}
