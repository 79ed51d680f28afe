#include "options.h"

#include "base/text.h"
#include "common.h"
#include "page/page.h"
#include "page/sizes.h"
#include "registry/registry.h"
#include "run/batch.h"
#include "run/formats.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The date used when SOURCE_DATE_EPOCH is not set, so output stays
 * reproducible: 2000-01-01T00:00:00Z. */
#define CB_DEFAULT_DATE 946684800LL

enum {
  MAX_OPTIONS = 128, /* every option once */
  FIRST_LONG = 1000, /* getopt's value for the row k without a letter: FIRST_LONG + k */
  MAX_GIVEN = 64,    /* the options of some procedures only, checked once the procedure is known */
  HELP_COLUMN = 24,  /* where --help's text starts */
};

/* Every option once, with getopt's tables: the common rows, then each
 * procedure's own in registry order; a name that several procedures share
 * is read by the first one's row (tests/cli checks that they agree). */
typedef struct cli_table {
  const cb_option_spec *row[MAX_OPTIONS];
  bool common[MAX_OPTIONS];
  int n;
  struct option longs[MAX_OPTIONS + 1];
  char shorts[2 * MAX_OPTIONS + 2];
} cli_table;

/* What the loop over argv learnt besides the values. */
typedef struct cli_read {
  const cb_option_spec *first_gen; /* the first option describing a dungeon, for render's message */
  const cb_option_spec *given[MAX_GIVEN];
  const char *given_arg[MAX_GIVEN];
  int ngiven;
} cli_read;

static int table_find(const cli_table *t, const char *name) {
  for (int k = 0; k < t->n; k++)
    if (strcmp(t->row[k]->name, name) == 0) return k;
  return -1;
}

static void table_add(cli_table *t, const cb_option_spec *s, bool common) {
  if (t->n == MAX_OPTIONS || table_find(t, s->name) >= 0) return;
  bool value = s->kind != CB_OPT_FLAG;
  t->row[t->n] = s;
  t->common[t->n] = common;
  t->longs[t->n] = (struct option){s->name, value ? required_argument : no_argument, NULL,
                                   s->letter ? s->letter : FIRST_LONG + t->n};
  if (s->letter) {
    size_t len = strlen(t->shorts);
    t->shorts[len] = s->letter;
    if (value) t->shorts[len + 1] = ':';
  }
  t->n++;
}

static void table_build(cli_table *t) {
  memset(t, 0, sizeof *t);
  t->shorts[0] = ':'; /* ':' for a missing value, '?' for an unknown option */
  for (int k = 0; k < cb_cli_ncommon; k++)
    table_add(t, &cb_cli_common[k], true);
  int ng;
  const cb_generator *const *gens = cb_generator_list(&ng);
  for (int g = 0; g < ng; g++)
    for (int k = 0; gens[g]->options && k < gens[g]->options->n; k++)
      if (!(gens[g]->options->specs[k].flags & CB_OPTF_COMMON))
        table_add(t, &gens[g]->options->specs[k], false);
}

/* The row getopt_long answered c for, or -1. */
static int table_row(const cli_table *t, int c) {
  if (c >= FIRST_LONG) return c - FIRST_LONG < t->n ? c - FIRST_LONG : -1;
  for (int k = 0; k < t->n; k++)
    if (t->row[k]->letter == c) return k;
  return -1;
}

/* One row of --help: "  -s, --seed N" and its text from HELP_COLUMN. */
static void help_row(FILE *out, const cb_option_spec *s) {
  char head[96];
  int n = s->letter ? snprintf(head, sizeof head, "  -%c, --%s", s->letter, s->name)
                    : snprintf(head, sizeof head, "      --%s", s->name);
  if (s->arg) n += snprintf(head + n, sizeof head - (size_t)n, " %s", s->arg);
  fprintf(out, "%s%*s", head, n < HELP_COLUMN ? HELP_COLUMN - n : 1, "");
  for (const char *p = s->help; *p;) {
    size_t len = strcspn(p, "\n");
    fprintf(out, "%.*s\n", (int)len, p);
    p += len;
    if (*p) fprintf(out, "%*s", HELP_COLUMN, ""), p++;
  }
}

