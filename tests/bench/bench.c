#define _DEFAULT_SOURCE 1 /* wait4 */
/* crawlbook's benchmark: prints a table of measurements (not a test).
 *   bench            the full table (a few minutes)
 *   bench --smoke    every row with tiny counts, to check it still runs (CI)
 *   bench pages N FILE   the page model of the batch rows' N dungeons, for the floor
 *   bench floor FILE OUT  the floor: those pages drawn with cairo + pango alone
 *   bench stocking [RUNS]  what stocking costs a one-page run, per generator
 *                    (CRAWLBOOK_BASE=another build's crawlbook adds its run)
 * Rows: crawlbook's whole path against the library floor (a minimal program
 * drawing the same page items with cairo + pango and no layout logic), in a
 * fresh process and per page of a batch; against Graphviz's neato on the same
 * graph; generation alone at growing sizes; peak memory of batches.
 * Child processes are timed with wait4, so peak RSS comes with each. */
#include <cairo-pdf.h>
#include <errno.h>
#include <fcntl.h>
#include <fontconfig/fontconfig.h>
#include <jansson.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/datadir.h"
#include "geom/delaunay.h"
#include "layout/graph.h"
#include "layout/sheet.h"
#include "layout/template.h"
#include "proc/battleships/proc.h"
#include "proc/dropdice/proc.h"
#include "registry/registry.h"
#include "render/backend.h"
#include "run/job.h"
#include "stock/stock.h"

#ifndef CB_CRAWLBOOK_PATH
#define CB_CRAWLBOOK_PATH "crawlbook"
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

typedef struct run {
  double secs, cpu, maxrss_mb; /* wall and processor (user + system) seconds */
  int status;
} run;

static char rssfile[300];

/* Runs argv in a child; wall time, and peak RSS through GNU time (a child
 * of ours would count our own memory as its peak: Linux keeps the high-water
 * mark across exec). */
static run spawn_as(char *const argv[], int rss) {
  run r = {0, 0, 0, -1};
  char *wrapped[64];
  int n = 0;
  wrapped[n++] = "/usr/bin/time", wrapped[n++] = "-f", wrapped[n++] = "%M", wrapped[n++] = "-o";
  wrapped[n++] = rssfile;
  for (int i = 0; argv[i] && n < 63; i++)
    wrapped[n++] = argv[i];
  wrapped[n] = NULL;
  if (rss && access("/usr/bin/time", X_OK) == 0) argv = wrapped;
  double t0 = now();
  /* vfork: the child has no copy of our memory, so its peak RSS is its own */
  pid_t pid = vfork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 1), dup2(devnull, 2);
    execvp(argv[0], argv);
    _exit(127);
  }
  int st = 0;
  struct rusage ru;
  if (pid > 0 && wait4(pid, &st, 0, &ru) == pid) {
    r.secs = now() - t0;
    r.cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    r.maxrss_mb = ru.ru_maxrss / 1024.0;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    FILE *f = argv[0][0] == '/' && strcmp(argv[0], "/usr/bin/time") == 0 ? fopen(rssfile, "r") : NULL;
    long kb;
    if (f && fscanf(f, "%ld", &kb) == 1) r.maxrss_mb = kb / 1024.0;
    if (f) fclose(f);
  }
  return r;
}

static run spawn(char *const argv[]) { return spawn_as(argv, 1); }

static int dcmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ---- the floor: the same items, drawn with nothing but cairo + pango ---- */

/* The page model of `count` dropdice dungeons of `rooms` rooms (seeds 1..),
 * made, stocked and laid out as crawlbook does with its default options (the
 * floor gets it for free), so that the floor draws the very items crawlbook
 * draws. */
