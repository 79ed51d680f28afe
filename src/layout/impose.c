#include "impose.h"

static cb_page *sheet(cb_document *out, double w, double h) {
  cb_page *p = cb_page_new(w, h);
  if (!p || cb_document_add(out, p)) {
    cb_page_free(p);
    return NULL;
  }
  return p;
}

cb_status cb_impose_saddle(const cb_document *in, cb_document *out, cb_error *err) {
  if (in->npages == 0) return CB_OK;
  double w = in->pages[0]->w, h = in->pages[0]->h;
  int n = (in->npages + 3) / 4 * 4;
  for (int k = 0; k < n / 4; k++) {
    /* 1-based page numbers on the front (outside) and back (inside) of sheet k */
    int sides[2][2] = {{n - 2 * k, 2 * k + 1}, {2 * k + 2, n - 2 * k - 1}};
    for (int side = 0; side < 2; side++) {
      cb_page *p = sheet(out, 2 * w, h);
      if (!p) return cb_error_oom(err);
      if (k == 0 && side == 0 && in->pages[0]->label &&
          !(p->label = cb_arena_strdup(p->arena, in->pages[0]->label)))
        p->oom = true;
      for (int half = 0; half < 2; half++) {
        int page = sides[side][half];
        if (page <= in->npages) cb_page_place(p, in->pages[page - 1], half * w, 0, 1, false);
      }
      /* the fold, faint, outside the text */
      cb_page_move(p, w, 0);
      cb_page_line(p, w, h * 0.03);
      cb_page_move(p, w, h * 0.97);
      cb_page_line(p, w, h);
      cb_ink guide = cb_ink_stroke((cb_rgb){0.6, 0.6, 0.6}, 0.4);
      cb_page_ink(p, &guide);
      if (p->oom) return cb_error_oom(err);
    }
  }
  return CB_OK;
}

cb_status cb_impose_zine8(const cb_document *panels, double sheet_w, double sheet_h, cb_document *out,
                          cb_error *err) {
  if (panels->npages != 8)
    return cb_error_set(err, CB_EINTERNAL, "a zine has eight panels, not %d", panels->npages);
  cb_page *p = sheet(out, sheet_w, sheet_h);
  if (!p) return cb_error_oom(err);
  if (panels->pages[0]->label && !(p->label = cb_arena_strdup(p->arena, panels->pages[0]->label)))
    p->oom = true;
  double pw = sheet_w / 4, ph = sheet_h / 2, scale = pw / panels->pages[0]->w;
  static const int top[4] = {5, 4, 3, 2}, bottom[4] = {6, 7, 8, 1};
  for (int c = 0; c < 4; c++) {
    cb_page_place(p, panels->pages[top[c] - 1], c * pw, 0, scale, true);
    cb_page_place(p, panels->pages[bottom[c] - 1], c * pw, ph, scale, false);
  }
  /* fold lines (dashed) between the panels, and the cut along the middle two */
  cb_ink fold = cb_ink_stroke((cb_rgb){0.7, 0.7, 0.7}, 0.35);
  fold.dash[0] = 3, fold.dash[1] = 3, fold.ndash = 2, fold.cap = CB_CAP_BUTT;
  for (int c = 1; c < 4; c++) {
    cb_page_move(p, c * pw, 0);
    cb_page_line(p, c * pw, sheet_h);
    cb_page_ink(p, &fold);
  }
  cb_page_move(p, 0, ph);
  cb_page_line(p, pw, ph);
  cb_page_move(p, 3 * pw, ph);
  cb_page_line(p, sheet_w, ph);
  cb_page_ink(p, &fold);
  cb_ink cut = cb_ink_stroke((cb_rgb){0.35, 0.35, 0.35}, 0.6);
  cb_page_move(p, pw, ph);
  cb_page_line(p, 3 * pw, ph);
  cb_page_ink(p, &cut);
  /* a pair of scissors would be a glyph: a small cross marks each end of the cut */
  for (int e = 0; e < 2; e++) {
    double ex = e ? 3 * pw : pw;
    cb_page_move(p, ex - 3, ph - 3);
    cb_page_line(p, ex + 3, ph + 3);
    cb_page_move(p, ex - 3, ph + 3);
    cb_page_line(p, ex + 3, ph - 3);
    cb_page_ink(p, &cut);
  }
  return p->oom ? cb_error_oom(err) : CB_OK;
}
