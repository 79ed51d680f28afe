#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/datadir.h"
#include "base/table.h"
#include "batch.h"
#include "formats.h"
#include "io/dot.h"
#include "io/json.h"
#include "io/output.h"
#include "layout/cover.h"
#include "layout/graph.h"
#include "layout/impose.h"
#include "layout/sheet.h"
#include "model/check.h"
#include "model/recorded.h"
#include "model/view.h"
#include "page/sizes.h"
#include "registry/registry.h"
#include "render/coverage.h"

#ifndef CB_VERSION
#define CB_VERSION "0.0.0"
#endif

static const double MARGIN_MM = CB_MARGIN_MM; /* layout/template.h: the one default margin */

static void play_note(void *ctx, const char *msg) {
  const cb_job *job = ctx;
  char line[512];
  snprintf(line, sizeof line, "%s: %s", job->input, msg);
  job->notice(job->notice_ctx, line);
}

/* A file read back: what it holds that no party could play is said (the
 * same walk the generators' repairs make). */
static cb_status read_dungeon(const cb_job *job, cb_dungeon **out, cb_error *err) {
  cb_status st = cb_json_read_file(job->input, cb_proc_json(), out, err);
  if (st != CB_OK || !job->notice) return st;
  if (cb_check_play(*out, play_note, (void *)job) >= 0) return CB_OK;
  cb_dungeon_free(*out);
  *out = NULL;
  return cb_error_oom(err);
}

/* A procedure that reached fewer levels than --levels asked (its deals
 * stopped short) says so: the footer's command, which asks for them all,
 * still makes this same dungeon. */
static void tell_levels(const cb_job *job, const cb_dungeon *d) {
  if (!job->notice || job->gen.levels <= 0 || d->nlevels >= job->gen.levels) return;
  char msg[256];
  snprintf(msg, sizeof msg,
           "seed %" PRIu64 ": the dungeon reached %d of the %d levels asked (--levels %d); the command "
           "in its footer makes this same dungeon again",
           d->seed, d->nlevels, job->gen.levels, job->gen.levels);
  job->notice(job->notice_ctx, msg);
}

/* The job's dungeon, made and stocked into *out; themes from `shelf` (NULL: read here). */
static cb_status make_dungeon(const cb_job *job, cb_theme_shelf *shelf, cb_dungeon **out, cb_error *err) {
  if (job->input) return read_dungeon(job, out, err);
  const cb_generator *g = cb_generator_find(job->generator);
  if (!g) {
    char names[256];
    return cb_error_set(err, CB_EINPUT, "--generator %s: no such generator (%s)", job->generator,
                        cb_generator_names(names, sizeof names, " or "));
  }
  cb_status st = cb_generator_run(g, &job->gen, out, err);
  if (st != CB_OK) return st;
  if (cb_dungeon_record(*out, CB_RECORDED_TITLE, job->gen.title)) {
    cb_dungeon_free(*out);
    *out = NULL;
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
  }
  /* a dungeon too big for the JSON it is to go into is refused before it is stocked */
  bool json = cb_format_row_of(job->format)->writer == CB_WRITER_JSON;
  cb_stock_options so = job->stock;
  so.faithful = job->gen.faithful;
  so.themes = shelf;
  if ((json && (st = cb_json_writable(*out, err)) != CB_OK) || (st = cb_stock_run(*out, &so, err)) != CB_OK) {
    cb_dungeon_free(*out);
    *out = NULL;
    return st;
  }
  tell_levels(job, *out);
  cb_error check = {0};
  if (cb_check_structure(*out, &check) != CB_OK) {
    cb_dungeon_free(*out);
    *out = NULL;
    return cb_error_set(err, CB_EINTERNAL, "the %s generator broke the model: %s", g->name, check.msg);
  }
  return CB_OK;
}

static cb_status write_json(const cb_dungeon *d, cb_output *out, cb_error *err) {
  return cb_json_write(d, cb_proc_json(), (cb_sink){out, cb_output_write}, err);
}