static cb_document layout_pages(int count, int rooms, const char *fonts) {
  cb_document doc = {0};
  cb_render_options ro = {CB_FORMAT_PDF, 150, fonts};
  cb_backend *b = NULL;
  cb_error err = {0};
  if (cb_backend_create(&cb_backend_cairo, &ro, &b, &err) != CB_OK) {
    fprintf(stderr, "bench: %s\n", err.msg);
    exit(1);
  }
  cb_template tpl;
  cb_template_default(&tpl);
  cb_sheet_options so = {595.2756, 841.8898, tpl.margin_mm * CB_PT_PER_MM, "bench", false, NULL, false, false,
                         0,        1};
  for (int i = 0; i < count; i++) {
    cb_gen_options o = {0};
    o.seed = (uint64_t)i + 1;
    o.rooms = rooms;
    cb_dungeon *d = NULL;
    cb_stock_options stock = {0};
    if (cb_generator_run(&cb_gen_dropdice, &o, &d, &err) == CB_OK && cb_stock_run(d, &stock, &err) == CB_OK)
      cb_proc_sheet(d, &so);
    else
      cb_dungeon_free(d), d = NULL;
    if (!d || cb_sheet_layout(d, b->cls->measure(b), &so, &doc, &err) != CB_OK) {
      fprintf(stderr, "bench: %s\n", err.msg);
      exit(1);
    }
    cb_dungeon_free(d);
  }
  cb_backend_destroy(b);
  return doc;
}

/* Page files: the floor process reads the page model back, so that it does
 * no generation or layout of its own. */
static void save_pages(const cb_document *doc, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) exit(1);
  fwrite(&doc->npages, sizeof doc->npages, 1, f);
  for (int i = 0; i < doc->npages; i++) {
    const cb_page *p = doc->pages[i];
    fwrite(&p->w, sizeof p->w, 1, f);
    fwrite(&p->h, sizeof p->h, 1, f);
    fwrite(&p->nops, sizeof p->nops, 1, f);
    fwrite(p->ops, sizeof *p->ops, (size_t)p->nops, f);
    fwrite(&p->nitems, sizeof p->nitems, 1, f);
    for (int k = 0; k < p->nitems; k++) {
      cb_item it = p->items[k];
      int len = it.kind == CB_ITEM_TEXT ? (int)strlen(it.text) : 0;
      it.text = NULL;
      fwrite(&it, sizeof it, 1, f);
      fwrite(&len, sizeof len, 1, f);
      if (len) fwrite(p->items[k].text, 1, (size_t)len, f);
    }
  }
  fclose(f);
}

typedef struct fpage {
  double w, h;
  int nops, nitems;
  cb_op *ops;
  cb_item *items;
} fpage;

static fpage *load_pages(const char *path, int *n) {
  FILE *f = fopen(path, "rb");
  if (!f || fread(n, sizeof *n, 1, f) != 1) exit(1);
  fpage *pages = calloc((size_t)*n, sizeof *pages);
  for (int i = 0; i < *n; i++) {
    fpage *p = &pages[i];
    if (fread(&p->w, sizeof p->w, 1, f) != 1 || fread(&p->h, sizeof p->h, 1, f) != 1 ||
        fread(&p->nops, sizeof p->nops, 1, f) != 1)
      exit(1);
    p->ops = malloc(sizeof *p->ops * (size_t)(p->nops + 1));
    if (fread(p->ops, sizeof *p->ops, (size_t)p->nops, f) != (size_t)p->nops) exit(1);
    if (fread(&p->nitems, sizeof p->nitems, 1, f) != 1) exit(1);
    p->items = malloc(sizeof *p->items * (size_t)(p->nitems + 1));
    for (int k = 0; k < p->nitems; k++) {
      int len;
      if (fread(&p->items[k], sizeof *p->items, 1, f) != 1 || fread(&len, sizeof len, 1, f) != 1) exit(1);
      char *t = malloc((size_t)len + 1);
      if (len && fread(t, 1, (size_t)len, f) != (size_t)len) exit(1);
      t[len] = '\0';
      p->items[k].text = t;
    }
  }
  fclose(f);
  return pages;
}

