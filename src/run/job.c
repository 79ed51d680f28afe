#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/datadir.h"
#include "formats.h"
#include "io/dot.h"
#include "io/json.h"
#include "io/output.h"
#include "layout/cover.h"
#include "layout/impose.h"
#include "layout/sheet.h"
#include "model/check.h"
#include "model/view.h"
#include "page/sizes.h"
#include "proc/registry.h"

#ifndef CB_VERSION
#define CB_VERSION "0.0.0"
#endif

static const double MARGIN_MM = 12;

static cb_status make_dungeon(const cb_job *job, cb_dungeon **out, cb_error *err) {
  if (job->input) return cb_json_read_file(job->input, cb_proc_json(), out, err);
  const cb_generator *g = cb_generator_find(job->generator);
  if (!g) {
    char names[256];
    return cb_error_set(err, CB_EINPUT, "--generator %s: no such generator (%s)", job->generator,
                        cb_generator_names(names, sizeof names, " or "));
  }
  cb_status st = g->generate(&job->gen, out, err);
  if (st != CB_OK) return st;
  if (job->gen.title && cb_dungeon_set_option(*out, "title", job->gen.title, false)) {
    cb_dungeon_free(*out);
    *out = NULL;
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
  }
  cb_stock_options so = job->stock;
  so.faithful = job->gen.faithful;
  if ((st = cb_stock_run(*out, &so, err)) != CB_OK) {
    cb_dungeon_free(*out);
    *out = NULL;
    return st;
  }
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

/* A backend with its page settings, made once per document. */
typedef struct renderer {
  const cb_backend_class *cls;
  cb_backend *b;
  cb_sheet_options so;
} renderer;

static cb_status open_renderer(const cb_job *job, renderer *r, cb_error *err) {
  memset(r, 0, sizeof *r);
  r->cls = cb_backend_find(job->backend ? job->backend : "cairo");
  if (!r->cls) return cb_error_set(err, CB_EINPUT, "--backend %s: no such backend", job->backend);
  const char *data = cb_datadir();
  if (!data) return cb_error_set(err, CB_EINTERNAL, "cannot find crawlbook's fonts (set CRAWLBOOK_DATADIR)");
  char fonts[4096];
  snprintf(fonts, sizeof fonts, "%s/fonts", data);
  if (cb_fonts_check(fonts, err) != CB_OK) return err->status;
  cb_render_options ro = {job->format, job->dpi > 0 ? job->dpi : 150, fonts};
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
  return cb_backend_create(r->cls, &ro, &r->b, err);
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

static void doc_info(const cb_job *job, cb_document *doc, const char *title, const char *subject,
                     char *creator, size_t cap) {
  snprintf(creator, cap, "crawlbook %s", CB_VERSION);
  *doc = (cb_document){
      .title = title, .author = job->author, .subject = subject, .creator = creator, .date = job->date};
}

/* A one-page sheet that could not stay on one page says so. */
static void tell_spill(const cb_job *job, const cb_dungeon *d, const cb_document *doc) {
  if (!doc->spilled || !job->notice) return;
  char msg[256];
  snprintf(msg, sizeof msg,
           "seed %" PRIu64
           ": the room key of %d rooms does not fit one page with a legible map; it runs onto "
           "page 2 (--template booklet lays it out over several pages)",
           d->seed, d->nrooms);
  job->notice(job->notice_ctx, msg);
}

static cb_status write_pages(const cb_job *job, const cb_dungeon *d, cb_output *out, cb_error *err) {
  renderer r;
  cb_status st = open_renderer(job, &r, err);
  if (st != CB_OK) return st;
  char creator[64];
  cb_document doc;
  doc_info(job, &doc, d->title, d->generator, creator, sizeof creator);
  st = lay_out(job, &r, d, &doc, err);
  tell_spill(job, d, &doc);
  if (st == CB_OK) st = cb_backend_render(r.b, &doc, (cb_sink){out, cb_output_write}, err);
  cb_document_free(&doc);
  cb_backend_destroy(r.b);
  return st;
}

/* One dungeon of a batch: the job with the i-th seed. */
static cb_job nth(const cb_job *job, int i) {
  cb_job sub = *job;
  sub.gen.seed = job->gen.seed + (uint64_t)i;
  sub.count = 1;
  return sub;
}

/* The i-th dungeon of a batch, made and laid out into doc. */
static cb_status make_and_lay_out(const cb_job *job, const renderer *r, int i, cb_dungeon **d,
                                  cb_document *doc, cb_error *err) {
  cb_job sub = nth(job, i);
  cb_status st = make_dungeon(&sub, d, err);
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
  char *one = cb_sheet_command_new(d, job->page_args);
  if (!one) return NULL;
  const char *rest = strstr(one, " --seed ");
  rest = rest ? strchr(rest + 8, ' ') : NULL;
  size_t cap = strlen(one) + strlen(d->generator) + 96;
  char *cmd = cb_malloc(cap);
  if (cmd)
    snprintf(cmd, cap, "crawlbook --generator %s --seeds %" PRIu64 "..%" PRIu64 "%s", d->generator,
             job->gen.seed, job->gen.seed + (uint64_t)n - 1, rest ? rest : "");
  free(one);
  return cmd;
}

/* A batch in one PDF: a cover with the contents, then every dungeon's pages,
 * a bookmark each. Dungeons are made twice (once to count their pages for the
 * contents, once to draw them) so that no more than one is ever in memory;
 * the count skips the maps, which only fill boxes of fixed size. */
static cb_status write_book(const cb_job *job, cb_output *out, cb_error *err) {
  int n = job->count;
  renderer r;
  cb_status st = open_renderer(job, &r, err);
  if (st != CB_OK) return st;
  cb_arena *names = cb_arena_new();
  cb_toc_entry *toc = cb_calloc((size_t)n, sizeof *toc);
  char *command = NULL, about[256], creator[64];
  cb_dungeon shared = {0}; /* the options every dungeon of the batch shares */
  if (!names || !toc) {
    st = cb_error_set(err, CB_EINTERNAL, "out of memory");
    goto done;
  }
  int page = cb_cover_pages(n, &r.so) + 1;
  renderer counting = r;
  counting.so.count_only = true;
  for (int i = 0; i < n && st == CB_OK; i++) {
    cb_dungeon *d = NULL;
    cb_document doc = {0};
    st = make_and_lay_out(job, &counting, i, &d, &doc, err);
    if (st == CB_OK) {
      toc[i] = (cb_toc_entry){cb_arena_strdup(names, d->title ? d->title : "Dungeon"),
                              d->theme ? cb_arena_strdup(names, d->theme) : NULL,
                              d->hook[0] ? cb_arena_strdup(names, d->hook[0]) : NULL,
                              d->seed,
                              d->nrooms,
                              page};
      if (!toc[i].title || (d->theme && !toc[i].theme) || (d->hook[0] && !toc[i].hook))
        st = cb_error_set(err, CB_EINTERNAL, "out of memory");
      page += doc.npages;
      if (i == 0 && st == CB_OK) st = keep_options(names, d, &shared, err);
      if (i > 0) batch_options(&shared, d);
      if (i == 0) {
        snprintf(about, sizeof about, "%d %s dungeon%s, seeds %" PRIu64 " to %" PRIu64, n, d->generator,
                 n == 1 ? "" : "s", job->gen.seed, job->gen.seed + (uint64_t)n - 1);
      }
    }
    cb_document_free(&doc);
    cb_dungeon_free(d);
  }
  if (st == CB_OK && !(command = batch_command(job, &shared, n)))
    st = cb_error_set(err, CB_EINTERNAL, "out of memory");
  if (st != CB_OK) goto done;
  r.so.page_total = page - 1; /* every page counts within the document */
  cb_document cover;
  doc_info(job, &cover, "A crawlbook of dungeons", "crawlbook batch", creator, sizeof creator);
  st = cb_cover_layout(toc, n, "A Crawlbook of Dungeons", about, command, r.cls->measure(r.b), &r.so, &cover,
                       err);
  if (st == CB_OK) {
    cb_backend_begin(r.b, &cover, (cb_sink){out, cb_output_write});
    for (int i = 0; i < cover.npages; i++)
      cb_backend_page(r.b, cover.pages[i]);
    cb_backend_outline(r.b, "Contents", 0);
  }
  cb_document_free(&cover);
  for (int i = 0; i < n && st == CB_OK; i++) {
    cb_dungeon *d = NULL;
    cb_document doc = {0};
    renderer ri = r;
    ri.so.page_first = toc[i].page;
    st = make_and_lay_out(job, &ri, i, &d, &doc, err);
    if (st == CB_OK) tell_spill(job, d, &doc);
    for (int k = 0; st == CB_OK && k < doc.npages; k++) {
      cb_backend_page(r.b, doc.pages[k]);
      if (k == 0) cb_backend_outline(r.b, toc[i].title, toc[i].page - 1);
    }
    cb_document_free(&doc);
    cb_dungeon_free(d);
    if (job->progress) job->progress(job->progress_ctx, i + 1, n);
  }
  if (st == CB_OK)
    st = cb_backend_end(r.b, err);
  else
    cb_backend_end(r.b, &(cb_error){0});
done:
  cb_backend_destroy(r.b);
  cb_arena_free(names);
  free(toc);
  free(command);
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

static cb_status run_one(const cb_job *job, cb_dungeon **keep, cb_error *err) {
  /* open the output first, so that a bad path fails before any work */
  cb_output *out = NULL;
  cb_status st = CB_OK;
  if (job->output && (st = cb_output_open(job->output, &out, err)) != CB_OK) return st;
  cb_dungeon *d = NULL;
  if (job->count > 1 && out) {
    st = write_book(job, out, err);
  } else {
    st = make_dungeon(job, &d, err);
    if (st == CB_OK && out) {
      switch (cb_format_row_of(job->format)->writer) {
      case CB_WRITER_JSON: st = write_json(d, out, err); break;
      case CB_WRITER_DOT: st = cb_dot_write(d, (cb_sink){out, cb_output_write}, err); break;
      case CB_WRITER_PAGES: st = write_pages(job, d, out, err); break;
      }
    }
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
    if (g && g->validate(&job->gen, err) != CB_OK) return err->status;
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
  if (!pattern) return run_one(job, job->count > 1 ? NULL : keep, err);
  /* one file per dungeon, every name checked before the first is written */
  int n = job->count > 1 ? job->count : 1;
  cb_status st = CB_OK;
  for (int i = 0; i < n && st == CB_OK; i++) {
    char name[4096];
    pattern_name(job->output, i + 1, name, sizeof name);
    st = cb_output_check(name, err);
  }
  for (int i = 0; i < n && st == CB_OK; i++) {
    char name[4096];
    cb_job sub = nth(job, i);
    pattern_name(job->output, i + 1, name, sizeof name);
    sub.output = name;
    st = run_one(&sub, NULL, err);
    if (job->progress) job->progress(job->progress_ctx, i + 1, n);
  }
  return st;
}
