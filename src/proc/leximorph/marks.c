/* leximorph's own marks on its tunnel sketch, drawn as a surveyor's sketch
 * draws them. */
#include "marks.h"

#include <math.h>

#include "page/flow.h"

static const char *const names[CB_SKETCH_MARK_END - (int)CB_SYM_COUNT] = {
    "ordinary junction", "trapped",      "trap (disabled)",       "minor obstacle", "room",
    "blank wall",        "side passage", "two diagonal passages", "blocked passage"};

bool cb_sketch_is_mark(cb_symbol s) { return (int)s >= (int)CB_SYM_COUNT && (int)s < CB_SKETCH_MARK_END; }

const char *cb_sketch_mark_name(cb_symbol s) {
  return cb_sketch_is_mark(s) ? names[(int)s - (int)CB_SYM_COUNT] : cb_symbol_name(s);
}

/* A short side passage from the wall at (x, y) + n * tw/2, heading (dx, dy). */
static void stub(cb_page *p, const cb_symbols *st, double x, double y, double dx, double dy, double nx,
                 double ny, double tw, double len, int open_end) {
  double c = dx * nx + dy * ny, start = c > 0.2 ? tw / 2 / c : tw / 2;
  double sw = tw * 0.8, xy[4] = {x + dx * (start - sw * 0.3), y + dy * (start - sw * 0.3),
                                 x + dx * (start + len), y + dy * (start + len)};
  cb_symbol_tunnel(p, st, xy, 2, sw, 0, open_end);
  /* the floor opens through the main tunnel's wall */
  double fl[4] = {x + dx * (start - tw * 0.45), y + dy * (start - tw * 0.45), xy[2], xy[3]};
  cb_symbol_tunnel(p, st, fl, 2, sw, 1, open_end);
}

void cb_sketch_mark(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double x, double y,
                    double ux, double uy, double nx, double ny, double tw) {
  double r = tw * 0.22, w = st->line;
  switch ((int)s) {
  case CB_SYM_SK_JUNCTION: {
    cb_page_circle(p, x, y, r * 0.75);
    cb_ink dot = cb_ink_fill(st->ink);
    cb_page_ink(p, &dot);
    break;
  }
  case CB_SYM_SK_TRAP:
  case CB_SYM_SK_TRAP_OFF: {
    double size = fmax(CB_SYMBOL_MIN_TEXT, tw * 0.62), t = cb_text_width(st->m, CB_FONT_BOLD, size, "T");
    cb_page_text(p, CB_FONT_BOLD, size, x - t / 2, y + size * 0.34, st->ink, "T");
    if (s == CB_SYM_SK_TRAP_OFF) {
      cb_page_move(p, x - tw * 0.34, y + tw * 0.3);
      cb_page_line(p, x + tw * 0.34, y - tw * 0.3);
      cb_symbol_stroke(p, st->ink, w * 0.9, CB_CAP_ROUND);
    }
    break;
  }
  case CB_SYM_SK_OBSTACLE: {
    /* debris: a few stones across the floor */
    static const double stones[][3] = {{-0.22, -0.12, 0.09},
                                       {0.05, 0.14, 0.1},
                                       {0.2, -0.15, 0.07},
                                       {-0.05, -0.02, 0.06},
                                       {-0.2, 0.16, 0.06}};
    for (size_t i = 0; i < sizeof stones / sizeof *stones; i++) {
      double sx = x + (ux * stones[i][0] - uy * stones[i][1]) * tw * 1.4;
      double sy = y + (uy * stones[i][0] + ux * stones[i][1]) * tw * 1.4;
      cb_page_circle(p, sx, sy, stones[i][2] * tw);
    }
    cb_ink f = cb_ink_fill(st->ink);
    cb_page_ink(p, &f);
    break;
  }
  case CB_SYM_SK_ROOM: {
    /* the box widens for a number that would not fit it at 8 pt, a room number's least */
    double size = fmin(tw * 0.62, st->badge), t = text ? cb_text_width(st->m, CB_FONT_BOLD, size, text) : 0;
    if (t > tw * 0.9) size *= tw * 0.9 / t, t = tw * 0.9;
    if (text && size < CB_SYMBOL_MIN_NUMBER) t *= CB_SYMBOL_MIN_NUMBER / size, size = CB_SYMBOL_MIN_NUMBER;
    double bw = fmax(tw, t / 0.9);
    cb_page_rect(p, x - bw / 2, y - tw / 2, bw, tw);
    cb_ink box = {
        .fill = true, .stroke = true, .fill_color = st->paper, .stroke_color = st->ink, .width = w * 1.3};
    cb_page_ink(p, &box);
    if (text) cb_page_text(p, CB_FONT_BOLD, size, x - t / 2, y + size * 0.34, st->ink, text);
    break;
  }
  case CB_SYM_SK_BLANK: {
    /* a short hatch on the wall, as on a survey */
    double bx = x + nx * tw / 2, by = y + ny * tw / 2;
    for (int k = -1; k <= 1; k += 2) {
      double ox = bx + ux * tw * 0.12 * k, oy = by + uy * tw * 0.12 * k;
      cb_page_move(p, ox, oy);
      cb_page_line(p, ox + nx * tw * 0.22 + ux * tw * 0.1, oy + ny * tw * 0.22 + uy * tw * 0.1);
    }
    cb_symbol_stroke(p, st->ink, w * 0.6, CB_CAP_BUTT);
    break;
  }
  case CB_SYM_SK_BRANCH: stub(p, st, x, y, nx, ny, nx, ny, tw, tw * 1.4, 1); break;
  case CB_SYM_SK_DIAGONALS:
    for (int k = -1; k <= 1; k += 2) {
      double dx = (nx + ux * k) / sqrt(2), dy = (ny + uy * k) / sqrt(2);
      stub(p, st, x + ux * tw * 0.45 * k, y + uy * tw * 0.45 * k, dx, dy, nx, ny, tw, tw * 1.2, 1);
    }
    break;
  case CB_SYM_SK_BLOCKED: {
    stub(p, st, x, y, nx, ny, nx, ny, tw, tw * 0.9, 0);
    /* rubble filling its end */
    double ex = x + nx * tw * 1.3, ey = y + ny * tw * 1.3, a = tw * 0.28;
    cb_page_move(p, ex - ux * a - nx * a, ey - uy * a - ny * a);
    cb_page_line(p, ex + ux * a + nx * a, ey + uy * a + ny * a);
    cb_page_move(p, ex - ux * a + nx * a, ey - uy * a + ny * a);
    cb_page_line(p, ex + ux * a - nx * a, ey + uy * a - ny * a);
    cb_symbol_stroke(p, st->ink, w * 1.1, CB_CAP_BUTT);
    break;
  }
  default: break;
  }
}
