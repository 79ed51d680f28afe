/* The cairo + pango backend: PDF, SVG and PNG. SVG and PNG hold all pages
 * in one picture, one below the other. */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <dirent.h>
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "base/alloc.h"
#include "base/hash.h"
#include "base/text.h"
#include "base/units.h"
#include "png.h"

static const double PAGE_GAP = 12; /* points between stacked SVG/PNG pages */
static const char *const FAMILY = "Vollkorn";

/* How pango's layout shapes a word of printable ASCII in one face, to do
 * the same without a layout (find_plain); [0] for a word with a letter
 * (script Latin), [1] without (Common). */
typedef struct plain_face {
  bool tried;
  PangoItem *item[2]; /* they hold the font */
  hb_font_t *font;
  hb_shape_plan_t *plan[2];
  hb_segment_properties_t props[2];
  hb_feature_t features[2][32];
  unsigned nfeatures[2];
  int baseline;    /* the layout's, in pango units: the face's ascent, whatever the text */
  unsigned extras; /* a bit for each of PLAIN_EXTRA the font draws */
} plain_face;

/* Punctuation outside ASCII that a key is full of (the no-break space of
 * "HD 1", the footer's middle dots, dashes and quotes): script Common, so
 * that pango keeps it in the one run of the words round it, and plain where
 * the face's one font draws it. */
static const unsigned PLAIN_EXTRA[] = {0xA0,   0xB7,   0xD7,   0x2013, 0x2014,
                                       0x2018, 0x2019, 0x201C, 0x201D, 0x2026};

typedef struct cairo_backend {
  cb_backend base;
  cb_render_options o;
  PangoFontMap *fontmap;
  FcConfig *fonts; /* ours; pango 1.50's font map does not release the one it is given */
  PangoContext *pc;
  PangoLayout *layout; /* reused for every measure and every line */
  PangoFontDescription *fd[CB_FONT_COUNT];
  cb_measure measure;
  struct width_memo *memo;   /* shaping is the dearest part of a page: words repeat */
  struct piece_memo *pieces; /* and so do the pieces lines are drawn from */
  PangoGlyphString *piece;   /* one piece's glyphs as shaped */
  struct plain_face plain[CB_FONT_COUNT];
  hb_buffer_t *hb;
  PangoGlyphString *glyphs;
  cb_sink sink;
  cairo_surface_t *surface;
  cairo_t *cr;
  const cb_page *page; /* the page being drawn */
  double yoff, cur_h, scale, total_w, total_h;
} cairo_backend;

static void fail(cairo_backend *b, cb_status st, const char *what) {
  cb_error_set(&b->base.err, st, "%s", what);
}

/* Text is shaped at one size per face and scaled: unhinted metrics are
 * linear in the size, and every new size costs pango a font load and a
 * thread to sort fonts in (a page uses a dozen sizes). */
static const double REF_SIZE = 100;

static void set_font(cairo_backend *b, cb_font font) {
  pango_layout_set_font_description(b->layout, b->fd[(unsigned)font < CB_FONT_COUNT ? font : 0]);
}

/* Widths at REF_SIZE already measured, by font and text: an open-addressed
 * table that starts over when full. Only short texts are kept. */
enum { MEMO_SLOTS = 16384, MEMO_TEXT = 40 }; /* about 1 MB: a batch's vocabulary without starting over */
typedef struct width_memo {
  struct {
    int font; /* -1: empty */
    double width;
    char text[MEMO_TEXT];
  } slot[MEMO_SLOTS];
  int used;
} width_memo;

static uint32_t memo_hash(cb_font font, const char *s) {
  return cb_hash_str(CB_HASH_START ^ (uint32_t)font, s);
}

/* The one item the layout makes of text in font, copied; NULL when it makes
 * more than one or no line. */
static PangoItem *only_item(cairo_backend *b, cb_font font, const char *text) {
  set_font(b, font);
  pango_layout_set_text(b->layout, text, -1);
  if (pango_layout_get_line_count(b->layout) != 1) return NULL;
  GSList *runs = pango_layout_get_line_readonly(b->layout, 0)->runs;
  if (!runs || runs->next) return NULL;
  return pango_item_copy(((PangoGlyphItem *)runs->data)->item);
}

/* What pango's shaping (shape.c, pango_hb_shape) gives HarfBuzz for an item
 * laid out left to right: its font's features, then those of its
 * attributes; false for anything else it would do (letter spacing, shown
 * spaces, text transforms, vertical or right-to-left runs). */
static bool plain_shaping(plain_face *pf, int k) {
  const PangoAnalysis *a = &pf->item[k]->analysis;
  const unsigned shaping_flags = PANGO_ANALYSIS_FLAG_CENTERED_BASELINE | PANGO_ANALYSIS_FLAG_IS_ELLIPSIS |
                                 PANGO_ANALYSIS_FLAG_NEED_HYPHEN;
  if (a->level != 0 || a->gravity != PANGO_GRAVITY_SOUTH || (a->flags & shaping_flags)) return false;
  unsigned n = 0, cap = sizeof pf->features[k] / sizeof *pf->features[k];
  pango_font_get_features(a->font, pf->features[k], cap, &n);
  for (GSList *l = a->extra_attrs; l; l = l->next) {
    const PangoAttribute *attr = l->data;
    if (attr->klass->type != PANGO_ATTR_FONT_FEATURES) return false;
    for (const char *f = ((const PangoAttrFontFeatures *)attr)->features; f && n < cap;) {
      const char *end = strchr(f, ',');
      if (hb_feature_from_string(f, end ? (int)(end - f) : -1, &pf->features[k][n]))
        pf->features[k][n].start = attr->start_index, pf->features[k][n++].end = attr->end_index;
      f = end ? end + 1 : NULL;
    }
  }
  pf->nfeatures[k] = n;
  pf->props[k] = (hb_segment_properties_t){
      HB_DIRECTION_LTR, (hb_script_t)g_unicode_script_to_iso15924(a->script),
      hb_language_from_string(pango_language_to_string(a->language), -1), NULL, NULL};
  unsigned ncoords = 0;
  const int *coords = hb_font_get_var_coords_normalized(pf->font, &ncoords);
  pf->plan[k] = hb_shape_plan_create_cached2(hb_font_get_face(pf->font), &pf->props[k], pf->features[k], n,
                                             coords, ncoords, NULL);
  return pf->plan[k] != NULL;
}