/* A backend with its page settings, made once per document, and once per
 * worker of a batch (with fonts of its own: pango's are not shared between
 * threads). The layout measures with it and keeps its laid-out levels in
 * its graphs. */
typedef struct renderer {
  const cb_backend_class *cls;
  cb_backend *b;
  cb_sheet_options so;
  cb_theme_shelf *themes; /* the themes its dungeons were stocked from */
} renderer;

static void close_renderer(renderer *r) {
  cb_backend_destroy(r->b);
  cb_graph_cache_free(r->so.graphs);
  cb_theme_shelf_free(r->themes);
  r->b = NULL, r->so.graphs = NULL, r->themes = NULL;
}

static cb_status open_renderer(const cb_job *job, bool own_fonts, renderer *r, cb_error *err) {
  memset(r, 0, sizeof *r);
  r->cls = cb_backend_find(job->backend ? job->backend : "cairo");
  if (!r->cls) return cb_error_set(err, CB_EINPUT, "--backend %s: no such backend", job->backend);
  const char *data = cb_datadir();
  if (!data) return cb_error_set(err, CB_EINTERNAL, "cannot find crawlbook's fonts (set CRAWLBOOK_DATADIR)");
  char fonts[4096];
  snprintf(fonts, sizeof fonts, "%s/fonts", data);
  if (cb_fonts_check(fonts, err) != CB_OK) return err->status;
  cb_render_options ro = {job->format, job->dpi > 0 ? job->dpi : 150, fonts, own_fonts, false, job->fonts};
  double a4_w, a4_h;
  cb_page_size_named("a4", &a4_w, &a4_h);
  r->so = (cb_sheet_options){job->page_w > 0 ? job->page_w : a4_w,
                             job->page_h > 0 ? job->page_h : a4_h,
                             (job->tpl.margin_mm > 0 ? job->tpl.margin_mm : MARGIN_MM) * CB_PT_PER_MM,
                             CB_VERSION,
                             job->player_map,
                             job->page_args,
                             job->colour,
                             job->appendix,
                             job->tpl.sections | (job->appendix ? CB_SECTION_APPENDIX : 0),
                             job->tpl.pad_to > 0 ? job->tpl.pad_to : 1};
  r->so.graphs = cb_graph_cache_new();
  r->themes = cb_theme_shelf_new();
  if (!r->so.graphs || !r->themes) {
    close_renderer(r);
    return cb_error_oom(err);
  }
  cb_status st = cb_backend_create(r->cls, &ro, &r->b, err);
  if (st != CB_OK) close_renderer(r);
  return st;
}

/* The dungeon's pages (the players' view when asked) appended to doc. */
static cb_status lay_out(const cb_job *job, const renderer *r, const cb_dungeon *d, cb_document *doc,
                         cb_error *err) {
  if (d->nrooms > CB_MAX_PAGE_ROOMS)
    return cb_error_set(err, CB_EINPUT,
                        "%d rooms are too many for a printed page (at most %d); use --format json", d->nrooms,
                        CB_MAX_PAGE_ROOMS);
  bool booklet = job->tpl.layout == CB_LAYOUT_BOOKLET && !job->player_map;
  bool need_view = job->player_map || (booklet && (job->tpl.sections & CB_SECTION_PLAYER_MAP));
  cb_dungeon *view = need_view ? cb_player_view(d) : NULL;
  if (need_view && !view) return cb_error_set(err, CB_EINTERNAL, "out of memory");
  const cb_measure *m = r->cls->measure(r->b);
  cb_status st;
  cb_sheet_options so = r->so;
  cb_proc_sheet(d, &so);
  if (job->tpl.layout == CB_LAYOUT_ZINE8 && !job->player_map) {
    /* the zine's sheet is landscape whatever the page size says */
    if (so.page_w < so.page_h) so.page_w = r->so.page_h, so.page_h = r->so.page_w;
    st = cb_zine_layout(d, m, &so, doc, err);
  } else {
    st = booklet ? cb_booklet_layout(d, view, m, &so, doc, err)
                 : cb_sheet_layout(view ? view : d, m, &so, doc, err);
  }
  if (st == CB_OK && job->impose_saddle) {
    /* the sheets take the pages' place; the document keeps its metadata */
    cb_document sheets = {0};
    st = cb_impose_saddle(doc, &sheets, err);
    for (int i = 0; i < doc->npages; i++)
      cb_page_free(doc->pages[i]);
    free(doc->pages);
    doc->pages = sheets.pages, doc->npages = sheets.npages, doc->cap_pages = sheets.cap_pages;
  }
  cb_dungeon_free(view);
  return st;
}

