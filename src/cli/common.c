#include "common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/recorded.h"
#include "options.h"
#include "registry/registry.h"
#include "run/batch.h"

#define CLI(member) offsetof(cb_cli, member)

static cb_status parse_seed(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_cli *cli = opts;
  unsigned long long v;
  if (cb_option_number(s, arg, &v, err)) return err->status;
  cli->job.gen.seed = v;
  cli->seed_given = cli->given.seed = true;
  return CB_OK;
}

static cb_status parse_dpi(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  unsigned long long v;
  if (cb_option_number(s, arg, &v, err)) return err->status;
  ((cb_cli *)opts)->job.dpi = (double)v;
  return CB_OK;
}

static cb_status parse_backend(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  (void)s;
  char names[128];
  if (!cb_backend_find(arg))
    return cb_error_set(err, CB_EINPUT, "--backend '%s': expected %s", arg,
                        cb_backend_names(names, sizeof names));
  ((cb_cli *)opts)->job.backend = arg;
  return CB_OK;
}

static cb_status parse_page_size(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_cli *cli = opts;
  (void)s;
  cli->given.page_size = arg;
  if (strlen(arg) > 40 || !cb_cli_page_size(arg, &cli->job.page_w, &cli->job.page_h))
    return cb_error_set(err, CB_EINPUT,
                        "--page-size '%s': expected a4, letter, a5, half-letter or WxH in mm or in "
                        "(90 to 1200 mm a side), e.g. 148x210mm",
                        arg);
  return CB_OK;
}

static cb_status parse_style(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_cli *cli = opts;
  (void)s;
  if (strcmp(arg, "ink") != 0 && strcmp(arg, "colour") != 0 && strcmp(arg, "color") != 0)
    return cb_error_set(err, CB_EINPUT, "--style '%s': expected ink or colour", arg);
  cli->job.colour = arg[0] == 'c';
  cli->given.style = arg;
  return CB_OK;
}

static cb_status parse_template(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_cli *cli = opts;
  if (cb_option_text(s->name, arg, 1000, err)) return err->status;
  const char *keys[CB_TEMPLATE_MAX_TABLES + 1];
  cb_cli_table_keys(keys, CB_TEMPLATE_MAX_TABLES + 1);
  if (cb_template_load(arg, keys, &cli->job.tpl, err) != CB_OK) return err->status;
  cli->given.template_name = arg;
  return CB_OK;
}

static cb_status parse_impose(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  (void)s;
  if (strcmp(arg, "saddle") != 0) return cb_error_set(err, CB_EINPUT, "--impose '%s': expected saddle", arg);
  ((cb_cli *)opts)->job.impose_saddle = true;
  return CB_OK;
}

static cb_status parse_seeds(const cb_option_spec *s, const char *arg, void *opts, cb_error *err) {
  cb_cli *cli = opts;
  const char *dots = strstr(arg, "..");
  char first[32] = "";
  unsigned long long a = 0, b = 0;
  (void)s;
  if (dots && (size_t)(dots - arg) < sizeof first) memcpy(first, arg, (size_t)(dots - arg));
  if (!dots || !cb_option_whole_number(first, 0, UINT64_MAX, &a) ||
      !cb_option_whole_number(dots + 2, 0, UINT64_MAX, &b) || b < a || b - a >= CB_MAX_BATCH)
    return cb_error_set(err, CB_EINPUT,
                        "--seeds '%s': expected A..B with A <= B and at most %d seeds, e.g. 1..20", arg,
                        CB_MAX_BATCH);
  cli->job.gen.seed = a;
  cli->job.count = (int)(b - a + 1);
  cli->given.seeds = cli->seed_given = true;
  return CB_OK;
}

/* An option every dungeon records: its name, kind and recording from its
 * row in model/recorded.h. */
#define RECORDED_(id, name_, kind_, when) .name = name_, .kind = CB_OPT_##kind_, .record = CB_REC_##when
#define RECORDED(id) CB_RECORDED_ROW_##id(RECORDED_)

/* A flag of cb_cli or the job. */
#define FLAG(opt, member, text)                                                                              \
  { .name = opt, .kind = CB_OPT_FLAG, .set = true, .field = CLI(member), .help = text }