static void help_rows(FILE *out, const cb_option_set *set) {
  for (int k = 0; set && k < set->n; k++)
    if (set->specs[k].help) help_row(out, &set->specs[k]);
}

static int seed_of(const cb_generator *g) {
  return strcmp(g->name, CB_DEFAULT_GENERATOR) == 0 ? -1 : g->options ? g->options->seed : 1000;
}

/* The procedures, one a line: the default first, then by their seeds. */
static void help_procedures(FILE *out) {
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  const cb_generator *order[64];
  if (n > 64) n = 64;
  for (int i = 0; i < n; i++) {
    int j = i;
    for (; j > 0 && seed_of(order[j - 1]) > seed_of(gens[i]); j--)
      order[j] = order[j - 1];
    order[j] = gens[i];
  }
  for (int i = 0; i < n; i++)
    if (order[i]->options)
      fprintf(out, "%*s%-12s %s (seed %03d)\n", HELP_COLUMN + 2, "", order[i]->name, order[i]->options->about,
              order[i]->options->seed);
}

void cb_cli_help(FILE *out) {
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  fputs("Usage: crawlbook [options]\n"
        "       crawlbook render FILE.json [options]\n"
        "Make a dungeon with a paper-and-dice procedure and lay it out for print.\n"
        "\n",
        out);
  for (int k = 0; k < cb_cli_ncommon; k++) {
    const cb_option_spec *s = &cb_cli_common[k];
    if (s->help) help_row(out, s);
    if (s->flags & CB_OPTF_HELP_PROCEDURES) help_procedures(out);
    for (int g = 0; g < n && (s->flags & CB_OPTF_HELP_OWN_OPTIONS); g++)
      if (gens[g]->options && !gens[g]->options->heading) help_rows(out, gens[g]->options);
  }
  for (int g = 0; g < n; g++)
    if (gens[g]->options && gens[g]->options->heading) {
      fprintf(out, "\n%s\n", gens[g]->options->heading);
      help_rows(out, gens[g]->options);
    }
  fputs("\n"
        "'render FILE.json' lays out a dungeon saved with --format json (edited by\n"
        "hand, say) instead of generating one.\n"
        "Output is reproducible: the same seed and options give the same bytes. Dates\n"
        "in PDFs come from SOURCE_DATE_EPOCH, or 2000-01-01 when it is not set.\n"
        "Exit status: 0 done, 1 internal failure, 2 bad input (nothing written).\n",
        out);
}

bool cb_cli_page_size(const char *s, double *w, double *h) {
  if (cb_page_size_named(s, w, h)) return true;
  double a, b;
  char unit[4] = "", tail;
  if (sscanf(s, "%lfx%lf%3[a-z]%c", &a, &b, unit, &tail) != 3 || (s[0] < '0' || s[0] > '9')) return false;
  double k = strcmp(unit, "mm") == 0 ? 1 : strcmp(unit, "in") == 0 ? 25.4 : 0;
  a *= k, b *= k;
  if (!(a >= 90 && b >= 90 && a <= 1200 && b <= 1200)) return false;
  *w = a * CB_PT_PER_MM, *h = b * CB_PT_PER_MM;
  return true;
}

/* The procedures that take a procedure's option, those that describe it
 * first, their names one space apart. */
static void scope_of(const char *name, char *buf, size_t cap) {
  int n;
  size_t len = 0;
  const cb_generator *const *gens = cb_generator_list(&n);
  buf[0] = '\0';
  for (int described = 1; described >= 0; described--)
    for (int g = 0; g < n; g++) {
      const cb_option_spec *s = cb_option_find(gens[g]->options, name);
      if (s && (s->help != NULL) == described && len < cap)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "", gens[g]->name);
    }
}

/* The options of some procedures only, given to another; then the checks
 * the chosen procedure's rows make. */
