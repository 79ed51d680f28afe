#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The date used when SOURCE_DATE_EPOCH is not set, so output stays
 * reproducible: 2000-01-01T00:00:00Z. */
#define CB_DEFAULT_DATE 946684800LL

enum { OPT_EXTRA_BY = 1000, OPT_TITLE, OPT_DPI, OPT_BACKEND, OPT_AUTHOR, OPT_LEVELS, OPT_FAITHFUL };

static const struct option long_opts[] = {
    {"generator", required_argument, NULL, 'g'}, {"seed", required_argument, NULL, 's'},
    {"rooms", required_argument, NULL, 'n'},     {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},    {"explain", no_argument, NULL, 'e'},
    {"extra-by", required_argument, NULL, OPT_EXTRA_BY}, {"title", required_argument, NULL, OPT_TITLE},
    {"dpi", required_argument, NULL, OPT_DPI},   {"backend", required_argument, NULL, OPT_BACKEND},
    {"author", required_argument, NULL, OPT_AUTHOR}, {"levels", required_argument, NULL, OPT_LEVELS},
    {"faithful", no_argument, NULL, OPT_FAITHFUL},   {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},         {NULL, 0, NULL, 0}};

void cb_cli_help(FILE *out) {
  fputs("Usage: crawlbook [options]\n"
        "       crawlbook render FILE.json [options]\n"
        "Make a dungeon with a paper-and-dice procedure and lay it out for print.\n"
        "\n"
        "  -g, --generator NAME  the procedure (default dropdice):\n"
        "                          dropdice     Jaquaysed drop-dice point-crawl (seed 004)\n"
        "                          cards, leximorph, preconnect, battleships: not implemented yet\n"
        "  -s, --seed N          the seed, 0 to 18446744073709551615 (default: a random\n"
        "                        seed, printed on standard error)\n"
        "  -n, --rooms N         rooms (dice) to place (default 10); 1 to 100000 for\n"
        "                        --format json, 1 to 200 for printed output (legible up to ~60)\n"
        "      --levels N        levels, for the generators that make several\n"
        "      --faithful        follow the seed's procedure exactly, without the repairs\n"
        "                        we add (re-rolls of dull deals, connecting lost rooms)\n"
        "      --extra-by HOW    dropdice: rank extra paths by 'tree' distance (default)\n"
        "                        or straight 'length'\n"
        "      --title TEXT      the dungeon's title (default: one drawn from the seed)\n"
        "  -o, --output FILE     write here (default dungeon.pdf; '-' for standard output);\n"
        "                        the extension picks the format: .pdf .svg .png .json\n"
        "  -f, --format FMT      pdf, svg, png or json, whatever the extension says\n"
        "      --dpi N           PNG resolution, 36 to 600 (default 150)\n"
        "      --backend NAME    cairo (default); haru is not implemented yet\n"
        "      --author TEXT     the PDF's author\n"
        "  -e, --explain         print the procedure, step by step, on standard output;\n"
        "                        with -o the file is written too, else nothing is\n"
        "  -h, --help            this text\n"
        "  -V, --version         crawlbook's version\n"
        "\n"
        "'render FILE.json' lays out a dungeon saved with --format json (edited by\n"
        "hand, say) instead of generating one.\n"
        "Output is reproducible: the same seed and options give the same bytes. Dates\n"
        "in PDFs come from SOURCE_DATE_EPOCH, or 2000-01-01 when it is not set.\n"
        "Exit status: 0 done, 1 internal failure, 2 bad input (nothing written).\n",
        out);
}