/* Where one font of a face draws the whole of printable ASCII and the
 * space, a text of them is one item, its analysis that of a letter, or of a
 * digit when it has no letter (script Common): such words are shaped straight
 * with HarfBuzz, the same glyphs for a third of the layout's work, and such
 * lines are drawn without a layout (show_plain). Found at a face's first
 * text, so that a face never used is never loaded. */
static void find_plain(cairo_backend *b, cb_font font) {
  plain_face *pf = &b->plain[font];
  char ascii['~' - ' ' + 2];
  for (int c = ' '; c <= '~'; c++)
    ascii[c - ' '] = (char)c;
  ascii[sizeof ascii - 1] = '\0';
  pf->tried = true;
  PangoItem *all = only_item(b, font, ascii);
  int all_baseline = pango_layout_get_baseline(b->layout);
  pf->item[0] = only_item(b, font, "a");
  int letter_baseline = pango_layout_get_baseline(b->layout);
  pf->item[1] = only_item(b, font, "1");
  pf->baseline = pango_layout_get_baseline(b->layout);
  bool ok = all && pf->item[0] && pf->item[1] && all->analysis.font == pf->item[0]->analysis.font &&
            pf->item[1]->analysis.font == all->analysis.font &&
            all->analysis.script == pf->item[0]->analysis.script && all_baseline == pf->baseline &&
            letter_baseline == pf->baseline;
  if (all) pango_item_free(all);
  pf->font = ok ? pango_font_get_hb_font(pf->item[0]->analysis.font) : NULL;
  hb_codepoint_t glyph;
  for (int c = ' '; pf->font && c <= '~'; c++)
    if (!hb_font_get_nominal_glyph(pf->font, (hb_codepoint_t)c, &glyph)) pf->font = NULL;
  for (size_t i = 0; pf->font && i < sizeof PLAIN_EXTRA / sizeof *PLAIN_EXTRA; i++)
    if (hb_font_get_nominal_glyph(pf->font, PLAIN_EXTRA[i], &glyph)) pf->extras |= 1u << i;
  if (!pf->font || !plain_shaping(pf, 0) || !plain_shaping(pf, 1)) pf->font = NULL;
}

/* Whether the character at s (its length into *len) is one of pf's plain extras. */
static bool plain_extra(const plain_face *pf, const char *s, int *len) {
  unsigned cp = 0;
  *len = cb_utf8_char(s, strnlen(s, 4), &cp); /* a character is at most 4 bytes: no strlen per character */
  for (size_t i = 0; *len > 1 && i < sizeof PLAIN_EXTRA / sizeof *PLAIN_EXTRA; i++)
    if (PLAIN_EXTRA[i] == cp) return (pf->extras >> i) & 1u;
  return false;
}

/* 1 for a text of printable ASCII and pf's extras (and spaces, if `spaces`)
 * with a letter, 2 without, 0 otherwise. */
static int plain_kind(const plain_face *pf, const char *s, bool spaces) {
  int letter = 0, len = 1;
  if (!*s) return 0;
  for (; *s; s += len) {
    len = 1;
    if ((*s < (spaces ? ' ' : '!') || *s > '~') && !plain_extra(pf, s, &len)) return 0;
    letter |= (*s | 32) >= 'a' && (*s | 32) <= 'z';
  }
  return letter ? 1 : 2;
}

/* The face of a plain text in font (its kind in *kind), ready to shape
 * with; NULL when the text or the face is not plain. */
static plain_face *plain_of(cairo_backend *b, cb_font font, const char *utf8, bool spaces, int *kind) {
  *kind = 0;
  if (!b->hb || !b->glyphs || (unsigned)font >= CB_FONT_COUNT || !*utf8) return NULL;
  plain_face *pf = &b->plain[font];
  if (!pf->tried) find_plain(b, font);
  *kind = pf->font ? plain_kind(pf, utf8, spaces) : 0;
  return *kind ? pf : NULL;
}

/* A plain word's width in pango units, as pango_hb_shape shapes it; -1 when
 * it is not plain. */
static int plain_width(cairo_backend *b, cb_font font, const char *utf8) {
  int kind;
  plain_face *pf = plain_of(b, font, utf8, false, &kind);
  if (!pf) return -1;
  int k = kind - 1, len = (int)strlen(utf8);
  hb_buffer_clear_contents(b->hb);
  hb_buffer_set_segment_properties(b->hb, &pf->props[k]);
  hb_buffer_set_cluster_level(b->hb, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS);
  hb_buffer_set_flags(b->hb, HB_BUFFER_FLAG_BOT | HB_BUFFER_FLAG_EOT);
  hb_buffer_set_invisible_glyph(b->hb, PANGO_GLYPH_EMPTY);
  hb_buffer_add_utf8(b->hb, utf8, len, 0, len);
  if (!hb_shape_plan_execute(pf->plan[k], pf->font, b->hb, pf->features[k], pf->nfeatures[k])) return -1;
  unsigned n = 0;
  const hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b->hb, &n);
  int w = 0;
  for (unsigned i = 0; i < n; i++)
    w += abs(pos[i].x_advance); /* pango turns a negative width round */
  return n ? w : -1;
}