static void doc_info(const cb_job *job, cb_document *doc, const char *title, const char *subject) {
  *doc = (cb_document){.title = title,
                       .author = job->author,
                       .subject = subject,
                       .creator = "crawlbook " CB_VERSION,
                       .date = job->date};
}

/* A one-page sheet that could not stay on one page says so, and how far it runs. */
static void tell_spill(const cb_job *job, const cb_dungeon *d, const cb_document *doc) {
  if (!doc->spilled || !job->notice) return;
  char msg[256];
  snprintf(msg, sizeof msg,
           "seed %" PRIu64
           ": the room key of %d rooms does not fit one page with a legible map; it runs %s %d%s "
           "(--template booklet lays it out over several pages)",
           d->seed, d->nrooms, doc->key_pages > 2 ? "over" : "onto page",
           doc->key_pages > 2 ? doc->key_pages : 2, doc->key_pages > 2 ? " pages" : "");
  job->notice(job->notice_ctx, msg);
}

typedef struct word_check {
  const cb_coverage *cover;
  cb_error err;
  char where[128];
  const char *text;
} word_check;

static int word_fails(void *ctx, const char *where, const char *text) {
  word_check *w = ctx;
  if (cb_coverage_check_text(w->cover, text, &w->err) == CB_OK) return 0;
  snprintf(w->where, sizeof w->where, "%s", where);
  w->text = text;
  return 1;
}

/* Whether text holds one of the field's parts (a field may be "long ~ short"
 * or "name / name"), each of them whole. */
static bool holds_part(const char *text, const char *field) {
  for (const char *p = field; *p;) {
    size_t n = strlen(p), a = (size_t)(strstr(p, " ~ ") ? strstr(p, " ~ ") - p : (ptrdiff_t)n),
           b = (size_t)(strstr(p, " / ") ? strstr(p, " / ") - p : (ptrdiff_t)n), k = a < b ? a : b;
    for (const char *at = text; k && *at; at++)
      if (strncmp(at, p, k) == 0) return true;
    p += k < n ? k + 3 : n;
  }
  return false;
}

/* The line of the --theme file's row with a field the fonts cannot draw
 * that `text` holds; 0 when none (or the theme is a shipped one). */
static int theme_line(const cb_job *job, const cb_coverage *cover, const char *text) {
  const char *t = job->stock.theme;
  size_t n = t ? strlen(t) : 0;
  cb_table tab;
  cb_error e = {0};
  if (!t || !(strchr(t, '/') || (n > 4 && strcmp(t + n - 4, ".txt") == 0)) ||
      cb_table_read(t, 1, 12, &tab, &e) != CB_OK)
    return 0;
  int line = 0;
  for (int i = 0; !line && i < tab.nrows; i++)
    for (int f = 1; !line && f < tab.rows[i].nfields; f++)
      if (cb_coverage_check_text(cover, tab.rows[i].fields[f], &e) != CB_OK &&
          holds_part(text, tab.rows[i].fields[f]))
        line = tab.rows[i].line;
  cb_table_free(&tab);
  return line;
}

/* Every word the pages may print, checked against the fonts before they are
 * laid out, so that a refusal says where the word came from: the theme's
 * file:line, the JSON file and the field, --title, or the field. */