bool cb_cli_number(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out) {
  if (!s || *s < '0' || *s > '9') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

static const struct {
  const char *ext;
  cb_format format;
} formats[] = {{"pdf", CB_FORMAT_PDF}, {"svg", CB_FORMAT_SVG}, {"png", CB_FORMAT_PNG}, {"json", CB_FORMAT_JSON}};

static int format_of(const char *name) {
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    if (strcmp(formats[i].ext, name) == 0) return (int)formats[i].format;
  return -1;
}

static const char *format_name(cb_format f) {
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
    if (formats[i].format == f) return formats[i].ext;
  return "pdf";
}

static cb_status text_arg(const char *opt, const char *v, size_t max, cb_error *err) {
  if (strlen(v) > max) return cb_error_set(err, CB_EINPUT, "--%s: longer than %zu bytes", opt, max);
  return CB_OK;
}

cb_status cb_cli_parse(int argc, char **argv, const char *date_env, uint64_t random_seed, cb_cli *cli,
                       cb_error *err) {
  memset(cli, 0, sizeof *cli);
  cb_job *job = &cli->job;
  job->generator = "dropdice";
  job->backend = "cairo";
  job->dpi = 150;
  job->date = CB_DEFAULT_DATE;
  job->gen.extra_by = CB_EXTRA_BY_TREE;
  const char *format = NULL, *output = NULL;
  bool gen_opt = false;
  int gen_c = 0; /* the first generator option given, for render's message */
  unsigned long long v;
  opterr = 0;
  optind = 0; /* glibc: 0 resets getopt fully, so the parser can run again (tests, fuzzing) */
  int c;
  while ((c = getopt_long(argc, argv, ":g:s:n:o:f:ehV", long_opts, NULL)) != -1) {
    switch (c) {
    case 'g': job->generator = optarg, gen_opt = true; break;
    case 's':
      if (!cb_cli_number(optarg, 0, UINT64_MAX, &v))
        return cb_error_set(err, CB_EINPUT, "--seed '%s': expected a whole number from 0 to 18446744073709551615",
                            optarg);
      job->gen.seed = v;
      cli->seed_given = gen_opt = true;
      break;
    case 'n':
      if (!cb_cli_number(optarg, 1, 100000, &v))
        return cb_error_set(err, CB_EINPUT, "--rooms '%s': expected a whole number from 1 to 100000", optarg);
      job->gen.rooms = (int)v;
      gen_opt = true;
      break;
    case 'o': output = optarg; break;
    case 'f': format = optarg; break;
    case 'e': cli->explain = true; break;
    case OPT_EXTRA_BY:
      if (strcmp(optarg, "tree") == 0) job->gen.extra_by = CB_EXTRA_BY_TREE;
      else if (strcmp(optarg, "length") == 0) job->gen.extra_by = CB_EXTRA_BY_LENGTH;
      else return cb_error_set(err, CB_EINPUT, "--extra-by '%s': expected 'tree' or 'length'", optarg);
      gen_opt = true;
      break;
    case OPT_LEVELS:
      if (!cb_cli_number(optarg, 1, 1000, &v))
        return cb_error_set(err, CB_EINPUT, "--levels '%s': expected a whole number from 1 to 1000", optarg);
      job->gen.levels = (int)v;
      gen_opt = true;
      break;
    case OPT_FAITHFUL:
      job->gen.faithful = true;
      gen_opt = true;
      break;
    case OPT_TITLE:
      if (text_arg("title", optarg, 200, err)) return err->status;
      job->gen.title = optarg;
      gen_opt = true;
      break;
    case OPT_DPI:
      if (!cb_cli_number(optarg, 36, 600, &v))
        return cb_error_set(err, CB_EINPUT, "--dpi '%s': expected a whole number from 36 to 600", optarg);
      job->dpi = (double)v;
      break;
    case OPT_BACKEND:
      if (strcmp(optarg, "cairo") != 0) {
        if (strcmp(optarg, "haru") == 0) return cb_error_set(err, CB_EINPUT, "--backend haru: not implemented yet");
        return cb_error_set(err, CB_EINPUT, "--backend '%s': expected 'cairo'", optarg);
      }
      job->backend = optarg;
      break;
    case OPT_AUTHOR:
      if (text_arg("author", optarg, 200, err)) return err->status;
      job->author = optarg;
      break;
    case 'h': cli->help = true; return CB_OK;
    case 'V': cli->version = true; return CB_OK;
    case ':': return cb_error_set(err, CB_EINPUT, "%s needs a value (see --help)", argv[optind - 1]);
    default:
      /* glibc: optopt is 0 for an unknown long option, the option's value for one given a value it does not take */
      if (optopt && strncmp(argv[optind - 1], "--", 2) == 0)
        return cb_error_set(err, CB_EINPUT, "'%s': the option takes no value (see --help)", argv[optind - 1]);
      if (optopt > 0 && optopt < 128)
        return cb_error_set(err, CB_EINPUT, "unknown option '-%c' (see --help)", optopt);
      return cb_error_set(err, CB_EINPUT, "unknown option '%s' (see --help)", argv[optind - 1]);
    }
    if (gen_opt && !gen_c) gen_c = c;
  }
  int npos = argc - optind;
  if (npos > 0) {
    if (strcmp(argv[optind], "render") != 0)
      return cb_error_set(err, CB_EINPUT, "unexpected argument '%s' (see --help)", argv[optind]);
    if (npos != 2) return cb_error_set(err, CB_EINPUT, "render takes exactly one FILE.json");
    if (gen_opt) {
      const struct option *o = long_opts;
      while (o->name && o->val != gen_c) o++;
      return cb_error_set(err, CB_EINPUT, "render lays out a saved dungeon: --%s is a generator's option and does not "
                                          "apply", o->name ? o->name : "?");
    }
    job->input = argv[optind + 1];
  }
  if (!cli->seed_given) job->gen.seed = random_seed;

  if (format) {
    int f = format_of(format);
    if (f < 0) return cb_error_set(err, CB_EINPUT, "--format '%s': expected pdf, svg, png or json", format);
    job->format = (cb_format)f;
  } else if (output && strcmp(output, "-") != 0) {
    const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
    int f = dot && (!slash || dot > slash) ? format_of(dot + 1) : -1;
    if (f < 0)
      return cb_error_set(err, CB_EINPUT, "--output '%s': cannot tell the format from the extension; use "
                                          ".pdf, .svg, .png or .json, or give --format", output);
    job->format = (cb_format)f;
  } else if (output) {
    return cb_error_set(err, CB_EINPUT, "--output -: give --format too");
  }
  if (output) job->output = output;
  else if (!cli->explain) job->output = job->format == CB_FORMAT_JSON ? "dungeon.json" : "dungeon.pdf";
  (void)format_name;
  if (job->format == CB_FORMAT_JSON && strcmp(job->backend, "cairo") != 0)
    return cb_error_set(err, CB_EINPUT, "--backend does not apply to JSON");

  if (date_env && *date_env) {
    if (!cb_cli_number(date_env, 0, 253402300799ULL, &v))
      return cb_error_set(err, CB_EINPUT, "SOURCE_DATE_EPOCH '%s': expected seconds since 1970, up to year 9999",
                          date_env);
    job->date = (long long)v;
  }
  return CB_OK;
}