/* The floor itself: fonts, a PDF surface, and every item drawn directly. */
static int floor_draw(const char *pagefile, const char *out, const char *fonts) {
  int n;
  fpage *pages = load_pages(pagefile, &n);
  FcConfig *cfg = FcConfigCreate();
  FcConfigAppFontAddDir(cfg, (const FcChar8 *)fonts);
  PangoFontMap *fm = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(fm), cfg);
  PangoContext *pc = pango_font_map_create_context(fm);
  pango_cairo_context_set_resolution(pc, 72);
  PangoLayout *layout = pango_layout_new(pc);
  PangoFontDescription *fd = pango_font_description_new();
  pango_font_description_set_family(fd, "Vollkorn");
  /* one size per face, scaled: the cheapest way to use pango (a new size
   * costs it a font load), as crawlbook's backend does */
  const double ref = 100;
  pango_font_description_set_absolute_size(fd, ref * PANGO_SCALE);
  cairo_surface_t *s = cairo_pdf_surface_create(out, pages[0].w, pages[0].h);
  cairo_t *cr = cairo_create(s);
  for (int i = 0; i < n; i++) {
    fpage *p = &pages[i];
    cairo_pdf_surface_set_size(s, p->w, p->h);
    /* white paper first, as crawlbook's backend lays it: the page is then one
     * rectangle of cairo's analysis, which each item joins at no cost */
    cairo_rectangle(cr, 0, 0, p->w, p->h);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill(cr);
    for (int k = 0; k < p->nitems; k++) {
      const cb_item *it = &p->items[k];
      if (it->kind == CB_ITEM_TEXT) {
        pango_font_description_set_weight(fd,
                                          it->font >= CB_FONT_BOLD ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
        pango_font_description_set_style(fd, it->font % 2 ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
        pango_layout_set_font_description(layout, fd);
        pango_layout_set_text(layout, it->text, -1);
        cairo_set_source_rgb(cr, it->color.r, it->color.g, it->color.b);
        cairo_save(cr);
        cairo_translate(cr, it->x, it->y);
        cairo_scale(cr, it->size / ref, it->size / ref);
        cairo_move_to(cr, 0, -pango_layout_get_baseline(layout) / (double)PANGO_SCALE);
        pango_cairo_show_layout(cr, layout);
        cairo_restore(cr);
        continue;
      }
      for (int o = it->op0; o < it->op0 + it->nops; o++) {
        const cb_op *op = &p->ops[o];
        if (op->kind == CB_OP_MOVE)
          cairo_move_to(cr, op->x[0], op->y[0]);
        else if (op->kind == CB_OP_LINE)
          cairo_line_to(cr, op->x[0], op->y[0]);
        else if (op->kind == CB_OP_CURVE)
          cairo_curve_to(cr, op->x[0], op->y[0], op->x[1], op->y[1], op->x[2], op->y[2]);
        else
          cairo_close_path(cr);
      }
      if (it->ink.fill) {
        cairo_set_source_rgb(cr, it->ink.fill_color.r, it->ink.fill_color.g, it->ink.fill_color.b);
        it->ink.stroke ? cairo_fill_preserve(cr) : cairo_fill(cr);
      }
      if (it->ink.stroke) {
        cairo_set_source_rgb(cr, it->ink.stroke_color.r, it->ink.stroke_color.g, it->ink.stroke_color.b);
        cairo_set_line_width(cr, it->ink.width);
        cairo_set_dash(cr, it->ink.dash, it->ink.ndash, 0);
        cairo_stroke(cr);
      }
      cairo_new_path(cr);
    }
    cairo_show_page(cr);
  }
  cairo_destroy(cr);
  cairo_surface_finish(s);
  int bad = cairo_surface_status(s) != CAIRO_STATUS_SUCCESS;
  cairo_surface_destroy(s);
  /* released as crawlbook's backend does, so that the sanitizers' leak check passes */
  pango_font_description_free(fd);
  g_object_unref(layout);
  g_object_unref(pc);
  pango_fc_font_map_shutdown(PANGO_FC_FONT_MAP(fm));
  g_object_unref(fm);
  FcConfigDestroy(cfg);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < pages[i].nitems; k++)
      free((char *)pages[i].items[k].text);
    free(pages[i].ops);
    free(pages[i].items);
  }
  free(pages);
  return bad;
}

/* ---- the table ---- */

static const char *crawlbook = CB_CRAWLBOOK_PATH;
static char self[4096], tmpdir[256];

/* Median wall time of `reps` runs of a and of b, alternating (pairwise);
 * returns how many of the runs failed. */