static cb_status check_words(const cb_job *job, const renderer *r, const cb_dungeon *d, cb_error *err) {
  word_check w = {.cover = r->b->cover};
  if (!cb_dungeon_each_text(d, word_fails, &w)) return CB_OK;
  int line = job->input ? 0 : theme_line(job, w.cover, w.text);
  if (job->input) return cb_error_set(err, CB_EINPUT, "%s: %s: %s", job->input, w.where, w.err.msg);
  if (line) return cb_error_set(err, CB_EINPUT, "%s:%d: %s", job->stock.theme, line, w.err.msg);
  if (job->gen.title && strcmp(w.where, "the title") == 0)
    return cb_error_set(err, CB_EINPUT, "--title: %s", w.err.msg);
  return cb_error_set(err, CB_EINPUT, "%s: %s", w.where, w.err.msg);
}

/* d's pages laid out with r into doc, with the document's metadata. */
static cb_status pages_of(const cb_job *job, const renderer *r, const cb_dungeon *d, cb_document *doc,
                          cb_error *err) {
  doc_info(job, doc, d->title, d->generator);
  return lay_out(job, r, d, doc, err);
}

/* d's pages drawn into out: laid out already by a worker (laid), or here
 * (laid NULL). */
static cb_status write_pages(const cb_job *job, const cb_dungeon *d, const cb_made *laid, cb_output *out,
                             cb_error *err) {
  renderer r;
  cb_status st = open_renderer(job, false, &r, err);
  if (st != CB_OK) return st;
  if ((st = check_words(job, &r, d, err)) != CB_OK) {
    close_renderer(&r);
    return st;
  }
  cb_document doc = {0};
  if (!laid) {
    st = pages_of(job, &r, d, &doc, err);
    tell_spill(job, d, &doc);
  } else {
    cb_backend_add_marks(r.b, laid->marks);
  }
  if (st == CB_OK)
    st = cb_backend_render(r.b, laid ? &laid->doc : &doc, (cb_sink){out, cb_output_write}, err);
  cb_document_free(&doc);
  close_renderer(&r);
  return st;
}

/* One dungeon of a batch: the job with the i-th seed. */
static cb_job nth(const cb_job *job, int i) {
  cb_job sub = *job;
  sub.gen.seed = job->gen.seed + (uint64_t)i;
  sub.count = 1;
  return sub;
}

/* The i-th dungeon of a batch, made and laid out into doc; its words checked
 * against the fonts unless they were (`checked`). */
static cb_status make_and_lay_out(const cb_job *job, const renderer *r, int i, bool checked, cb_dungeon **d,
                                  cb_document *doc, cb_error *err) {
  cb_job sub = nth(job, i);
  if (r->so.count_only) sub.notice = NULL; /* the drawing pass tells */
  cb_status st = make_dungeon(&sub, r->themes, d, err);
  if (st == CB_OK && !checked) st = check_words(&sub, r, *d, err);
  return st == CB_OK ? lay_out(&sub, r, *d, doc, err) : st;
}

/* The batch's options: the first dungeon's, less those another dungeon
 * has otherwise (a theme picked for each seed): left off, each dungeon picks
 * its own again, and the command makes exactly the dungeons printed. */
static void batch_options(cb_dungeon *first, const cb_dungeon *d) {
  for (int k = 0; k < first->noptions; k++) {
    const cb_option *o = &first->options[k];
    bool same = false;
    for (int j = 0; j < d->noptions && !same; j++)
      same = !strcmp(d->options[j].name, o->name) && o->flag == d->options[j].flag &&
             (o->flag || !strcmp(d->options[j].value, o->value));
    if (same) continue;
    memmove(first->options + k, first->options + k + 1, (size_t)(first->noptions - k - 1) * sizeof *o);
    first->noptions--, k--;
  }
}

