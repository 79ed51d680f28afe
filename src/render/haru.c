/* The libharu backend: PDF only, about four times faster a page than cairo,
 * with the same TrueType fonts embedded. libharu keeps the whole document in
 * memory until it is saved, has no kerning or shaping (the layout measures
 * with its metrics, so lines wrap to fit them), and takes whole-number dash
 * patterns. */
#include <hpdf.h>
#include <hpdf_objects.h>
#include <hpdf_streams.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "base/alloc.h"
#include "coverage.h"
#include "haru_errors.h"

typedef struct haru_backend {
  cb_backend base;
  cb_render_options o;
  HPDF_Doc pdf;
  HPDF_Font fonts[CB_FONT_COUNT];
  HPDF_Page page, *pages;
  int npages;
  size_t cap_pages;
  double h; /* current page height: libharu's y grows upwards */
  cb_measure measure;
  cb_sink sink;
  /* The characters measured, a bit per font and BMP code point, since the
   * marks were last taken (NULL: none yet): libharu embeds every glyph it
   * measures, not only those drawn. */
  unsigned char *marks;
} haru_backend;

enum { MARK_BYTES = 65536 / 8 }; /* a font's marks */

static void fail(haru_backend *b, cb_status st, const char *what) {
  cb_error_set(&b->base.err, st, "%s", what);
}

/* libharu's faults in words: "libharu: page invalid font size (error 0x1050)". */
static void on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user) {
  haru_backend *b = user;
  if (error_no == HPDF_FAILD_TO_ALLOC_MEM) {
    cb_error_oom(&b->base.err);
    return;
  }
  const char *words = "unknown error";
  for (size_t i = 0; i < sizeof CB_HARU_ERRORS / sizeof *CB_HARU_ERRORS; i++)
    if (CB_HARU_ERRORS[i].code == (unsigned)error_no) words = CB_HARU_ERRORS[i].words;
  cb_error_set(&b->base.err, CB_EINTERNAL, "libharu: %s (error 0x%04X, detail %u)", words, (unsigned)error_no,
               (unsigned)detail_no);
}

/* libharu allocates through our allocator, so that tests can make it fail. */
static void *haru_alloc(HPDF_UINT size) { return cb_malloc(size); }
static void haru_free(void *p) { free(p); }

/* The next code point of UTF-8 text at *s (moved past it); 0xFFFD for a
 * malformed sequence. */
static unsigned next_code(const unsigned char **s) {
  const unsigned char *p = *s;
  int extra = p[0] < 0x80 ? 0 : p[0] >= 0xF0 ? 3 : p[0] >= 0xE0 ? 2 : p[0] >= 0xC0 ? 1 : -1;
  if (extra < 0) return *s += 1, 0xFFFD;
  unsigned c = extra ? p[0] & (0x3F >> extra) : p[0];
  for (int k = 1; k <= extra; k++) {
    if ((p[k] & 0xC0) != 0x80) return *s += k, 0xFFFD;
    c = c << 6 | (p[k] & 0x3Fu);
  }
  *s += extra + 1;
  return c;
}

static void mark(haru_backend *b, cb_font font, const char *utf8) {
  if (!b->marks && !(b->marks = cb_calloc(CB_FONT_COUNT, MARK_BYTES))) return;
  unsigned char *m = b->marks + (size_t)font * MARK_BYTES;
  for (const unsigned char *s = (const unsigned char *)utf8; *s;) {
    unsigned c = next_code(&s);
    if (c < 65536) m[c >> 3] |= (unsigned char)(1u << (c & 7));
  }
}

static double measure_width(void *ctx, cb_font font, double size, const char *utf8) {
  haru_backend *b = ctx;
  font = (unsigned)font < CB_FONT_COUNT ? font : 0;
  HPDF_Font f = b->fonts[font];
  if (!f || !*utf8) return 0;
  mark(b, font, utf8);
  HPDF_TextWidth tw = HPDF_Font_TextWidth(f, (const HPDF_BYTE *)utf8, (HPDF_UINT)strlen(utf8));
  return tw.width * size / 1000.0;
}