/* The glyphs lines are drawn with, by piece: a piece of a line is a word and
 * the spaces after it, shaped with the character that follows (the font kerns
 * a letter against a space and a space against a letter, and nothing further),
 * so that the pieces of a line have the very glyphs of the line shaped whole.
 * Kept by font, kind and text in a pool that starts over when full. */
enum { PIECE_SLOTS = 8192, PIECE_TEXT = 48, PIECE_POOL = 49152 };
typedef struct piece_memo {
  struct {
    int font;              /* -1: empty */
    int kind, first, n;    /* the glyphs: n from glyphs[first] */
    char text[PIECE_TEXT]; /* the piece and the character after it */
  } slot[PIECE_SLOTS];
  PangoGlyphInfo glyphs[PIECE_POOL];
  int clusters[PIECE_POOL];
  int used, pooled;
} piece_memo;

static piece_memo *piece_memo_new(void) {
  piece_memo *m = cb_malloc(sizeof *m);
  for (int k = 0; m && k < PIECE_SLOTS; k++)
    m->slot[k].font = -1;
  if (m) m->used = m->pooled = 0;
  return m;
}

/* Appends glyphs [0, n) of g to b->glyphs, their clusters `at` bytes on. */
static void append_glyphs(cairo_backend *b, const PangoGlyphInfo *g, const int *clusters, int n, int at) {
  int n0 = b->glyphs->num_glyphs;
  pango_glyph_string_set_size(b->glyphs, n0 + n);
  memcpy(b->glyphs->glyphs + n0, g, sizeof *g * (size_t)n);
  for (int i = 0; i < n; i++)
    b->glyphs->log_clusters[n0 + i] = clusters[i] + at;
}

/* The piece text (len bytes, `own` of them its own, the rest the character
 * after it) shaped in font and kind, its own glyphs appended to b->glyphs. */
static void add_piece(cairo_backend *b, const PangoAnalysis *a, cb_font font, int kind, const char *text,
                      int len, int own, int at) {
  piece_memo *m = b->pieces;
  uint32_t h = 0;
  if (m && len < PIECE_TEXT) {
    h = cb_hash_str(CB_HASH_START ^ (uint32_t)(font * 2 + kind), text) % PIECE_SLOTS;
    for (uint32_t i = h; m->slot[i].font >= 0; i = (i + 1) % PIECE_SLOTS)
      if (m->slot[i].font == (int)font && m->slot[i].kind == kind && strcmp(m->slot[i].text, text) == 0) {
        append_glyphs(b, m->glyphs + m->slot[i].first, m->clusters + m->slot[i].first, m->slot[i].n, at);
        return;
      }
  }
  pango_shape_full(text, len, text, len, a, b->piece);
  int n = b->piece->num_glyphs;
  while (n > 0 && b->piece->log_clusters[n - 1] >= own) /* the next character's glyph is the next piece's */
    n--;
  append_glyphs(b, b->piece->glyphs, b->piece->log_clusters, n, at);
  if (!m || len >= PIECE_TEXT) return;
  if (m->used >= PIECE_SLOTS * 3 / 4 || m->pooled + n > PIECE_POOL) {
    for (int k = 0; k < PIECE_SLOTS; k++)
      m->slot[k].font = -1;
    m->used = m->pooled = 0;
  }
  uint32_t i = h;
  while (m->slot[i].font >= 0)
    i = (i + 1) % PIECE_SLOTS;
  m->slot[i].font = (int)font, m->slot[i].kind = kind, m->slot[i].first = m->pooled, m->slot[i].n = n;
  memcpy(m->slot[i].text, text, (size_t)len + 1);
  memcpy(m->glyphs + m->pooled, b->piece->glyphs, sizeof *m->glyphs * (size_t)n);
  memcpy(m->clusters + m->pooled, b->piece->log_clusters, sizeof *m->clusters * (size_t)n);
  m->pooled += n, m->used++;
}

/* A plain line shaped into b->glyphs piece by piece (add_piece). */
static void shape_pieces(cairo_backend *b, const PangoAnalysis *a, cb_font font, int kind, const char *text,
                         int len) {
  char buf[PIECE_TEXT];
  pango_glyph_string_set_size(b->glyphs, 0);
  for (int s = 0; s < len;) {
    int e = s;
    while (e < len && text[e] != ' ')
      e++;
    while (e < len && text[e] == ' ')
      e++;
    unsigned cp;
    int n = e - s + (e < len ? cb_utf8_char(text + e, (size_t)(len - e), &cp) : 0);
    if (n < PIECE_TEXT) {
      memcpy(buf, text + s, (size_t)n);
      buf[n] = '\0';
      add_piece(b, a, font, kind, buf, n, e - s, s);
    } else {
      add_piece(b, a, font, kind, text + s, n, e - s, s); /* not kept: shaped in place */
    }
    s = e;
  }
}

/* The width of b->glyphs in pango units; -1 when there are none or one
 * would need pango's own drawing (unknown, empty, drawn backwards). */
static int plain_glyphs_width(const cairo_backend *b) {
  int w = 0;
  for (int i = 0; i < b->glyphs->num_glyphs; i++) {
    const PangoGlyphInfo *g = &b->glyphs->glyphs[i];
    if (g->glyph == PANGO_GLYPH_EMPTY || (g->glyph & PANGO_GLYPH_UNKNOWN_FLAG) || g->geometry.width < 0)
      return -1;
    w += g->geometry.width;
  }
  return b->glyphs->num_glyphs > 0 ? w : -1;
}

