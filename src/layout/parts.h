/* The parts the one-page sheet, the booklet and the zine share: the footer
 * and its command line, the legend, a labelled page, the procedure's log as
 * pages, the subtitle. Private to layout. */
#ifndef CB_PARTS_H
#define CB_PARTS_H

#include "hooks.h"
#include "page/flow.h"
#include "sheet.h"
#include "symbols.h"

/* Type sizes (points). */
static const double CB_SUB_SIZE = 10, CB_BODY_SIZE = 8.6, CB_LEGEND_SIZE = 8.2, CB_FOOT_SIZE = 8;

/* The size at which text fits in width w (size itself when it already does). */
double cb_part_fit_size(const cb_measure *m, cb_font font, double size, const char *text, double w);
/* The "To make it again" flow: footer-sized, smaller when one word of the
 * command (a long --title) would not fit on a line, since it cannot break. */
cb_flow cb_part_footer_flow(const cb_measure *m, const char *cmd, double w);
/* The footer's command: the dungeon's and the page's options; malloc-owned,
 * NULL when out of memory. */
char *cb_part_command(const cb_dungeon *d, const cb_sheet_options *o);
/* The footer of the dungeon's page-th of pages (numbers count within the
 * whole document; on facing pages the number sits on the outer edge). Out of
 * memory marks p->oom. */
void cb_part_footer(cb_page *p, const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, int page,
                    int pages, bool facing);
/* The height the footer takes on a page w wide, into *h. */
cb_status cb_part_footer_height(const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, double w,
                                double *h, cb_error *err);
/* The legend: only the symbols the map used, in a row that wraps. Returns its height. */
double cb_part_legend(cb_page *p, const cb_symbols *st, cb_symbol_set used, double x, double y, double w);
/* A new page added to doc (which owns it), labelled for the bookmarks when
 * label is given; NULL when out of memory. */
cb_page *cb_part_new_page(cb_document *doc, const cb_sheet_options *o, const char *label);
/* A run of pages (the key's, the procedure's) laid out with each page at
 * most h high: how many pages it takes, and how high the last one runs. */
typedef cb_status (*cb_part_run)(void *ctx, double h, int *pages, double *last, cb_error *err);
/* How high a page of the run may go so that its last page is at least a
 * third full (booklet.md): the pages before it give way a step at a time,
 * never to under half and never so far that the run takes another page. */
cb_status cb_part_third_full(cb_part_run run, void *ctx, double full, double *limit, cb_error *err);
/* The procedure, step by step: the log flowed in two columns over as many
 * pages as it takes, inside frame f. */
cb_status cb_part_appendix(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                           const cb_frame *f, cb_document *doc, cb_error *err);
/* The procedure's hooks, a row of none when it draws only the generic sheet. */
const cb_layout_hooks *cb_part_hooks(const cb_sheet_options *o);
/* The subtitle: "A dungeon of 12 rooms · seed 42", into buf; returns buf. */
const char *cb_part_describe(const cb_dungeon *d, const cb_sheet_options *o, char *buf, size_t cap);
/* The one-page sheet's pages (sheet.c), as cb_sheet_layout lays them out,
 * for a booklet's handout. */
cb_status cb_sheet_pages(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err);

#endif