/* A copy of the first dungeon's generator, seed and options, in arena a. */
static cb_status keep_options(cb_arena *a, const cb_dungeon *d, cb_dungeon *out, cb_error *err) {
  out->generator = cb_arena_strdup(a, d->generator);
  out->seed = d->seed;
  out->options = d->noptions ? cb_arena_alloc(a, (size_t)d->noptions, sizeof *out->options) : NULL;
  if (!out->generator || (d->noptions && !out->options))
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
  for (int k = 0; k < d->noptions; k++) {
    out->options[k] = d->options[k];
    out->options[k].name = cb_arena_strdup(a, d->options[k].name);
    out->options[k].value = d->options[k].value ? cb_arena_strdup(a, d->options[k].value) : NULL;
    if (!out->options[k].name || (d->options[k].value && !out->options[k].value))
      return cb_error_set(err, CB_EINTERNAL, "out of memory");
  }
  out->noptions = d->noptions;
  return CB_OK;
}

/* The batch's command, whole: the options all its dungeons share (d: the
 * first's, less the others'), with the range of seeds; malloc-owned, NULL
 * when out of memory. */
static char *batch_command(const cb_job *job, const cb_dungeon *d, int n) {
  return cb_sheet_command_new(d, d->seed + (uint64_t)n - 1, job->page_args);
}

/* The workers of a batch: one renderer each (measuring with fonts of its
 * own), or with one worker the batch's own renderer. */
typedef struct crew {
  int n;
  renderer *r;
  bool own; /* r was opened here and is closed with the crew */
} crew;

static int jobs_of(const cb_job *job) { return job->jobs > 1 ? job->jobs : 1; }

static void crew_close(crew *c) {
  for (int w = 0; c->own && c->r && w < c->n; w++)
    close_renderer(&c->r[w]);
  if (c->own) free(c->r);
  *c = (crew){0};
}

/* Opened on the calling thread, before any worker starts; `shared` is the
 * batch's own renderer when it has one (one worker borrows it). */
static cb_status crew_open(const cb_job *job, renderer *shared, crew *c, cb_error *err) {
  *c = (crew){.n = jobs_of(job)};
  if (c->n == 1 && shared) {
    c->r = shared;
    return CB_OK;
  }
  c->own = true;
  c->r = cb_calloc((size_t)c->n, sizeof *c->r);
  if (!c->r) return cb_error_oom(err);
  cb_status st = CB_OK;
  for (int w = 0; w < c->n && st == CB_OK; w++)
    st = open_renderer(job, c->n > 1, &c->r[w], err);
  if (st != CB_OK) crew_close(c);
  return st;
}

/* An item a worker made, as the batch's error when it failed. */
static cb_status made_status(const cb_made *m, cb_error *err) {
  return m->st == CB_OK ? CB_OK : cb_error_set(err, m->st, "%s", m->err.msg);
}

/* A batch in one PDF, as the workers and the drawing thread share it. */
typedef struct book {
  const cb_job *job;
  int n;
  renderer *r; /* the one that draws */
  crew crew;
  bool counting; /* the first pass: the pages made only to be counted */
  cb_arena *names;
  cb_toc_entry *toc;
  cb_sheet_memo **fits; /* what counting each dungeon's pages found, for drawing them (or NULL) */
  int page;             /* the next dungeon's first page */
  char *command, about[256];
  cb_dungeon shared; /* the options every dungeon of the batch shares (names' arena) */
} book;

/* What drawing doc's pages with a backend of b's class can have done ahead,
 * done on the worker that laid them out (the same bytes, less for the
 * thread that draws to do). */
static void prepare_pages(cb_backend *b, cb_document *doc) {
  for (int k = 0; k < doc->npages; k++)
    cb_backend_prepare(b, doc->pages[k]);
}

static void book_make(void *ctx, int w, int i, cb_made *out) {
  book *bk = ctx;
  renderer ri = bk->crew.r[w];
  ri.so.count_only = bk->counting;
  if (!bk->counting) ri.so.page_first = bk->toc[i].page, ri.so.page_total = bk->r->so.page_total;
  if (bk->counting) bk->fits[i] = cb_sheet_memo_new(); /* none: the drawing fits afresh */
  ri.so.again = bk->fits[i];
  /* the drawing's dungeon is the count's made again: its words were checked then */
  out->st = make_and_lay_out(bk->job, &ri, i, !bk->counting, &out->d, &out->doc, &out->err);
  if (!bk->counting) cb_sheet_memo_free(bk->fits[i]), bk->fits[i] = NULL;
  if (!bk->counting && out->st == CB_OK) prepare_pages(ri.b, &out->doc);
  if (bk->crew.own) out->marks = cb_backend_take_marks(ri.b);
}