static cb_status check_scope(const cb_cli *cli, const cli_read *rd, cb_error *err) {
  const cb_generator *g = cb_generator_find(cli->job.generator);
  const char *name = cli->job.generator;
  for (int i = 0; i < rd->ngiven; i++) {
    if (*name && g && cb_option_find(g->options, rd->given[i]->name)) continue;
    char scope[256];
    scope_of(rd->given[i]->name, scope, sizeof scope);
    const char *arg = rd->given_arg[i];
    return cb_error_set(err, CB_EINPUT, "--%s%s%s: not an option of %s (only of %s)", rd->given[i]->name,
                        arg ? " " : "", arg ? arg : "", name, scope);
  }
  for (int k = 0; g && g->options && k < g->options->n; k++)
    if (g->options->specs[k].check && g->options->specs[k].check(cli->own, err)) return err->status;
  return CB_OK;
}

/* One option from argv: noted when only some procedures take it, then read. */
static cb_status read_option(cb_cli *cli, const cli_table *t, int k, const char *arg, cli_read *rd,
                             cb_error *err) {
  const cb_option_spec *s = t->row[k];
  bool common = t->common[k];
  if ((!common || (s->flags & CB_OPTF_SCOPED)) && rd->ngiven < MAX_GIVEN)
    rd->given_arg[rd->ngiven] = arg, rd->given[rd->ngiven++] = s;
  if (cb_option_parse(s, arg, common ? (void *)cli : (void *)cli->scratch, err)) return err->status;
  if ((!common || (s->flags & CB_OPTF_GENERATOR)) && !rd->first_gen) rd->first_gen = s;
  return CB_OK;
}

/* What getopt_long refused. */
static cb_status refuse(char **argv, cb_error *err) {
  /* glibc: optopt is 0 for an unknown long option, the option's value for one given a value it does not take
   */
  if (optopt && strncmp(argv[optind - 1], "--", 2) == 0)
    return cb_error_set(err, CB_EINPUT, "'%s': the option takes no value (see --help)", argv[optind - 1]);
  if (optopt > 0 && optopt < 128)
    return cb_error_set(err, CB_EINPUT, "unknown option '-%c' (see --help)", optopt);
  return cb_error_set(err, CB_EINPUT, "unknown option '%s' (see --help)", argv[optind - 1]);
}

/* render FILE.json, and what does not go with it or with a batch. */
static cb_status read_operands(int argc, char **argv, cb_cli *cli, const cli_read *rd, cb_error *err) {
  cb_job *job = &cli->job;
  int npos = argc - optind;
  if (npos > 0) {
    if (strcmp(argv[optind], "render") != 0)
      return cb_error_set(err, CB_EINPUT, "unexpected argument '%s' (see --help)", argv[optind]);
    if (npos != 2) return cb_error_set(err, CB_EINPUT, "render takes exactly one FILE.json");
    if (rd->first_gen)
      return cb_error_set(err, CB_EINPUT,
                          "render lays out a saved dungeon: --%s is a generator's option and does not "
                          "apply",
                          rd->first_gen->name);
    job->input = argv[optind + 1];
  }
  if (cli->given.seeds && cli->given.count)
    return cb_error_set(err, CB_EINPUT, "--seeds A..B already says how many: drop --count");
  if (cli->given.seeds && cli->given.seed)
    return cb_error_set(err, CB_EINPUT, "--seeds A..B already says which seeds: drop --seed");
  if (job->count > 1 && job->input)
    return cb_error_set(err, CB_EINPUT,
                        "render lays out one saved dungeon: --count and --seeds do not apply");
  if (job->count > 1 && cli->explain)
    return cb_error_set(err, CB_EINPUT, "--explain tells one dungeon's story: not with --count or --seeds");
  return CB_OK;
}

/* The chosen procedure's own options: argv read again, each of its options
 * by its own row into its own record (all zero: its defaults). */
static cb_status settle_own(int argc, char **argv, cb_cli *cli, const cli_table *t, cb_error *err) {
  const cb_generator *g = cb_generator_find(cli->job.generator);
  memset(cli->own, 0, sizeof cli->own);
  cli->job.gen.own = cli->own;
  if (!g || !g->options) return CB_OK;
  int c, optind_was = optind;
  optind = 0;
  while ((c = getopt_long(argc, argv, t->shorts, t->longs, NULL)) != -1) {
    int k = table_row(t, c);
    const cb_option_spec *s = k >= 0 && !t->common[k] ? cb_option_find(g->options, t->row[k]->name) : NULL;
    if (s && !(s->flags & CB_OPTF_COMMON) && cb_option_parse(s, optarg, cli->own, err)) return err->status;
  }
  optind = optind_was;
  return CB_OK;
}