static void *take_marks(cb_backend *base) {
  haru_backend *b = (haru_backend *)base;
  void *m = b->marks;
  b->marks = NULL;
  return m;
}

/* Every character marked measured in b's fonts, as if b had measured it. */
static void add_marks(cb_backend *base, const void *marks) {
  haru_backend *b = (haru_backend *)base;
  const unsigned char *m = marks;
  for (int f = 0; f < CB_FONT_COUNT; f++, m += MARK_BYTES) {
    for (unsigned c = 1; b->fonts[f] && c < 65536; c++) {
      if (!(m[c >> 3] & (1u << (c & 7)))) continue;
      unsigned char u[4];
      int n = c < 0x80 ? (u[0] = (unsigned char)c, 1)
              : c < 0x800
                  ? (u[0] = (unsigned char)(0xC0 | c >> 6), u[1] = (unsigned char)(0x80 | (c & 0x3F)), 2)
                  : (u[0] = (unsigned char)(0xE0 | c >> 12), u[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F)),
                     u[2] = (unsigned char)(0x80 | (c & 0x3F)), 3);
      HPDF_Font_TextWidth(b->fonts[f], u, (HPDF_UINT)n);
    }
  }
}

static void destroy(cb_backend *base) {
  haru_backend *b = (haru_backend *)base;
  free(b->marks);
  if (b->pdf) HPDF_Free(b->pdf);
  free(b->pages);
  free(b);
}

/* libharu 2.3 writes its UTF-8 fonts a ToUnicode CMap with a cidrange
 * (wrong in a ToUnicode map: poppler warns on every page). Its text codes are
 * the characters' code points, so the right map is the identity: rewrite it. */
static void fix_to_unicode(HPDF_Font font) {
  HPDF_Dict tu = HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT);
  if (!tu || !tu->stream) return;
  HPDF_MemStream_FreeData(tu->stream);
  HPDF_Stream_WriteStr(tu->stream,
                       "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                       "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                       "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                       "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
  /* ranges may not cross a change of the high byte; surrogates map to nothing */
  char line[64];
  for (int hi = 0; hi < 256;) {
    int n = 0;
    for (int k = hi; k < 256 && n < 100; k++)
      if (k < 0xD8 || k > 0xDF) n++;
    snprintf(line, sizeof line, "%d beginbfrange\n", n);
    HPDF_Stream_WriteStr(tu->stream, line);
    for (n = 0; hi < 256 && n < 100; hi++) {
      if (hi >= 0xD8 && hi <= 0xDF) continue;
      snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", hi, hi, hi);
      HPDF_Stream_WriteStr(tu->stream, line);
      n++;
    }
    HPDF_Stream_WriteStr(tu->stream, "endbfrange\n");
  }
  HPDF_Stream_WriteStr(tu->stream, "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
}

static cb_status create(const cb_render_options *o, cb_backend **out, cb_error *err) {
  haru_backend *b = cb_calloc(1, sizeof *b);
  if (!b) return cb_error_oom(err);
  b->base.cls = &cb_backend_haru;
  b->o = *o;
  b->pdf = HPDF_NewEx(on_error, haru_alloc, haru_free, 0, b);
  if (!b->pdf) {
    free(b);
    return cb_error_set(err, CB_EINTERNAL, "libharu could not start a document");
  }
  HPDF_SetCompressionMode(b->pdf, HPDF_COMP_ALL);
  HPDF_UseUTFEncodings(b->pdf);
  HPDF_SetCurrentEncoder(b->pdf, "UTF-8");
  for (int i = 0; i < CB_FONT_COUNT && b->base.err.status == CB_OK; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", o->fonts_dir, cb_font_files[i]);
    const char *name = HPDF_LoadTTFontFromFile(b->pdf, path, HPDF_TRUE);
    b->fonts[i] = name ? HPDF_GetFont(b->pdf, name, "UTF-8") : NULL;
    if (!b->fonts[i])
      cb_error_set(&b->base.err, CB_EINTERNAL, "libharu could not load %s", path);
    else
      fix_to_unicode(b->fonts[i]);
  }
  if (b->base.err.status != CB_OK) {
    cb_status st = cb_error_set(err, b->base.err.status, "%s", b->base.err.msg);
    destroy(&b->base);
    return st;
  }
  b->measure = (cb_measure){b, measure_width};
  *out = &b->base;
  return CB_OK;
}

static const cb_measure *measure(cb_backend *base) { return &((haru_backend *)base)->measure; }

static void set_date(haru_backend *b, long long t) {
  time_t tt = (time_t)t;
  struct tm tm;
  gmtime_r(&tt, &tm);
  HPDF_Date date = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                    tm.tm_sec,         'Z',           0,          0};
  HPDF_SetInfoDateAttr(b->pdf, HPDF_INFO_CREATION_DATE, date);
  HPDF_SetInfoDateAttr(b->pdf, HPDF_INFO_MOD_DATE, date);
}