static int pairwise(char *const a[], char *const b[], int reps, double *ta, double *tb) {
  double *xa = calloc((size_t)reps, sizeof *xa), *xb = calloc((size_t)reps, sizeof *xb);
  int failures = 0;
  for (int i = 0; i < reps; i++) {
    run ra = spawn(a), rb = spawn(b);
    xa[i] = ra.secs, xb[i] = rb.secs;
    failures += (ra.status != 0) + (rb.status != 0);
  }
  qsort(xa, (size_t)reps, sizeof *xa, dcmp);
  qsort(xb, (size_t)reps, sizeof *xb, dcmp);
  *ta = xa[reps / 2], *tb = xb[reps / 2];
  free(xa);
  free(xb);
  return failures;
}

/* ---- what stocking costs a one-page run ---- */

/* The stocked JSON at `from` written as crawlbook/1 at `to`, without what
 * stocking adds (theme, depth, hook, wandering table, rooms' contents,
 * passages' notes): `crawlbook render` then prints the key as it was
 * before stocking, for the very same rooms and passages. */
static int unstocked_json(const char *from, const char *to) {
  json_t *root = json_load_file(from, 0, NULL), *v;
  if (!root) return 1;
  json_object_set_new(root, "format", json_string("crawlbook/1"));
  const char *top[] = {"theme", "depth", "hook", "wandering"};
  for (size_t i = 0; i < sizeof top / sizeof *top; i++)
    json_object_del(root, top[i]), json_object_del(json_object_get(root, "options"), top[i]);
  size_t i;
  json_array_foreach(json_object_get(root, "rooms"), i, v) json_object_del(v, "contents");
  json_array_foreach(json_object_get(root, "passages"), i, v) json_object_del(v, "note");
  int bad = json_dump_file(root, to, JSON_COMPACT) != 0;
  json_decref(root);
  return bad;
}

/* Median processor (every thread's, user and system) and wall seconds of
 * each of n commands over reps rounds, the commands taking turns (so that
 * drift hits them alike); returns how many runs failed. */
static int take_turns(char **cmds[], int n, int reps, double cpu[], double wall[]) {
  double *c = calloc((size_t)(n * reps), sizeof *c), *w = calloc((size_t)(n * reps), sizeof *w);
  int failures = 0;
  if (!c || !w) exit(1);
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < n; k++) {
      run x = spawn_as(cmds[k], 0);
      c[k * reps + r] = x.cpu, w[k * reps + r] = x.secs;
      failures += x.status != 0;
    }
  for (int k = 0; k < n; k++) {
    qsort(c + k * reps, (size_t)reps, sizeof *c, dcmp);
    qsort(w + k * reps, (size_t)reps, sizeof *w, dcmp);
    cpu[k] = c[k * reps + reps / 2], wall[k] = w[k * reps + reps / 2];
  }
  free(c);
  free(w);
  return failures;
}

static void stocking_row(const char *what, const char *ref, const double *cpu, const double *wall, int a,
                         int b) {
  printf("| %s | %.1f ms (%.1f) | %.1f ms (%.1f) %s | %.2f (%.2f) |\n", what, cpu[a] * 1e3, wall[a] * 1e3,
         cpu[b] * 1e3, wall[b] * 1e3, ref, cpu[a] / cpu[b], wall[a] / wall[b]);
}

/* Per generator at its defaults (seed 1): the stocked one-page run as a user
 * types it, against its dungeon rendered from crawlbook/1 (no contents), and
 * the stocked dungeon rendered from its own JSON (the same reading work as
 * the /1 file); with base (another build, say the commit before stocking),
 * that build's run of the same command too. Processor time first, wall time
 * in brackets; medians. */