/* The seed when none is given, and a batch that would run past the largest. */
static cb_status settle_seed(cb_cli *cli, uint64_t random_seed, cb_error *err) {
  cb_job *job = &cli->job;
  if (!cli->seed_given) job->gen.seed = random_seed;
  if (job->count > 1 && job->gen.seed > UINT64_MAX - (uint64_t)(job->count - 1)) {
    /* a batch's seeds run S, S+1, ...: they may not wrap past the largest */
    if (cli->seed_given)
      return cb_error_set(err, CB_EINPUT, "--seed %" PRIu64 " --count %d: the seeds would run past %" PRIu64,
                          job->gen.seed, job->count, UINT64_MAX);
    job->gen.seed -= (uint64_t)job->count;
  }
  return CB_OK;
}

/* The page and tables: the template first, then what the command line says. */
void cb_cli_table_keys(const char **keys, int cap) {
  int n = 0, ng;
  const cb_generator *const *gens = cb_generator_list(&ng);
  for (int g = 0; g < ng; g++)
    for (int i = 0; gens[g]->options && i < gens[g]->options->n && n + 1 < cap; i++)
      if (gens[g]->options->specs[i].table) keys[n++] = gens[g]->options->specs[i].table;
  keys[n] = NULL;
}

/* A template's tables stand in for the procedure's table options not given. */
static void use_template_tables(cb_cli *cli) {
  cb_job *job = &cli->job;
  const cb_generator *g = cb_generator_find(job->generator);
  for (int t = 0; g && g->options && t < job->tpl.ntables; t++)
    for (int i = 0; i < g->options->n; i++) {
      const cb_option_spec *s = &g->options->specs[i];
      const char **field = (const char **)(void *)(cli->own + s->field);
      if (s->table && strcmp(s->table, job->tpl.tables[t].key) == 0 && !*field)
        *field = job->tpl.tables[t].value;
    }
}

static cb_status settle_page(cb_cli *cli, cb_error *err) {
  cb_job *job = &cli->job;
  const char *page_size = cli->given.page_size, *style = cli->given.style,
             *template_name = cli->given.template_name;
  bool landscape = cli->given.landscape;
  if (!page_size) job->page_w = job->tpl.page_w, job->page_h = job->tpl.page_h;
  use_template_tables(cli);
  if (!style) job->colour = job->tpl.colour;
  if (page_size || landscape || style || template_name || job->appendix || job->impose_saddle) {
    size_t n = 0, cap = sizeof cli->page_args;
    if (template_name)
      n = cb_shell_word(cli->page_args, cap, (size_t)snprintf(cli->page_args, cap, " --template "),
                        template_name);
    snprintf(cli->page_args + (n < cap ? n : cap - 1), n < cap ? cap - n : 1, "%s%s%s%s%s%s",
             page_size ? " --page-size " : "", page_size ? page_size : "", landscape ? " --landscape" : "",
             style ? (job->colour ? " --style colour" : " --style ink") : "",
             job->appendix ? " --appendix" : "", job->impose_saddle ? " --impose saddle" : "");
    job->page_args = cli->page_args + 1;
  }
  landscape = landscape || job->tpl.landscape;
  if (landscape) {
    if (job->page_w <= 0) cb_cli_page_size("a4", &job->page_w, &job->page_h);
    if (job->page_w < job->page_h) {
      double t = job->page_w;
      job->page_w = job->page_h, job->page_h = t;
    }
  }
  /* the page may come from the command line and the margins from the template */
  return cb_template_check_room(&job->tpl, job->page_w > 0 ? job->page_w : 210 * CB_PT_PER_MM,
                                job->page_h > 0 ? job->page_h : 297 * CB_PT_PER_MM, err);
}

static cb_status settle_writer(const cb_job *job, cb_error *err);