/* The first pass: the contents' line of dungeon i, and its pages counted. */
static cb_status book_count(void *ctx, int i, cb_made *m, cb_error *err) {
  book *bk = ctx;
  cb_status st = made_status(m, err);
  const cb_dungeon *d = m->d;
  cb_backend_add_marks(bk->r->b, m->marks);
  if (st == CB_OK) {
    cb_arena *a = bk->names;
    bk->toc[i] = (cb_toc_entry){cb_arena_strdup(a, d->title ? d->title : "Dungeon"),
                                d->theme ? cb_arena_strdup(a, d->theme) : NULL,
                                d->hook[0] ? cb_arena_strdup(a, d->hook[0]) : NULL,
                                d->seed,
                                d->nrooms,
                                bk->page};
    if (!bk->toc[i].title || (d->theme && !bk->toc[i].theme) || (d->hook[0] && !bk->toc[i].hook))
      st = cb_error_oom(err);
    bk->page += m->doc.npages;
    if (st == CB_OK && i == 0) st = keep_options(a, d, &bk->shared, err);
    if (i > 0) batch_options(&bk->shared, d);
  }
  if (st == CB_OK && i == 0) {
    snprintf(bk->about, sizeof bk->about, "%d %s dungeon%s, seeds %" PRIu64 " to %" PRIu64, bk->n,
             d->generator, bk->n == 1 ? "" : "s", bk->job->gen.seed, bk->job->gen.seed + (uint64_t)bk->n - 1);
  }
  cb_made_free(m);
  return st;
}

/* The second pass: dungeon i's pages drawn, with its bookmark. */
static cb_status book_draw(void *ctx, int i, cb_made *m, cb_error *err) {
  book *bk = ctx;
  cb_status st = made_status(m, err);
  if (st == CB_OK) tell_spill(bk->job, m->d, &m->doc);
  cb_backend_add_marks(bk->r->b, m->marks);
  for (int k = 0; st == CB_OK && k < m->doc.npages; k++) {
    cb_backend_page(bk->r->b, m->doc.pages[k]);
    if (k == 0) cb_backend_outline(bk->r->b, bk->toc[i].title, bk->toc[i].page - 1);
  }
  cb_made_free(m);
  if (bk->job->progress) bk->job->progress(bk->job->progress_ctx, i + 1, bk->n);
  return st;
}

/* The cover with the contents, drawn first. */
static cb_status book_cover(book *bk, cb_output *out, cb_error *err) {
  renderer *r = bk->r;
  r->so.page_total = bk->page - 1; /* every page counts within the document */
  cb_document cover;
  doc_info(bk->job, &cover, "A crawlbook of dungeons", "crawlbook batch");
  cb_status st = cb_cover_layout(bk->toc, bk->n, "A Crawlbook of Dungeons", bk->about, bk->command,
                                 r->cls->measure(r->b), &r->so, &cover, err);
  if (st == CB_OK) {
    cb_backend_begin(r->b, &cover, (cb_sink){out, cb_output_write});
    for (int i = 0; i < cover.npages; i++)
      cb_backend_page(r->b, cover.pages[i]);
    cb_backend_outline(r->b, "Contents", 0);
  }
  cb_document_free(&cover);
  return st;
}

/* A batch in one PDF: a cover with the contents, then every dungeon's pages,
 * a bookmark each. Dungeons are made twice (once to count their pages for the
 * contents, once to draw them) so that no more than one a worker is ever in
 * memory; the count skips the maps, which only fill boxes of fixed size. */