/* A plain text with spaces: its width in pango units as drawn from its
 * pieces, which keeps them for drawing it; -1 when it is not plain or a
 * glyph would need pango's own drawing. */
static int pieces_width(cairo_backend *b, cb_font font, const char *utf8) {
  int kind;
  plain_face *pf = b->piece ? plain_of(b, font, utf8, true, &kind) : NULL;
  if (!pf) return -1;
  shape_pieces(b, &pf->item[kind - 1]->analysis, font, kind, utf8, (int)strlen(utf8));
  return plain_glyphs_width(b);
}

static double shape_width(cairo_backend *b, cb_font font, const char *utf8) {
  int plain = plain_width(b, font, utf8);
  if (plain < 0) plain = pieces_width(b, font, utf8);
  if (plain >= 0) return plain / (double)PANGO_SCALE;
  set_font(b, font);
  pango_layout_set_text(b->layout, utf8, -1);
  PangoRectangle logical;
  pango_layout_get_extents(b->layout, NULL, &logical);
  return logical.width / (double)PANGO_SCALE;
}

static double ref_width(cairo_backend *b, cb_font font, const char *utf8) {
  width_memo *m = b->memo;
  if (!m || strlen(utf8) >= MEMO_TEXT) return shape_width(b, font, utf8);
  uint32_t i = memo_hash(font, utf8) % MEMO_SLOTS;
  while (m->slot[i].font >= 0) {
    if (m->slot[i].font == (int)font && strcmp(m->slot[i].text, utf8) == 0) return m->slot[i].width;
    i = (i + 1) % MEMO_SLOTS;
  }
  double w = shape_width(b, font, utf8);
  if (m->used >= MEMO_SLOTS * 3 / 4) {
    for (int k = 0; k < MEMO_SLOTS; k++)
      m->slot[k].font = -1;
    m->used = 0;
    i = memo_hash(font, utf8) % MEMO_SLOTS;
  }
  m->slot[i].font = (int)font;
  m->slot[i].width = w;
  snprintf(m->slot[i].text, MEMO_TEXT, "%s", utf8);
  m->used++;
  return w;
}

static double measure_width(void *ctx, cb_font font, double size, const char *utf8) {
  return ref_width(ctx, font, utf8) * size / REF_SIZE;
}

/* One font map for the whole run (about 2 KB a document kept otherwise). */
struct cb_cairo_fonts {
  PangoFontMap *map; /* NULL until the first backend that borrows it */
  FcConfig *cfg;
  char dir[4096];
  bool current; /* a configuration of ours is fontconfig's current one */
};

cb_cairo_fonts *cb_cairo_fonts_new(void) { return cb_calloc(1, sizeof(cb_cairo_fonts)); }

static void release_fontmap(const cb_cairo_fonts *run, PangoFontMap *map, FcConfig *cfg) {
  if (run && map == run->map) {
    g_object_unref(map); /* the run's reference stays */
    return;
  }
  /* fonts in pango's cache hold the map; shutting it down breaks the cycle */
  pango_fc_font_map_shutdown(PANGO_FC_FONT_MAP(map));
  g_object_unref(map);
  if (cfg) FcConfigDestroy(cfg);
}

void cb_cairo_fonts_free(cb_cairo_fonts *f) {
  if (f && f->map) release_fontmap(NULL, f->map, f->cfg);
  free(f);
}

static void destroy(cb_backend *base) {
  cairo_backend *b = (cairo_backend *)base;
  free(b->memo);
  free(b->pieces);
  if (b->piece) pango_glyph_string_free(b->piece);
  for (int i = 0; i < CB_FONT_COUNT; i++)
    for (int k = 0; k < 2; k++) {
      if (b->plain[i].plan[k]) hb_shape_plan_destroy(b->plain[i].plan[k]); /* before its font's face */
      if (b->plain[i].item[k]) pango_item_free(b->plain[i].item[k]);
    }
  if (b->hb) hb_buffer_destroy(b->hb);
  if (b->glyphs) pango_glyph_string_free(b->glyphs);
  if (b->cr) cairo_destroy(b->cr);
  if (b->surface) cairo_surface_destroy(b->surface);
  for (int i = 0; i < CB_FONT_COUNT; i++)
    if (b->fd[i]) pango_font_description_free(b->fd[i]);
  if (b->layout) g_object_unref(b->layout);
  if (b->pc) g_object_unref(b->pc);
  if (b->fontmap) release_fontmap(b->o.fonts, b->fontmap, b->fonts);
  free(b);
}

/* Without HOME (and XDG_CACHE_HOME) fontconfig has no cache directory and
 * complains on standard error when it scans a <dir>; fonts added one file
 * at a time are scanned without a cache, and silently. */
static int add_font_files(FcConfig *cfg, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    char path[4096];
    if (len < 4 || (strcmp(e->d_name + len - 4, ".ttf") && strcmp(e->d_name + len - 4, ".otf"))) continue;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
    n += FcConfigAppFontAddFile(cfg, (const FcChar8 *)path) == FcTrue;
  }
  closedir(d);
  return n;
}