const cb_option_spec cb_cli_common[] = {
    {.name = "generator",
     .letter = 'g',
     .arg = "NAME",
     .kind = CB_OPT_TEXT,
     .flags = CB_OPTF_GENERATOR | CB_OPTF_HELP_PROCEDURES,
     .field = CLI(job.generator),
     .help = "the procedure (default " CB_DEFAULT_GENERATOR "):"},
    {.name = "seed",
     .letter = 's',
     .arg = "N",
     .kind = CB_OPT_CUSTOM,
     .flags = CB_OPTF_GENERATOR,
     .lo = 0,
     .hi = UINT64_MAX,
     .parse = parse_seed,
     .help = "the seed, 0 to 18446744073709551615 (default: a random\n"
             "seed, printed on standard error)"},
    {.name = "rooms",
     .letter = 'n',
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .flags = CB_OPTF_GENERATOR,
     .lo = 1,
     .hi = 100000,
     .field = CLI(job.gen.rooms),
     .help = "rooms to make (default: the procedure's, as listed above);\n"
             "1 to 100000 for --format json, 1 to 200 for printed\n"
             "output (legible up to ~60)"},
    {.name = "levels",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .flags = CB_OPTF_GENERATOR | CB_OPTF_SCOPED,
     .lo = 1,
     .hi = 1000,
     .field = CLI(job.gen.levels),
     .help = "levels, 1 to 1000, for the procedures that make several\n"
             "(default: the procedure's, as listed above)"},
    {RECORDED(THEME), .arg = "NAME|FILE", .flags = CB_OPTF_GENERATOR, .hi = 4000,
     .field = CLI(job.stock.theme),
     .help = "the words the rooms are stocked with: crypt, caverns,\n"
             "ruined-temple, mine, wizards-tower, bandit-lair,\n"
             "drowned-shrine, or a theme file of your own\n"
             "(default: the seed picks one)"},
    {RECORDED(DEPTH), .arg = "D", .flags = CB_OPTF_GENERATOR, .lo = 1, .hi = 10,
     .field = CLI(job.stock.depth),
     .help = "how deep the dungeon lies, 1..10: monsters and treasure\n"
             "grow with it (default 1)"},
    {RECORDED(LOCKS), .arg = "N", .flags = CB_OPTF_GENERATOR, .lo = 0, .hi = 8, .field = CLI(job.stock.locks),
     .seen = CLI(job.stock.locks_set),
     .help = "add N nested lock-and-key pairs on the way to the goal,\n"
             "0..8 (default 1 with 8 rooms or more and no lock; 0\n"
             "with --faithful)"},
    {.name = "faithful",
     .kind = CB_OPT_FLAG,
     .flags = CB_OPTF_GENERATOR | CB_OPTF_HELP_OWN_OPTIONS,
     .set = true,
     .field = CLI(job.gen.faithful),
     .help = "follow the seed's procedure exactly, without the repairs\n"
             "we add (re-rolls of dull deals, connecting lost rooms)"},
    {RECORDED(TITLE), .arg = "TEXT", .flags = CB_OPTF_GENERATOR, .hi = CB_TEXT_NAME,
     .field = CLI(job.gen.title), .help = "the dungeon's title (default: one drawn from the seed)"},
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .kind = CB_OPT_TEXT,
     .field = CLI(given.output),
     .help = "write here (default dungeon.pdf; '-' for standard output);\n"
             "the extension picks the format: .pdf .svg .png .json"},
    {.name = "format",
     .letter = 'f',
     .arg = "FMT",
     .kind = CB_OPT_TEXT,
     .field = CLI(given.format),
     .help = "pdf, svg, png, json or dot (Graphviz), whatever the\n"
             "extension says"},
    {.name = "dpi",
     .arg = "N",
     .kind = CB_OPT_CUSTOM,
     .lo = 36,
     .hi = 600,
     .parse = parse_dpi,
     .help = "PNG resolution, 36 to 600 (default 150)"},
    {.name = "backend",
     .arg = "NAME",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_backend,
     .help = "cairo (default: PDF, SVG, PNG) or haru (libharu: PDF only,\n"
             "faster a page in long batches, no kerning)"},
    {.name = "author",
     .arg = "TEXT",
     .kind = CB_OPT_TEXT,
     .hi = 200,
     .field = CLI(job.author),
     .help = "the PDF's author"},
    {.name = "page-size",
     .arg = "SIZE",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_page_size,
     .help = "a4 (default), letter, a5, half-letter, or WxH in mm or in,\n"
             "e.g. 148x210mm or 6x9in (90 to 1200 mm a side)"},
    FLAG("landscape", given.landscape, "turn the page"),
    {.name = "style",
     .arg = "STYLE",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_style,
     .help = "ink (default: black on white) or colour"},
    {.name = "template",
     .arg = "NAME",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_template,
     .help = "a page template: one-page (default), booklet, zine8, colour, or\n"
             "a .cfg file of your own (see templates/)"},
    FLAG("appendix", job.appendix, "add the procedure, step by step, as pages at the end"),
    {.name = "impose",
     .arg = "saddle",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_impose,
     .help = "print the pages 2-up on sheets twice as wide, in folding\n"
             "order, so that the printed stack folds into the booklet"},
    {.name = "count",
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .lo = 1,
     .hi = CB_MAX_BATCH,
     .field = CLI(job.count),
     .seen = CLI(given.count),
     .help = "N dungeons (seeds S, S+1, ...): one PDF with a contents\n"
             "cover and a bookmark each, or one file each when -o is a\n"
             "pattern such as 'dungeon-%03d.pdf' (1 to 10000)"},
    {.name = "seeds",
     .arg = "A..B",
     .kind = CB_OPT_CUSTOM,
     .parse = parse_seeds,
     .help = "the dungeons of seeds A to B, the same way"},
    {.name = "jobs",
     .letter = 'j',
     .arg = "N",
     .kind = CB_OPT_NUMBER,
     .lo = 1,
     .hi = CB_MAX_JOBS,
     .field = CLI(job.jobs),
     .help = "make a batch's dungeons N at a time, 1 to 64 (default: one\n"
             "for each processor crawlbook may use); the files are the\n"
             "same whatever N"},
    FLAG("player-map", job.player_map,
         "the players' handout: the map without secrets, traps,\n"
         "keys or contents, and a notes grid instead of the key"),
    {.name = "explain",
     .letter = 'e',
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = CLI(explain),
     .help = "print the procedure, step by step, on standard output;\n"
             "with -o the file is written too, else nothing is"},
    {.name = "help",
     .letter = 'h',
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = CLI(help),
     .help = "this text"},
    {.name = "version",
     .letter = 'V',
     .kind = CB_OPT_FLAG,
     .set = true,
     .field = CLI(version),
     .help = "crawlbook's version"},
};

const int cb_cli_ncommon = (int)(sizeof cb_cli_common / sizeof *cb_cli_common);