static cb_status write_book(const cb_job *job, cb_output *out, cb_error *err) {
  renderer r;
  cb_status st = open_renderer(job, false, &r, err);
  if (st != CB_OK) return st;
  book bk = {.job = job, .n = job->count, .r = &r, .names = cb_arena_new()};
  bk.toc = cb_calloc((size_t)bk.n, sizeof *bk.toc);
  bk.fits = cb_calloc((size_t)bk.n, sizeof *bk.fits);
  if (!bk.names || !bk.toc || !bk.fits) {
    st = cb_error_oom(err);
    goto done;
  }
  if ((st = crew_open(job, &r, &bk.crew, err)) != CB_OK) goto done;
  bk.page = cb_cover_pages(bk.n, &r.so) + 1;
  bk.counting = true;
  cb_batch b = {bk.n, bk.crew.n, book_make, book_count, &bk};
  st = cb_batch_run(&b, err);
  if (st == CB_OK && !(bk.command = batch_command(job, &bk.shared, bk.n))) st = cb_error_oom(err);
  if (st == CB_OK) st = book_cover(&bk, out, err);
  bk.counting = false;
  b.take = book_draw;
  if (st == CB_OK) st = cb_batch_run(&b, err);
  if (st == CB_OK)
    st = cb_backend_end(r.b, err);
  else
    cb_backend_end(r.b, &(cb_error){0});
done:
  crew_close(&bk.crew);
  close_renderer(&r);
  cb_arena_free(bk.names);
  for (int i = 0; bk.fits && i < bk.n; i++)
    cb_sheet_memo_free(bk.fits[i]);
  free(bk.fits);
  free(bk.toc);
  free(bk.command);
  return st;
}

/* "name-%03d.pdf" with i: the one %d or %0Nd replaced (checked by cb_job_pattern). */
static void pattern_name(const char *pattern, int i, char *buf, size_t cap) {
  const char *pc = strchr(pattern, '%');
  const char *d = strchr(pc, 'd');
  int width = pc[1] == '0' ? atoi(pc + 2) : 0;
  snprintf(buf, cap, "%.*s%0*d%s", (int)(pc - pattern), pattern, width, i, d + 1);
}

int cb_job_pattern(const char *output) {
  const char *pc = output ? strchr(output, '%') : NULL;
  if (!pc) return 0;
  const char *q = pc + 1;
  if (*q == '0') {
    q++;
    if (*q < '1' || *q > '9') return -1;
    q++;
  }
  if (*q != 'd' || strchr(q, '%')) return -1;
  return 1;
}

/* d written into out in the job's format; printed pages laid out already
 * by a worker (laid) or here (laid NULL). */
static cb_status write_one(const cb_job *job, const cb_dungeon *d, const cb_made *laid, cb_output *out,
                           cb_error *err) {
  switch (cb_format_row_of(job->format)->writer) {
  case CB_WRITER_JSON: return write_json(d, out, err);
  case CB_WRITER_DOT: return cb_dot_write(d, (cb_sink){out, cb_output_write}, err);
  case CB_WRITER_PAGES: return write_pages(job, d, laid, out, err);
  }
  return CB_OK;
}

/* One file per dungeon: the workers make each dungeon (and lay out its
 * pages), the calling thread writes them in order. */
typedef struct files {
  const cb_job *job;
  int n;
  crew crew; /* for printed formats, else empty */
} files;

static void files_make(void *ctx, int w, int i, cb_made *out) {
  files *fs = ctx;
  cb_job sub = nth(fs->job, i);
  out->st = make_dungeon(&sub, fs->crew.n ? fs->crew.r[w].themes : NULL, &out->d, &out->err);
  if (out->st == CB_OK && fs->crew.n) {
    out->st = pages_of(&sub, &fs->crew.r[w], out->d, &out->doc, &out->err);
    if (out->st == CB_OK) prepare_pages(fs->crew.r[w].b, &out->doc);
    out->marks = cb_backend_take_marks(fs->crew.r[w].b);
  }
}