/* A font map that sees only the fonts we ship, whatever the machine has. */
static PangoFontMap *private_fontmap(const char *dir, cb_cairo_fonts *run, FcConfig **out) {
  /* Our own fonts directory, with a cache of its own so that later starts
   * skip the scan; a cache that cannot be written costs only the scan. */
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int cached = (xdg && *xdg) || (home && *home);
  char xml[8192];
  int n = snprintf(xml, sizeof xml,
                   cached ? "<?xml version=\"1.0\"?><fontconfig><dir>%s</dir>"
                            "<cachedir prefix=\"xdg\">crawlbook/fontconfig</cachedir></fontconfig>"
                          : "<?xml version=\"1.0\"?><fontconfig></fontconfig>%.0s",
                   dir);
  if (n < 0 || n >= (int)sizeof xml || strpbrk(dir, "<>&\"'")) return NULL;
  FcConfig *cfg = FcConfigCreate();
  if (!cfg) return NULL;
  if (!FcConfigParseAndLoadFromMemory(cfg, (const FcChar8 *)xml, FcFalse) || !FcConfigBuildFonts(cfg) ||
      (!cached && add_font_files(cfg, dir) == 0)) {
    FcConfigDestroy(cfg);
    return NULL;
  }
  FcFontSet *set = FcConfigGetFonts(cfg, cached ? FcSetSystem : FcSetApplication);
  if (!set || set->nfont == 0) {
    FcConfigDestroy(cfg);
    return NULL;
  }
  /* pango's first font map loads fontconfig's default configuration (every
   * font of the machine, which we never use) on a thread, and the first font
   * waits for it: as the current configuration, ours is that default (set
   * once a run, before its workers start) */
  if (!run || !run->current) {
    bool made_current = FcConfigSetCurrent(cfg);
    if (run) run->current = made_current;
  }
  PangoFontMap *fm = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  if (!fm) {
    FcConfigDestroy(cfg);
    return NULL;
  }
  pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(fm), cfg);
  *out = cfg;
  return fm;
}

static cb_status create(const cb_render_options *o, cb_backend **out, cb_error *err) {
  cairo_backend *b = cb_calloc(1, sizeof *b);
  if (!b) return cb_error_oom(err);
  b->base.cls = &cb_backend_cairo;
  b->o = *o;
  cb_cairo_fonts *run = o->fonts;
  if (!o->own_fonts && run && run->map && strcmp(run->dir, o->fonts_dir) == 0) {
    b->fontmap = g_object_ref(run->map);
  } else if ((b->fontmap = private_fontmap(o->fonts_dir, run, &b->fonts)) && !o->own_fonts && run &&
             !run->map && strlen(o->fonts_dir) < sizeof run->dir) {
    /* the first map is kept for the run; this backend borrows it */
    run->map = g_object_ref(b->fontmap), run->cfg = b->fonts, b->fonts = NULL;
    strcpy(run->dir, o->fonts_dir);
  }
  if (!b->fontmap) {
    destroy(&b->base);
    return cb_error_set(err, CB_EINTERNAL, "no usable fonts in %s", o->fonts_dir);
  }
  b->pc = pango_font_map_create_context(b->fontmap);
  /* 72 dpi so that 9 pt is 9 pt; no hinting or rounding so that PDF, SVG and
   * PNG share one set of positions */
  pango_cairo_context_set_resolution(b->pc, 72);
  cairo_font_options_t *fo = cairo_font_options_create();
  cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options(b->pc, fo);
  cairo_font_options_destroy(fo);
  pango_context_set_round_glyph_positions(b->pc, FALSE);
  b->layout = pango_layout_new(b->pc);
  /* lining figures: Vollkorn's default old-style digits dance on a map */
  PangoAttrList *attrs = pango_attr_list_new();
  pango_attr_list_insert(attrs, pango_attr_font_features_new("lnum 1"));
  pango_layout_set_attributes(b->layout, attrs);
  pango_attr_list_unref(attrs);
  for (int i = 0; i < CB_FONT_COUNT; i++) {
    b->fd[i] = pango_font_description_new();
    pango_font_description_set_family(b->fd[i], FAMILY);
    pango_font_description_set_weight(b->fd[i], i >= CB_FONT_BOLD ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(b->fd[i], i % 2 ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_font_description_set_absolute_size(b->fd[i], REF_SIZE * PANGO_SCALE);
  }
  b->hb = o->layout_only ? NULL : hb_buffer_create();
  if (b->hb && !hb_buffer_allocation_successful(b->hb)) hb_buffer_destroy(b->hb), b->hb = NULL;
  b->glyphs = pango_glyph_string_new();
  b->measure = (cb_measure){b, measure_width};
  b->memo = cb_malloc(sizeof *b->memo); /* without it every width is shaped afresh */
  for (int k = 0; b->memo && k < MEMO_SLOTS; k++)
    b->memo->slot[k].font = -1;
  if (b->memo) b->memo->used = 0;
  /* without them every line is shaped whole */
  b->pieces = b->hb ? piece_memo_new() : NULL;
  b->piece = b->hb ? pango_glyph_string_new() : NULL;
  *out = &b->base;
  return CB_OK;
}

static const cb_measure *measure(cb_backend *base) { return &((cairo_backend *)base)->measure; }

/* cairo 1.16 writes PDF dates without the "D:" that ISO 32000 requires.
 * It is given "+00:00" dates, which it writes as a write of their own,
 * "(YYYYMMDDHHmmSS+00'00)"; each becomes "(D:YYYYMMDDHHmmSSZ)" padded with
 * spaces to the same length, so that the cross-reference offsets stay right.
 * Returns data, or buf holding the rewritten date. */
static const unsigned char *fix_pdf_date(const unsigned char *data, unsigned int len, unsigned char buf[22]) {
  if (len != 22 || data[0] != '(' || memcmp(data + 15, "+00'00)", 7) != 0) return data;
  for (int i = 1; i < 15; i++)
    if (data[i] < '0' || data[i] > '9') return data;
  memcpy(buf, "(D:", 3);
  memcpy(buf + 3, data + 1, 14);
  memcpy(buf + 17, "Z)   ", 5);
  return buf;
}

static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int len) {
  cairo_backend *b = closure;
  if (b->base.err.status != CB_OK) return CAIRO_STATUS_WRITE_ERROR;
  unsigned char date[22];
  if (b->o.format == CB_FORMAT_PDF) data = fix_pdf_date(data, len, date);
  cb_status st = b->sink.write(b->sink.closure, data, len);
  if (st != CB_OK) {
    fail(b, st, "could not write the output");
    return CAIRO_STATUS_WRITE_ERROR;
  }
  return CAIRO_STATUS_SUCCESS;
}

static void pdf_date(char *buf, size_t cap, long long t) {
  time_t tt = (time_t)t;
  struct tm tm;
  gmtime_r(&tt, &tm);
  strftime(buf, cap, "%Y-%m-%dT%H:%M:%S+00:00", &tm); /* see fix_pdf_date */
}

static void begin_document(cb_backend *base, const cb_document *doc, cb_sink sink) {
  cairo_backend *b = (cairo_backend *)base;
  b->sink = sink;
  double w0 = doc->npages ? doc->pages[0]->w : 595, h0 = doc->npages ? doc->pages[0]->h : 842;
  b->total_w = 0;
  b->total_h = 0;
  for (int i = 0; i < doc->npages; i++) {
    b->total_w = fmax(b->total_w, doc->pages[i]->w);
    b->total_h += doc->pages[i]->h + (i ? PAGE_GAP : 0);
  }
  b->scale = 1;
  switch (b->o.format) {
  case CB_FORMAT_PDF: {
    b->surface = cairo_pdf_surface_create_for_stream(write_cb, b, w0, h0);
    char date[32];
    pdf_date(date, sizeof date, doc->date);
    cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_TITLE, doc->title ? doc->title : "");
    if (doc->author) cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_AUTHOR, doc->author);
    if (doc->subject) cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_SUBJECT, doc->subject);
    cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_CREATOR,
                                   doc->creator ? doc->creator : "crawlbook");
    cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(b->surface, CAIRO_PDF_METADATA_MOD_DATE, date);
    break;
  }
  case CB_FORMAT_SVG:
    b->surface = cairo_svg_surface_create_for_stream(write_cb, b, b->total_w, b->total_h);
    cairo_svg_surface_set_document_unit(b->surface, CAIRO_SVG_UNIT_PT);
    break;
  case CB_FORMAT_PNG: {
    b->scale = b->o.dpi / 72.0;
    double pw = ceil(b->total_w * b->scale), ph = ceil(b->total_h * b->scale);
    if (pw * ph > 400e6 || pw > 32767 || ph > 32767) {
      fail(b, CB_EINPUT, "the PNG would be too large: lower --dpi");
      return;
    }
    b->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)pw, (int)ph);
    break;
  }
  default: fail(b, CB_EINTERNAL, "the cairo backend cannot write this format"); return;
  }
  b->cr = cairo_create(b->surface);
  if (cairo_status(b->cr) != CAIRO_STATUS_SUCCESS) {
    fail(b, CB_EINTERNAL, "cairo could not start the document");
    return;
  }
  if (b->o.format == CB_FORMAT_PNG) {
    cairo_set_source_rgb(b->cr, 0.75, 0.75, 0.75); /* the gap between pages */
    cairo_paint(b->cr);
  }
  b->yoff = 0;
}

