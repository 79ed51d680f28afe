#include "crawlbook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/datadir.h"
#include "io/json.h"
#include "io/output.h"
#include "layout/player.h"
#include "layout/sheet.h"
#include "model/check.h"

#ifndef CB_VERSION
#define CB_VERSION "0.0.0"
#endif

static const double A4_W = 595.2756, A4_H = 841.8898, MARGIN_MM = 12;

const char *cb_version(void) { return CB_VERSION; }

static cb_status make_dungeon(const cb_job *job, cb_dungeon **out, cb_error *err) {
  if (job->input) return cb_json_read_file(job->input, out, err);
  const cb_generator *g = cb_generator_find(job->generator);
  if (!g)
    return cb_error_set(err, CB_EINPUT, "--generator %s: no such generator (cards, leximorph, preconnect, "
                                        "battleships or dropdice)", job->generator);
  cb_status st = g->generate(&job->gen, out, err);
  if (st != CB_OK) return st;
  if (job->gen.title && cb_dungeon_set_option(*out, "title", job->gen.title, false)) {
    cb_dungeon_free(*out);
    *out = NULL;
    return cb_error_set(err, CB_EINTERNAL, "out of memory");
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
  return cb_json_write(d, (cb_sink){out, cb_output_write}, err);
}

static cb_status write_pages(const cb_job *job, const cb_dungeon *d, cb_output *out, cb_error *err) {
  if (d->nrooms > CB_MAX_PAGE_ROOMS)
    return cb_error_set(err, CB_EINPUT, "%d rooms are too many for a printed page (at most %d); use --format json",
                        d->nrooms, CB_MAX_PAGE_ROOMS);
  const cb_backend_class *cls = cb_backend_find(job->backend ? job->backend : "cairo");
  if (!cls) return cb_error_set(err, CB_EINPUT, "--backend %s: not implemented yet", job->backend);
  const char *data = cb_datadir();
  if (!data) return cb_error_set(err, CB_EINTERNAL, "cannot find crawlbook's fonts (set CRAWLBOOK_DATADIR)");
  char fonts[4096];
  snprintf(fonts, sizeof fonts, "%s/fonts", data);
  cb_render_options ro = {job->format, job->dpi > 0 ? job->dpi : 150, fonts};
  cb_backend *b = NULL;
  cb_status st = cb_backend_create(cls, &ro, &b, err);
  if (st != CB_OK) return st;
  char creator[64];
  snprintf(creator, sizeof creator, "crawlbook %s", CB_VERSION);
  cb_document doc = {.title = d->title, .author = job->author, .subject = d->generator, .creator = creator,
                     .date = job->date};
  cb_sheet_options so = {job->page_w > 0 ? job->page_w : A4_W, job->page_h > 0 ? job->page_h : A4_H,
                         MARGIN_MM * CB_PT_PER_MM, CB_VERSION, job->player_map, job->page_args};
  cb_dungeon *view = job->player_map ? cb_player_view(d) : NULL;
  if (job->player_map && !view) st = cb_error_set(err, CB_EINTERNAL, "out of memory");
  else st = cb_sheet_layout(view ? view : d, cls->measure(b), &so, &doc, err);
  cb_dungeon_free(view);
  if (st == CB_OK) st = cb_backend_render(b, &doc, (cb_sink){out, cb_output_write}, err);
  cb_document_free(&doc);
  cb_backend_destroy(b);
  return st;
}

cb_status cb_job_run(const cb_job *job, cb_dungeon **keep, cb_error *err) {
  if (keep) *keep = NULL;
  if (!job->input) {
    const cb_generator *g = cb_generator_find(job->generator);
    if (g && g->validate(&job->gen, err) != CB_OK) return err->status;
  }
  if (job->format != CB_FORMAT_JSON && job->output && job->gen.rooms > CB_MAX_PAGE_ROOMS)
    return cb_error_set(err, CB_EINPUT, "--rooms %d: a printed page holds at most %d rooms; use --format json",
                        job->gen.rooms, CB_MAX_PAGE_ROOMS);
  /* open the output first, so that a bad path fails before any work */
  cb_output *out = NULL;
  cb_status st = CB_OK;
  if (job->output && (st = cb_output_open(job->output, &out, err)) != CB_OK) return st;
  cb_dungeon *d = NULL;
  st = make_dungeon(job, &d, err);
  if (st == CB_OK && out)
    st = job->format == CB_FORMAT_JSON ? write_json(d, out, err) : write_pages(job, d, out, err);
  if (out) {
    if (st == CB_OK) st = cb_output_commit(out, err);
    else cb_output_abort(out);
  }
  if (st == CB_OK && keep) *keep = d;
  else cb_dungeon_free(d);
  return st;
}