/* The format, from --format or the extension, and what does not go with it. */
static cb_status settle_format(cb_cli *cli, cb_error *err) {
  cb_job *job = &cli->job;
  const char *format = cli->given.format, *output = cli->given.output;
  if (format) {
    const cb_format_row *f = cb_format_named(format);
    char names[128];
    if (!f)
      return cb_error_set(err, CB_EINPUT, "--format '%s': expected %s", format,
                          cb_format_names(names, sizeof names, "", " or "));
    job->format = f->format;
  } else if (output && strcmp(output, "-") != 0) {
    const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
    const cb_format_row *f = dot && (!slash || dot > slash) ? cb_format_named(dot + 1) : NULL;
    char names[128];
    if (!f)
      return cb_error_set(
          err, CB_EINPUT,
          "--output '%s': cannot tell the format from the extension; use %s, or give --format", output,
          cb_format_names(names, sizeof names, ".", " or "));
    job->format = f->format;
  } else if (output) {
    return cb_error_set(err, CB_EINPUT, "--output -: give --format too");
  }
  if (output)
    job->output = output;
  else if (!cli->explain)
    job->output = job->format == CB_FORMAT_JSON ? "dungeon.json" : "dungeon.pdf";
  if (job->impose_saddle && job->tpl.layout == CB_LAYOUT_ZINE8)
    return cb_error_set(err, CB_EINPUT, "--impose saddle: the zine8 template is imposed already");
  return settle_writer(job, err);
}

/* What writes the format: the player's map and a backend only for pages,
 * and only a backend whose own table lists the format. */
static cb_status settle_writer(const cb_job *job, cb_error *err) {
  const cb_format_row *f = cb_format_row_of(job->format);
  char labels[64];
  unsigned pages = 0;
  for (int k = CB_FORMAT_PDF; k <= CB_FORMAT_DOT; k++)
    if (cb_format_row_of((cb_format)k)->writer == CB_WRITER_PAGES) pages |= 1u << k;
  if (job->player_map && f->writer != CB_WRITER_PAGES)
    return cb_error_set(err, CB_EINPUT, "--player-map is a printed handout: use %s",
                        cb_format_labels(labels, sizeof labels, pages));
  const cb_backend_class *b = cb_backend_find(job->backend);
  if (b && f->writer == CB_WRITER_PAGES && !(b->formats & (1u << job->format)))
    return cb_error_set(err, CB_EINPUT, "--backend %s writes %s only", b->name,
                        cb_format_labels(labels, sizeof labels, b->formats));
  return CB_OK;
}

static cb_status settle_date(cb_job *job, const char *date_env, cb_error *err) {
  unsigned long long v;
  if (!date_env || !*date_env) return CB_OK;
  if (!cb_option_whole_number(date_env, 0, 253402300799ULL, &v))
    return cb_error_set(err, CB_EINPUT,
                        "SOURCE_DATE_EPOCH '%s': expected seconds since 1970, up to year 9999", date_env);
  job->date = (long long)v;
  return CB_OK;
}

cb_status cb_cli_parse(int argc, char **argv, const char *date_env, uint64_t random_seed, cb_cli *cli,
                       cb_error *err) {
  memset(cli, 0, sizeof *cli);
  cb_job *job = &cli->job;
  job->generator = CB_DEFAULT_GENERATOR;
  job->backend = "cairo";
  job->dpi = 150;
  job->date = CB_DEFAULT_DATE;
  job->jobs = cb_batch_cores();
  cb_template_default(&job->tpl);
  cli_table t;
  table_build(&t);
  cli_read rd = {0};
  opterr = 0;
  optind = 0; /* glibc: 0 resets getopt fully, so the parser can run again (tests, fuzzing) */
  int c;
  while ((c = getopt_long(argc, argv, t.shorts, t.longs, NULL)) != -1) {
    if (c == ':') return cb_error_set(err, CB_EINPUT, "%s needs a value (see --help)", argv[optind - 1]);
    int k = table_row(&t, c);
    if (k < 0) return refuse(argv, err);
    if (read_option(cli, &t, k, optarg, &rd, err)) return err->status;
    if (cli->help || cli->version) return CB_OK;
  }
  if (read_operands(argc, argv, cli, &rd, err) || settle_own(argc, argv, cli, &t, err) ||
      settle_seed(cli, random_seed, err) || settle_page(cli, err) || check_scope(cli, &rd, err) ||
      settle_format(cli, err) || settle_date(job, date_env, err))
    return err->status;
  return CB_OK;
}