static void begin_page(cb_backend *base, const cb_page *p, int index) {
  cairo_backend *b = (cairo_backend *)base;
  if (b->base.err.status) return;
  cairo_t *cr = b->cr;
  cairo_save(cr);
  b->page = p;
  b->cur_h = p->h;
  if (b->o.format == CB_FORMAT_PDF) {
    cairo_pdf_surface_set_size(b->surface, p->w, p->h);
  } else {
    if (index > 0) b->yoff += PAGE_GAP;
    cairo_scale(cr, b->scale, b->scale);
    cairo_translate(cr, 0, b->yoff);
  }
  /* white paper under the page; in a PDF it also makes the page one
   * rectangle of cairo's analysis at once, so that each of the page's
   * hundreds of items joins it at no cost (else each costs more than the last) */
  cairo_rectangle(cr, 0, 0, p->w, p->h);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_fill(cr);
}

static void set_rgb(cairo_t *cr, cb_rgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

static void path(cb_backend *base, const cb_page *p, const cb_item *it) {
  cairo_backend *b = (cairo_backend *)base;
  cairo_t *cr = b->cr;
  cairo_new_path(cr);
  for (int i = it->op0; i < it->op0 + it->nops; i++) {
    const cb_op *op = &p->ops[i];
    switch (op->kind) {
    case CB_OP_MOVE: cairo_move_to(cr, op->x[0], op->y[0]); break;
    case CB_OP_LINE: cairo_line_to(cr, op->x[0], op->y[0]); break;
    case CB_OP_CURVE: cairo_curve_to(cr, op->x[0], op->y[0], op->x[1], op->y[1], op->x[2], op->y[2]); break;
    case CB_OP_CLOSE: cairo_close_path(cr); break;
    }
  }
  const cb_ink *ink = &it->ink;
  if (ink->fill) {
    set_rgb(cr, ink->fill_color);
    if (ink->stroke)
      cairo_fill_preserve(cr);
    else
      cairo_fill(cr);
  }
  if (ink->stroke) {
    set_rgb(cr, ink->stroke_color);
    cairo_set_line_width(cr, ink->width);
    cairo_set_line_cap(cr, ink->cap == CB_CAP_ROUND ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, ink->dash, ink->ndash, 0);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
}

/* Draws a plain line's glyphs, shaped by pango as its layout would shape
 * them, as pango_cairo_show_layout draws a layout of one line and one run
 * (pangocairo-render.c: the glyphs at the baseline below the current point,
 * with their clusters where the surface keeps text), call for call. */
static void show_plain(cairo_backend *b, const plain_face *pf, PangoFont *font, const char *text) {
  cairo_t *cr = b->cr;
  const PangoGlyphString *g = b->glyphs;
  double x0, y0;
  bool had_point = cairo_has_current_point(cr),
       clustered = cairo_surface_has_show_text_glyphs(cairo_get_target(cr));
  cairo_get_current_point(cr, &x0, &y0);
  double base_x = x0 + 0.0, base_y = y0 + (double)pf->baseline / PANGO_SCALE;
  cairo_glyph_t stack[256],
      *glyphs = g->num_glyphs > 256 ? cb_malloc(sizeof *glyphs * (size_t)g->num_glyphs) : stack;
  cairo_text_cluster_t cstack[256],
      *clusters = g->num_glyphs > 256 ? cb_malloc(sizeof *clusters * (size_t)g->num_glyphs) : cstack;
  int nclusters = 0, len = (int)strlen(text), x = 0;
  if (!glyphs || !clusters) {
    fail(b, CB_EINTERNAL, "out of memory");
    goto done;
  }
  for (int i = 0; i < g->num_glyphs; i++) {
    const PangoGlyphInfo *gi = &g->glyphs[i];
    glyphs[i] = (cairo_glyph_t){
        gi->glyph, base_x + (double)(x + gi->geometry.x_offset) / PANGO_SCALE,
        gi->geometry.y_offset == 0 ? base_y : base_y + (double)gi->geometry.y_offset / PANGO_SCALE};
    x += gi->geometry.width;
  }
  /* a cluster: the glyphs of one log cluster, and the bytes up to the next */
  for (int i = 0, j; i < g->num_glyphs; i = j) {
    for (j = i + 1; j < g->num_glyphs && g->log_clusters[j] == g->log_clusters[i];)
      j++;
    clusters[nclusters++] =
        (cairo_text_cluster_t){(j < g->num_glyphs ? g->log_clusters[j] : len) - g->log_clusters[i], j - i};
  }
  cairo_save(cr);
  cairo_set_scaled_font(cr, pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font)));
  if (clustered)
    cairo_show_text_glyphs(cr, text, len, glyphs, g->num_glyphs, clusters, nclusters, 0);
  else
    cairo_show_glyphs(cr, glyphs, g->num_glyphs);
  cairo_restore(cr);
done:
  if (glyphs != stack) free(glyphs);
  if (clusters != cstack) free(clusters);
  if (had_point)
    cairo_move_to(cr, x0, y0);
  else
    cairo_new_sub_path(cr);
}