static int stocking(int reps, const char *base, const char *dir) {
  /* leximorph at 5 x 5 sectors: its map is drawn aside to fit its frame at every size the sheet tries */
  static const char *const gens[][3] = {{"dropdice", NULL, NULL},  {"dropdice", "--rooms", "30"},
                                        {"cards", NULL, NULL},     {"battleships", NULL, NULL},
                                        {"leximorph", NULL, NULL}, {"leximorph", "--sectors", "5x5"},
                                        {"preconnect", NULL, NULL}};
  int failed = 0;
  char j2[300], j1[300], out[300];
  snprintf(j2, sizeof j2, "%s/stocked.json", dir);
  snprintf(j1, sizeof j1, "%s/unstocked.json", dir);
  snprintf(out, sizeof out, "%s/page.pdf", dir);
  printf("| one page, seed 1: processor time (wall), median of %d | crawlbook | reference | ratio |\n"
         "| --- | --- | --- | --- |\n",
         reps);
  for (size_t g = 0; g < sizeof gens / sizeof *gens; g++) {
    char name[64];
    snprintf(name, sizeof name, "%s%s%s%s%s", gens[g][0], gens[g][1] ? " " : "", gens[g][1] ? gens[g][1] : "",
             gens[g][1] ? " " : "", gens[g][1] ? gens[g][2] : "");
    char *json[] = {(char *)crawlbook,  "-g", (char *)gens[g][0], "-s", "1", "-o", j2, (char *)gens[g][1],
                    (char *)gens[g][2], NULL};
    if (spawn_as(json, 0).status != 0 || unstocked_json(j2, j1)) {
      printf("| %s | (failed) | | |\n", name);
      failed = 1;
      continue;
    }
    char *page[] = {(char *)crawlbook,  "-g", (char *)gens[g][0], "-s", "1", "-o", out, (char *)gens[g][1],
                    (char *)gens[g][2], NULL};
    char *old[10];
    memcpy(old, page, sizeof old);
    old[0] = (char *)base;
    char *r1[] = {(char *)crawlbook, "render", j1, "-o", out, NULL};
    char *r2[] = {(char *)crawlbook, "render", j2, "-o", out, NULL};
    char **cmds[] = {page, r1, r2, old};
    double cpu[4], wall[4];
    failed |= take_turns(cmds, base ? 4 : 3, reps, cpu, wall) != 0;
    char what[160];
    snprintf(what, sizeof what, "%s: the stocked page against its dungeon from crawlbook/1", name);
    stocking_row(what, "(/1, no contents)", cpu, wall, 0, 1);
    snprintf(what, sizeof what, "%s: both from JSON, crawlbook/2 against /1", name);
    stocking_row(what, "(/1)", cpu, wall, 2, 1);
    snprintf(what, sizeof what, "%s: the stocked page against `CRAWLBOOK_BASE`'s", name);
    if (base) stocking_row(what, "(base)", cpu, wall, 0, 3);
  }
  return failed;
}

