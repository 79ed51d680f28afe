#include "png.h"

#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

typedef struct png_out {
  cb_sink sink;
  cb_status st;
} png_out;

static void write_fn(png_structp png, png_bytep data, size_t len) {
  png_out *o = png_get_io_ptr(png);
  if (o->st == CB_OK) o->st = o->sink.write(o->sink.closure, data, len);
  if (o->st != CB_OK) png_error(png, "write failed");
}

static void flush_fn(png_structp png) { (void)png; }

static void quiet(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static void error_fn(png_structp png, png_const_charp msg) {
  (void)msg;
  png_longjmp(png, 1);
}

cb_status cb_png_write(const unsigned char *data, int w, int h, int stride, double dpi, cb_sink sink,
                       cb_error *err) {
  png_out out = {sink, CB_OK};
  unsigned char *volatile row = cb_malloc((size_t)w * 3);
  if (!row) return cb_error_oom(err);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, error_fn, quiet);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    free(row);
    return cb_error_oom(err);
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    return cb_error_set(err, out.st != CB_OK ? out.st : CB_EINTERNAL, "could not write the PNG");
  }
  png_set_write_fn(png, &out, write_fn, flush_fn);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_uint_32 ppm = (png_uint_32)(dpi / 0.0254 + 0.5);
  png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
  /* line art compresses well with the Sub filter at a low level, and fast */
  png_set_compression_level(png, 3);
  png_set_filter(png, 0, PNG_FILTER_SUB);
  png_write_info(png, info);
  for (int y = 0; y < h; y++) {
    const uint32_t *src = (const uint32_t *)(data + (size_t)y * stride);
    for (int x = 0; x < w; x++) {
      uint32_t px = src[x];
      row[3 * x] = (unsigned char)(px >> 16);
      row[3 * x + 1] = (unsigned char)(px >> 8);
      row[3 * x + 2] = (unsigned char)px;
    }
    png_write_row(png, row);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(row);
  return CB_OK;
}