/* A plain line's face and font (their kind in *kind), the font's scaled
 * font usable; NULL when the line is not plain. */
static plain_face *plain_font(cairo_backend *b, const cb_item *it, PangoFont **font, int *kind) {
  plain_face *pf = plain_of(b, it->font, it->text, true, kind);
  if (!pf) return NULL;
  *font = pf->item[*kind - 1]->analysis.font;
  cairo_scaled_font_t *scaled = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(*font));
  return scaled && cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS ? pf : NULL;
}

/* A plain line's face, its glyphs shaped into b->glyphs; NULL when the line
 * is not plain or a glyph would need pango's own drawing (unknown, empty). */
static plain_face *plain_line(cairo_backend *b, const cb_item *it, PangoFont **font) {
  int kind;
  plain_face *pf = plain_font(b, it, font, &kind);
  if (!pf) return NULL;
  int len = (int)strlen(it->text);
  if (b->piece)
    shape_pieces(b, &pf->item[kind - 1]->analysis, it->font, kind, it->text, len);
  else
    pango_shape_full(it->text, len, it->text, len, &pf->item[kind - 1]->analysis, b->glyphs);
  return plain_glyphs_width(b) >= 0 ? pf : NULL;
}

/* A page's plain lines shaped ahead of drawing (prepare): the glyphs of
 * item k from line[k].first, line[k].n of them; n 0 for a line to lay out.
 * Glyph ids and positions come from the font files and the shaping alone,
 * so a backend with fonts of its own shapes them as the drawing one would. */
typedef struct prepared {
  struct prepared_line {
    int first, n;
  } * line;
  PangoGlyphInfo *glyphs;
  int *clusters;
  size_t used, cap_glyphs, cap_clusters;
} prepared;

static void prepared_free(void *v) {
  prepared *pr = v;
  if (!pr) return;
  free(pr->line);
  free(pr->glyphs);
  free(pr->clusters);
  free(pr);
}

/* b->glyphs kept for item k; false when out of memory. */
static bool keep_glyphs(prepared *pr, int k, const PangoGlyphString *g) {
  size_t need = pr->used + (size_t)g->num_glyphs;
  if (cb_grow(&pr->glyphs, &pr->cap_glyphs, need, sizeof *pr->glyphs) ||
      cb_grow(&pr->clusters, &pr->cap_clusters, need, sizeof *pr->clusters))
    return false;
  memcpy(pr->glyphs + pr->used, g->glyphs, sizeof *g->glyphs * (size_t)g->num_glyphs);
  memcpy(pr->clusters + pr->used, g->log_clusters, sizeof *g->log_clusters * (size_t)g->num_glyphs);
  pr->line[k] = (struct prepared_line){(int)pr->used, g->num_glyphs};
  pr->used = need;
  return true;
}