int main(int argc, char **argv) {
  const char *data = cb_datadir();
  char fonts[4096];
  snprintf(fonts, sizeof fonts, "%s/fonts", data ? data : ".");
  if (argc == 4 && strcmp(argv[1], "floor") == 0) return floor_draw(argv[2], argv[3], fonts);
  if (argc == 4 && strcmp(argv[1], "pages") == 0) {
    /* the floor's input alone, to time it with other tools */
    cb_document doc = layout_pages(atoi(argv[2]), 30, fonts);
    save_pages(&doc, argv[3]);
    cb_document_free(&doc);
    return 0;
  }
  int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0, failed = 0;
  if (getenv("CRAWLBOOK")) crawlbook = getenv("CRAWLBOOK");
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 1;
  self[n] = '\0';
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cb-bench-XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  if (argc >= 2 && strcmp(argv[1], "stocking") == 0) {
    failed = stocking(argc > 2 && atoi(argv[2]) > 0 ? atoi(argv[2]) : 21, getenv("CRAWLBOOK_BASE"), tmpdir);
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmpdir);
    return system(rm) != 0 || failed;
  }
  char page1[300], pagesN[300], out[300], out2[300], dotf[300];
  snprintf(page1, sizeof page1, "%s/one.pages", tmpdir);
  snprintf(pagesN, sizeof pagesN, "%s/batch.pages", tmpdir);
  snprintf(out, sizeof out, "%s/out.pdf", tmpdir);
  snprintf(out2, sizeof out2, "%s/out2.pdf", tmpdir);
  snprintf(dotf, sizeof dotf, "%s/d.dot", tmpdir);
  snprintf(rssfile, sizeof rssfile, "%s/rss", tmpdir);
  const int reps = smoke ? 3 : 21, batch = smoke ? 20 : 1000;
  char batch_s[16];
  snprintf(batch_s, sizeof batch_s, "%d", batch);

  printf("| measurement | crawlbook | reference | ratio |\n| --- | --- | --- | --- |\n");
  /* 1. one 30-room page in a fresh process, against the floor */
  cb_document d1 = layout_pages(1, 30, fonts);
  save_pages(&d1, page1);
  cb_document_free(&d1);
  char *full1[] = {(char *)crawlbook, "--seed", "1", "--rooms", "30", "-o", out, NULL};
  char *floor1[] = {self, "floor", page1, out2, NULL};
  double tf, tl;
  failed |= pairwise(full1, floor1, reps, &tf, &tl) != 0;
  printf("| one 30-room page, fresh process (median of %d) | %.1f ms | %.1f ms (floor) | %.2f |\n", reps,
         tf * 1e3, tl * 1e3, tf / tl);
  /* 2. per page of a batch */
  cb_document dn = layout_pages(batch, 30, fonts);
  save_pages(&dn, pagesN);
  int npages = dn.npages;
  cb_document_free(&dn);
  char *fullN[] = {(char *)crawlbook, "--seeds", "1..", "--rooms", "30", "--jobs", "1", "-o", out, NULL};
  char seeds[32];
  snprintf(seeds, sizeof seeds, "1..%d", batch);
  fullN[2] = seeds;
  char *floorN[] = {self, "floor", pagesN, out2, NULL};
  /* the median of three alternating runs each (one in smoke mode) */
  int breps = smoke ? 1 : 3;
  double tb, tlb;
  failed |= pairwise(fullN, floorN, breps, &tb, &tlb) != 0;
  printf("| per page of a %d-dungeon batch (%d pages, median of %d) | %.2f ms | %.2f ms (floor) | %.2f |\n",
         batch, npages, breps, tb * 1e3 / npages, tlb * 1e3 / npages, tb / tlb);
  char *hfullN[] = {(char *)crawlbook, "--seeds", seeds, "--rooms", "30", "--jobs", "1",
                    "--backend",       "haru",    "-o",  out,       NULL};
  run rh = spawn(hfullN);
  failed |= rh.status != 0;
  printf("| per page of the same batch with libharu | %.2f ms | %.2f ms (cairo) | %.2f |\n",
         rh.secs * 1e3 / npages, tb * 1e3 / npages, rh.secs / tb);
  char *jfullN[] = {(char *)crawlbook, "--seeds", seeds, "--rooms", "30", "--jobs", "2", "-o", out, NULL};
  run rj = spawn(jfullN);
  failed |= rj.status != 0;
  printf(
      "| per page of the same batch on two threads (`--jobs 2`) | %.2f ms | %.2f ms (`--jobs 1`) | %.2f |\n",
      rj.secs * 1e3 / npages, tb * 1e3 / npages, rj.secs / tb);
  /* 3. against Graphviz */
  char *dot[] = {(char *)crawlbook, "--seed", "1", "--rooms", "30", "-o", dotf, NULL};
  spawn(dot);
  char *neato[] = {"neato", "-Tpdf", dotf, "-o", out2, NULL};
  run probe = spawn(neato);
  if (probe.status == 0) {
    double tn;
    failed |= pairwise(full1, neato, reps, &tf, &tn) != 0;
    printf("| one 30-room page against `neato -Tpdf` on its DOT | %.1f ms | %.1f ms (neato) | %.2f |\n",
           tf * 1e3, tn * 1e3, tf / tn);
    /* what cairo + pango alone cost for the page, against the same neato */
    failed |= pairwise(floor1, neato, reps, &tl, &tn) != 0;
    printf("| the floor (the page's items through cairo + pango alone) against `neato -Tpdf` | %.1f ms | "
           "%.1f ms "
           "(neato) | %.2f |\n",
           tl * 1e3, tn * 1e3, tl / tn);
  } else {
    printf("| against neato | - | neato is not installed | - |\n");
  }
  /* 4. generation alone (JSON out) at growing sizes: time, peak memory, growth
   * per 10x against what n log n allows (10 log 10n / log n) */
  struct {
    const char *gen, *opt, *what;
    int sizes[3];
  } scale[] = {{"dropdice", "--rooms", "rooms", {1000, 10000, 100000}},
               {"battleships", "--levels", "levels of 10 rooms", {10, 100, 1000}},
               {"cards", "--rooms", "sprawling cards (`--sprawl`, a deck per 52)", {1000, 10000, 100000}},
               {"preconnect", "--rooms", "rooms (corridors routed round the rooms)", {50, 200, 500}}};
  for (size_t g = 0; g < sizeof scale / sizeof *scale; g++) {
    double prev = 0;
    for (int k = 0; k < 3; k++) {
      /* the smoke run only checks that every row still works */
      int size = smoke ? scale[g].sizes[k] / 100 + k + 1 : scale[g].sizes[k];
      char sz[16], decks[16], json[300];
      snprintf(sz, sizeof sz, "%d", size);
      snprintf(decks, sizeof decks, "%d", (size + 51) / 52);
      snprintf(json, sizeof json, "%s/g.json", tmpdir);
      char *args[13] = {(char *)crawlbook,
                        "--generator",
                        (char *)scale[g].gen,
                        "--seed",
                        "1",
                        (char *)scale[g].opt,
                        sz,
                        "-o",
                        json,
                        NULL};
      if (strcmp(scale[g].gen, "cards") == 0) args[9] = "--sprawl", args[10] = "--decks", args[11] = decks;
      run r = spawn(args);
      char growth[80] = "";
      if (prev > 0 && !smoke) {
        double n = scale[g].sizes[k - 1], allowed = 10 * log(10 * n) / log(n);
        snprintf(growth, sizeof growth, "x%.1f for x10 (n log n: x%.1f)", r.secs / prev, allowed);
      }
      printf("| %s: %d %s, JSON out | %.3f s, %.1f MB peak | %s | %s |\n", scale[g].gen, size, scale[g].what,
             r.secs, r.maxrss_mb, r.status ? "(failed)" : "", growth);
      if (r.status) failed = 1;
      prev = r.secs;
    }
  }
  /* the library's own growth: qhull's Delaunay of uniform points, in this process */
  for (int n = smoke ? 1000 : 10000; n <= (smoke ? 1000 : 100000); n *= 10) {
    cb_point *pts = malloc((size_t)n * sizeof *pts);
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      pts[i] = (cb_point){(double)(x >> 40) / 16777216.0 * 1000, (double)(x & 0xffffff) / 16777216.0 * 1000};
    }
    cb_edge *e = NULL;
    int ne = 0;
    cb_error err = {0};
    double t0 = now();
    if (cb_delaunay(pts, n, &e, &ne, &err) != CB_OK) failed = 1;
    printf("| qhull alone: Delaunay of %d uniform points (the library floor of dropdice) | %.3f s |  |  |\n",
           n, now() - t0);
    free(e);
    free(pts);
  }
  /* the graph layout alone (battleships' levels have no geometry), in this process */
  for (int rooms = 10; rooms <= 100; rooms *= 10) {
    cb_battleships_options own = {.grid = {rooms, rooms}};
    cb_gen_options o = {.seed = 7, .levels = 1, .own = &own};
    cb_dungeon *d = NULL;
    cb_graph_pos *pos = NULL;
    cb_error err = {0};
    int n = 0;
    if (cb_generator_run(&cb_gen_battleships, &o, &d, &err) != CB_OK) {
      failed = 1;
      continue;
    }
    double t0 = now();
    failed |= cb_graph_layout(NULL, d, 1, 1.0, &pos, &n, &err) != CB_OK;
    printf("| graph layout alone: a battleships level of %d rooms | %.3f s |  |  |\n", n, now() - t0);
    free(pos);
    cb_dungeon_free(d);
  }
  /* 5. memory of batches: flat as they grow */
  char *b10[] = {(char *)crawlbook, "--seeds", "1..10", "-o", out, NULL};
  run m10 = spawn(b10), mN = spawn(fullN);
  failed |= m10.status != 0 || mN.status != 0;
  printf("| peak memory, batch of 10 and of %d | %.1f MB | %.1f MB | %.2f |\n", batch, m10.maxrss_mb,
         mN.maxrss_mb, mN.maxrss_mb / m10.maxrss_mb);
  /* 6. what stocking costs a one-page run (its own table) */
  printf("\n");
  failed |= stocking(smoke ? 1 : reps, getenv("CRAWLBOOK_BASE"), tmpdir);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) return 1;
  if (failed) fprintf(stderr, "bench: a measured run failed\n");
  return failed;
}