static void begin_document(cb_backend *base, const cb_document *doc, cb_sink sink) {
  haru_backend *b = (haru_backend *)base;
  b->sink = sink;
  if (b->o.format != CB_FORMAT_PDF) {
    fail(b, CB_EINPUT, "the haru backend writes PDF only");
    return;
  }
  HPDF_SetInfoAttr(b->pdf, HPDF_INFO_TITLE, doc->title ? doc->title : "");
  HPDF_SetInfoAttr(b->pdf, HPDF_INFO_CREATOR, doc->creator ? doc->creator : "crawlbook");
  if (doc->author) HPDF_SetInfoAttr(b->pdf, HPDF_INFO_AUTHOR, doc->author);
  if (doc->subject) HPDF_SetInfoAttr(b->pdf, HPDF_INFO_SUBJECT, doc->subject);
  set_date(b, doc->date);
}

static void begin_page(cb_backend *base, const cb_page *p, int index) {
  haru_backend *b = (haru_backend *)base;
  (void)index;
  if (b->base.err.status) return;
  b->page = HPDF_AddPage(b->pdf);
  if (!b->page || cb_grow(&b->pages, &b->cap_pages, (size_t)b->npages + 1, sizeof *b->pages)) {
    fail(b, CB_EINTERNAL, "out of memory");
    return;
  }
  b->pages[b->npages++] = b->page;
  HPDF_Page_SetWidth(b->page, (HPDF_REAL)p->w);
  HPDF_Page_SetHeight(b->page, (HPDF_REAL)p->h);
  HPDF_Page_SetLineJoin(b->page, HPDF_ROUND_JOIN);
  b->h = p->h;
}

static void path(cb_backend *base, const cb_page *p, const cb_item *it) {
  haru_backend *b = (haru_backend *)base;
  HPDF_Page pg = b->page;
  const cb_ink *ink = &it->ink;
  if (ink->fill)
    HPDF_Page_SetRGBFill(pg, (HPDF_REAL)ink->fill_color.r, (HPDF_REAL)ink->fill_color.g,
                         (HPDF_REAL)ink->fill_color.b);
  if (ink->stroke) {
    HPDF_Page_SetRGBStroke(pg, (HPDF_REAL)ink->stroke_color.r, (HPDF_REAL)ink->stroke_color.g,
                           (HPDF_REAL)ink->stroke_color.b);
    HPDF_Page_SetLineWidth(pg, (HPDF_REAL)ink->width);
    HPDF_Page_SetLineCap(pg, ink->cap == CB_CAP_ROUND ? HPDF_ROUND_END : HPDF_BUTT_END);
    /* whole numbers from 1 only: a dot (length 0) becomes a dash of 1 */
    HPDF_UINT16 dash[4];
    int n = ink->ndash > 4 ? 4 : ink->ndash;
    for (int i = 0; i < n; i++)
      dash[i] = (HPDF_UINT16)(ink->dash[i] < 1 ? 1 : lround(ink->dash[i]));
    HPDF_Page_SetDash(pg, n ? dash : NULL, (HPDF_UINT)n, 0);
  }
  for (int i = it->op0; i < it->op0 + it->nops; i++) {
    const cb_op *op = &p->ops[i];
    switch (op->kind) {
    case CB_OP_MOVE: HPDF_Page_MoveTo(pg, (HPDF_REAL)op->x[0], (HPDF_REAL)(b->h - op->y[0])); break;
    case CB_OP_LINE: HPDF_Page_LineTo(pg, (HPDF_REAL)op->x[0], (HPDF_REAL)(b->h - op->y[0])); break;
    case CB_OP_CURVE:
      HPDF_Page_CurveTo(pg, (HPDF_REAL)op->x[0], (HPDF_REAL)(b->h - op->y[0]), (HPDF_REAL)op->x[1],
                        (HPDF_REAL)(b->h - op->y[1]), (HPDF_REAL)op->x[2], (HPDF_REAL)(b->h - op->y[2]));
      break;
    case CB_OP_CLOSE: HPDF_Page_ClosePath(pg); break;
    }
  }
  if (ink->fill && ink->stroke)
    HPDF_Page_FillStroke(pg);
  else if (ink->fill)
    HPDF_Page_Fill(pg);
  else if (ink->stroke)
    HPDF_Page_Stroke(pg);
  else
    HPDF_Page_EndPath(pg);
}