static void prepare(cb_backend *base, cb_page *p) {
  cairo_backend *b = (cairo_backend *)base;
  prepared *pr = cb_calloc(1, sizeof *pr);
  if (pr) pr->line = cb_calloc((size_t)p->nitems + 1, sizeof *pr->line);
  bool ok = pr && pr->line;
  for (int k = 0; ok && k < p->nitems; k++) {
    PangoFont *font;
    if (p->items[k].kind == CB_ITEM_TEXT && plain_line(b, &p->items[k], &font))
      ok = keep_glyphs(pr, k, b->glyphs);
  }
  if (!ok) {
    prepared_free(pr);
    return;
  }
  p->prepared_by = &cb_backend_cairo, p->prepared = pr, p->free_prepared = prepared_free;
}

/* A line's face, its glyphs put in b->glyphs from the page's prepared ones:
 * NULL with *done false when the page was not prepared (shape it now), with
 * *done true when the line is to be laid out. */
static plain_face *prepared_glyphs(cairo_backend *b, const cb_item *it, PangoFont **font, bool *done) {
  const cb_page *p = b->page;
  *done = p && p->prepared_by == &cb_backend_cairo && it >= p->items && it < p->items + p->nitems;
  if (!*done) return NULL;
  const prepared *pr = p->prepared;
  const struct prepared_line *l = &pr->line[it - p->items];
  int kind;
  plain_face *pf = l->n > 0 ? plain_font(b, it, font, &kind) : NULL;
  if (!pf) return NULL;
  pango_glyph_string_set_size(b->glyphs, l->n);
  memcpy(b->glyphs->glyphs, pr->glyphs + l->first, sizeof *pr->glyphs * (size_t)l->n);
  memcpy(b->glyphs->log_clusters, pr->clusters + l->first, sizeof *pr->clusters * (size_t)l->n);
  return pf;
}

/* A line of text: a plain one without a layout (its glyphs the same), any
 * other through pango's layout. */
static void text(cb_backend *base, const cb_item *it) {
  cairo_backend *b = (cairo_backend *)base;
  if (!(it->size > 0 && it->size < 1e4)) return; /* a scale of 0 or NaN would break the whole document */
  PangoFont *font = NULL;
  bool ahead = false;
  const plain_face *pf = prepared_glyphs(b, it, &font, &ahead);
  if (!ahead) pf = plain_line(b, it, &font);
  if (!pf) {
    set_font(b, it->font);
    pango_layout_set_text(b->layout, it->text, -1);
  }
  double baseline = (pf ? pf->baseline : pango_layout_get_baseline(b->layout)) / (double)PANGO_SCALE;
  set_rgb(b->cr, it->color);
  cairo_save(b->cr);
  cairo_translate(b->cr, it->x, it->y);
  if (it->upside_down) cairo_rotate(b->cr, CB_PI);
  cairo_scale(b->cr, it->size / REF_SIZE, it->size / REF_SIZE);
  cairo_move_to(b->cr, 0, -baseline);
  if (pf)
    show_plain(b, pf, font, it->text);
  else
    pango_cairo_show_layout(b->cr, b->layout);
  cairo_restore(b->cr);
}

static void end_page(cb_backend *base) {
  cairo_backend *b = (cairo_backend *)base;
  b->page = NULL;
  if (b->base.err.status) return;
  cairo_restore(b->cr);
  if (b->o.format == CB_FORMAT_PDF)
    cairo_show_page(b->cr);
  else
    b->yoff += b->cur_h;
  if (cairo_status(b->cr) != CAIRO_STATUS_SUCCESS && !b->base.err.status)
    fail(b, CB_EINTERNAL, cairo_status_to_string(cairo_status(b->cr)));
}

static void outline(cb_backend *base, const char *title, int index) {
  cairo_backend *b = (cairo_backend *)base;
  if (b->o.format != CB_FORMAT_PDF || b->base.err.status) return;
  char link[32];
  snprintf(link, sizeof link, "page=%d", index + 1);
  cairo_pdf_surface_add_outline(b->surface, CAIRO_PDF_OUTLINE_ROOT, title, link, 0);
}

static void end_document(cb_backend *base) {
  cairo_backend *b = (cairo_backend *)base;
  if (!b->surface) return;
  if (b->o.format == CB_FORMAT_PNG && !b->base.err.status) {
    cairo_surface_flush(b->surface);
    cb_status st =
        cb_png_write(cairo_image_surface_get_data(b->surface), cairo_image_surface_get_width(b->surface),
                     cairo_image_surface_get_height(b->surface), cairo_image_surface_get_stride(b->surface),
                     b->o.dpi, b->sink, &b->base.err);
    (void)st;
  }
  if (b->cr) cairo_destroy(b->cr);
  b->cr = NULL;
  cairo_surface_finish(b->surface);
  cairo_status_t cs = cairo_surface_status(b->surface);
  if (cs != CAIRO_STATUS_SUCCESS && !b->base.err.status) fail(b, CB_EINTERNAL, cairo_status_to_string(cs));
  cairo_surface_destroy(b->surface);
  b->surface = NULL;
}

const cb_backend_class cb_backend_cairo = {
    .name = "cairo",
    .formats = (1u << CB_FORMAT_PDF) | (1u << CB_FORMAT_SVG) | (1u << CB_FORMAT_PNG),
    .create = create,
    .destroy = destroy,
    .measure = measure,
    .begin_document = begin_document,
    .prepare = prepare,
    .begin_page = begin_page,
    .path = path,
    .text = text,
    .end_page = end_page,
    .outline = outline,
    .end_document = end_document,
};