static cb_status files_write(void *ctx, int i, cb_made *m, cb_error *err) {
  files *fs = ctx;
  char name[4096];
  cb_job sub = nth(fs->job, i);
  pattern_name(fs->job->output, i + 1, name, sizeof name);
  sub.output = name;
  cb_output *out = NULL;
  cb_status st = cb_output_open(name, &out, err);
  if (st == CB_OK) {
    st = made_status(m, err);
    if (st == CB_OK && fs->crew.n) tell_spill(&sub, m->d, &m->doc);
    if (st == CB_OK) st = write_one(&sub, m->d, fs->crew.n ? m : NULL, out, err);
    st = st == CB_OK ? cb_output_commit(out, err) : cb_output_fail(out, st, err);
  }
  cb_made_free(m);
  if (fs->job->progress) fs->job->progress(fs->job->progress_ctx, i + 1, fs->n);
  return st;
}

static cb_status write_files(const cb_job *job, cb_error *err) {
  files fs = {.job = job, .n = job->count > 1 ? job->count : 1};
  /* every name checked before the first is written */
  cb_status st = CB_OK;
  for (int i = 0; i < fs.n && st == CB_OK; i++) {
    char name[4096];
    pattern_name(job->output, i + 1, name, sizeof name);
    st = cb_output_check(name, err);
  }
  if (st == CB_OK && cb_format_row_of(job->format)->writer == CB_WRITER_PAGES)
    st = crew_open(job, NULL, &fs.crew, err);
  if (st != CB_OK) return st;
  cb_batch b = {fs.n, jobs_of(job), files_make, files_write, &fs};
  st = cb_batch_run(&b, err);
  crew_close(&fs.crew);
  return st;
}

static cb_status run_one(const cb_job *job, cb_dungeon **keep, cb_error *err) {
  /* open the output first, so that a bad path fails before any work */
  cb_output *out = NULL;
  cb_status st = CB_OK;
  if (job->output && (st = cb_output_open(job->output, &out, err)) != CB_OK) return st;
  cb_dungeon *d = NULL;
  if (job->count > 1 && out) {
    st = write_book(job, out, err);
  } else {
    st = make_dungeon(job, NULL, &d, err);
    if (st == CB_OK && out) st = write_one(job, d, NULL, out, err);
  }
  if (out) {
    if (st == CB_OK)
      st = cb_output_commit(out, err);
    else
      st = cb_output_fail(out, st, err);
  }
  if (st == CB_OK && keep)
    *keep = d;
  else
    cb_dungeon_free(d);
  return st;
}

cb_status cb_job_run(const cb_job *job, cb_dungeon **keep, cb_error *err) {
  if (keep) *keep = NULL;
  if (!job->input) {
    const cb_generator *g = cb_generator_find(job->generator);
    if (g && cb_generator_check(g, &job->gen, err) != CB_OK) return err->status;
  }
  const cb_format_row *fmt = cb_format_row_of(job->format);
  if (fmt->writer == CB_WRITER_PAGES && job->output && job->gen.rooms > CB_MAX_PAGE_ROOMS)
    return cb_error_set(err, CB_EINPUT,
                        "--rooms %d: a printed page holds at most %d rooms; use --format json",
                        job->gen.rooms, CB_MAX_PAGE_ROOMS);
  int pattern = cb_job_pattern(job->output);
  if (pattern < 0)
    return cb_error_set(err, CB_EINPUT,
                        "--output '%s': a name pattern takes one %%d or %%0Nd, e.g. dungeon-%%03d.pdf",
                        job->output);
  if (job->count > 1 && !pattern && job->output && !fmt->book)
    return cb_error_set(err, CB_EINPUT,
                        "several dungeons go into one PDF; for %s give a name pattern such as "
                        "-o 'dungeon-%%03d.%s'",
                        fmt->label, fmt->name);
  /* the run's fonts, kept from document to document (NULL when out of
   * memory: each backend its own) */
  cb_job run = *job;
  run.fonts = cb_cairo_fonts_new();
  cb_status st = pattern ? write_files(&run, err) : run_one(&run, job->count > 1 ? NULL : keep, err);
  cb_cairo_fonts_free(run.fonts);
  return st;
}
