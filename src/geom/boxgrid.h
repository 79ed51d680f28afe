/* A uniform grid of square cells over the whole plane that finds the boxes
 * near a box: each box added is filed, by the id the caller gives it, in
 * every cell it touches, so a search reads a few cells instead of every box. */
#ifndef CB_BOXGRID_H
#define CB_BOXGRID_H

#include <stddef.h>

typedef struct cb_boxgrid cb_boxgrid;

/* An empty grid of cells `side` units a side; NULL on OOM. The caller
 * owns it: free with cb_boxgrid_free (NULL is fine). */
cb_boxgrid *cb_boxgrid_new(double side);
void cb_boxgrid_free(cb_boxgrid *g);

/* Files box [x0, x1] x [y0, y1] under id (>= 0). A box that is not finite,
 * or spans more than 65,536 cells, is listed by every search instead. 0, or
 * -1 on OOM. */
int cb_boxgrid_add(cb_boxgrid *g, int id, double x0, double y0, double x1, double y1);

/* The ids of the boxes filed in the cells that box [x0, x1] x [y0, y1]
 * touches (every box that overlaps it, and some that do not; with a NaN
 * edge, every box), each once,
 * ascending, into *ids (grown as need be; the caller frees it). Returns
 * their count, or -1 on OOM. */
int cb_boxgrid_find(cb_boxgrid *g, double x0, double y0, double x1, double y1, int **ids, size_t *cap);

#endif