static void text(cb_backend *base, const cb_item *it) {
  haru_backend *b = (haru_backend *)base;
  HPDF_Page pg = b->page;
  HPDF_Page_SetRGBFill(pg, (HPDF_REAL)it->color.r, (HPDF_REAL)it->color.g, (HPDF_REAL)it->color.b);
  HPDF_Page_BeginText(pg);
  HPDF_Page_SetFontAndSize(pg, b->fonts[(unsigned)it->font < CB_FONT_COUNT ? it->font : 0],
                           (HPDF_REAL)it->size);
  if (it->upside_down) {
    HPDF_Page_SetTextMatrix(pg, -1, 0, 0, -1, (HPDF_REAL)it->x, (HPDF_REAL)(b->h - it->y));
    HPDF_Page_ShowText(pg, it->text);
  } else {
    HPDF_Page_TextOut(pg, (HPDF_REAL)it->x, (HPDF_REAL)(b->h - it->y), it->text);
  }
  HPDF_Page_EndText(pg);
}

static void end_page(cb_backend *base) { (void)base; }

static void outline(cb_backend *base, const char *title, int index) {
  haru_backend *b = (haru_backend *)base;
  if (b->base.err.status || index < 0 || index >= b->npages) return;
  HPDF_Outline o = HPDF_CreateOutline(b->pdf, NULL, title, HPDF_GetEncoder(b->pdf, "UTF-8"));
  HPDF_Destination dst = o ? HPDF_Page_CreateDestination(b->pages[index]) : NULL;
  if (dst) HPDF_Outline_SetDestination(o, dst);
}

static void end_document(cb_backend *base) {
  haru_backend *b = (haru_backend *)base;
  if (b->base.err.status) return;
  if (HPDF_SaveToStream(b->pdf) != HPDF_OK) {
    fail(b, CB_EINTERNAL, "libharu could not finish the document");
    return;
  }
  HPDF_ResetStream(b->pdf);
  unsigned char buf[65536];
  for (;;) {
    HPDF_UINT32 n = sizeof buf;
    HPDF_STATUS st = HPDF_ReadFromStream(b->pdf, buf, &n);
    if (n > 0) {
      cb_status w = b->sink.write(b->sink.closure, buf, n);
      if (w != CB_OK) {
        fail(b, w, "could not write the output");
        return;
      }
    }
    if (st == HPDF_STREAM_EOF) break;
    if (st != HPDF_OK) {
      fail(b, CB_EINTERNAL, "libharu could not read back the document");
      return;
    }
  }
}

const cb_backend_class cb_backend_haru = {
    .name = "haru",
    .formats = 1u << CB_FORMAT_PDF,
    .create = create,
    .destroy = destroy,
    .measure = measure,
    .take_marks = take_marks,
    .add_marks = add_marks,
    .begin_document = begin_document,
    .begin_page = begin_page,
    .path = path,
    .text = text,
    .end_page = end_page,
    .outline = outline,
    .end_document = end_document,
};
