#include "options.h"

#include "base/text.h"
#include "page/page.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The date used when SOURCE_DATE_EPOCH is not set, so output stays
 * reproducible: 2000-01-01T00:00:00Z. */
#define CB_DEFAULT_DATE 946684800LL

/* One option per line below, so that generators add theirs without touching
 * anyone else's line. */
enum {
  OPT_EXTRA_BY = 1000,
  OPT_TITLE,
  OPT_DPI,
  OPT_BACKEND,
  OPT_AUTHOR,
  OPT_LEVELS,
  OPT_FAITHFUL,
  OPT_PLAYER_MAP,
  OPT_GRID,
  OPT_EXTRA,
  OPT_EXTRA_STAIRS,
  OPT_SECRET_ROWS,
  OPT_MATCHING_STAIRS,
  OPT_FLEET,
  OPT_SHAPE,
  OPT_ENTRANCE,
  OPT_DECKS,
  OPT_JOKERS,
  OPT_SPRAWL,
  OPT_REDISCOVERED,
  OPT_DOUBLES,
  OPT_NO_DOUBLES,
  OPT_MIN_ROOMS,
  OPT_CONTENT,
  OPT_LENGTHS,
  OPT_LENGTH_UNIT,
  OPT_SECTORS,
  OPT_SECTOR_FT,
  OPT_ROTATE,
  OPT_NO_ROTATE,
  OPT_LETTERS,
  OPT_JUNCTIONS,
  OPT_WALLS,
  OPT_DOORS,
  OPT_PAGE_SIZE,
  OPT_LANDSCAPE,
  OPT_LADDERS,
  OPT_COUNT,
  OPT_SEEDS,
  OPT_STYLE,
  OPT_TEMPLATE,
  OPT_APPENDIX,
  OPT_IMPOSE,
  OPT_THEME,
  OPT_DEPTH,
  OPT_LOCKS,
};

static const struct option long_opts[] = {{"generator", required_argument, NULL, 'g'},
                                          {"seed", required_argument, NULL, 's'},
                                          {"rooms", required_argument, NULL, 'n'},
                                          {"output", required_argument, NULL, 'o'},
                                          {"format", required_argument, NULL, 'f'},
                                          {"explain", no_argument, NULL, 'e'},
                                          {"extra-by", required_argument, NULL, OPT_EXTRA_BY},
                                          {"title", required_argument, NULL, OPT_TITLE},
                                          {"dpi", required_argument, NULL, OPT_DPI},
                                          {"backend", required_argument, NULL, OPT_BACKEND},
                                          {"author", required_argument, NULL, OPT_AUTHOR},
                                          {"levels", required_argument, NULL, OPT_LEVELS},
                                          {"faithful", no_argument, NULL, OPT_FAITHFUL},
                                          {"theme", required_argument, NULL, OPT_THEME},
                                          {"depth", required_argument, NULL, OPT_DEPTH},
                                          {"locks", required_argument, NULL, OPT_LOCKS},
                                          {"player-map", no_argument, NULL, OPT_PLAYER_MAP},
                                          {"help", no_argument, NULL, 'h'},
                                          {"grid", required_argument, NULL, OPT_GRID},
                                          {"extra", required_argument, NULL, OPT_EXTRA},
                                          {"extra-stairs", required_argument, NULL, OPT_EXTRA_STAIRS},
                                          {"secret-rows", no_argument, NULL, OPT_SECRET_ROWS},
                                          {"matching-stairs", no_argument, NULL, OPT_MATCHING_STAIRS},
                                          {"fleet", required_argument, NULL, OPT_FLEET},
                                          {"shape", required_argument, NULL, OPT_SHAPE},
                                          {"entrance", required_argument, NULL, OPT_ENTRANCE},
                                          {"decks", required_argument, NULL, OPT_DECKS},
                                          {"jokers", no_argument, NULL, OPT_JOKERS},
                                          {"sprawl", no_argument, NULL, OPT_SPRAWL},
                                          {"rediscovered", required_argument, NULL, OPT_REDISCOVERED},
                                          {"doubles-obstructed", no_argument, NULL, OPT_DOUBLES},
                                          {"no-doubles-obstructed", no_argument, NULL, OPT_NO_DOUBLES},
                                          {"min-rooms", required_argument, NULL, OPT_MIN_ROOMS},
                                          {"content", required_argument, NULL, OPT_CONTENT},
                                          {"lengths", no_argument, NULL, OPT_LENGTHS},
                                          {"length-unit", required_argument, NULL, OPT_LENGTH_UNIT},
                                          {"sectors", required_argument, NULL, OPT_SECTORS},
                                          {"sector-ft", required_argument, NULL, OPT_SECTOR_FT},
                                          {"rotate", no_argument, NULL, OPT_ROTATE},
                                          {"no-rotate", no_argument, NULL, OPT_NO_ROTATE},
                                          {"letters", required_argument, NULL, OPT_LETTERS},
                                          {"junctions", required_argument, NULL, OPT_JUNCTIONS},
                                          {"walls", required_argument, NULL, OPT_WALLS},
                                          {"doors", required_argument, NULL, OPT_DOORS},
                                          {"page-size", required_argument, NULL, OPT_PAGE_SIZE},
                                          {"landscape", no_argument, NULL, OPT_LANDSCAPE},
                                          {"ladders", no_argument, NULL, OPT_LADDERS},
                                          {"count", required_argument, NULL, OPT_COUNT},
                                          {"seeds", required_argument, NULL, OPT_SEEDS},
                                          {"style", required_argument, NULL, OPT_STYLE},
                                          {"template", required_argument, NULL, OPT_TEMPLATE},
                                          {"appendix", no_argument, NULL, OPT_APPENDIX},
                                          {"impose", required_argument, NULL, OPT_IMPOSE},
                                          {"version", no_argument, NULL, 'V'},
                                          {NULL, 0, NULL, 0}};

void cb_cli_help(FILE *out) {
  fputs("Usage: crawlbook [options]\n"
        "       crawlbook render FILE.json [options]\n"
        "Make a dungeon with a paper-and-dice procedure and lay it out for print.\n"
        "\n"
        "  -g, --generator NAME  the procedure (default dropdice):\n"
        "                          dropdice     Jaquaysed drop-dice point-crawl (seed 004)\n"
        "                          cards        Cardtography: a deck dealt on a grid (seed 000)\n"
        "                          leximorph    pre-loading tunnel templates (seed 001)\n"
        "                          preconnect   pre-connecting, SubMethod I (seed 002)\n"
        "                          battleships  BattleDungeon grid-crawl (seed 003)\n"
        "  -s, --seed N          the seed, 0 to 18446744073709551615 (default: a random\n"
        "                        seed, printed on standard error)\n"
        "  -n, --rooms N         rooms to make (dropdice default 10, preconnect 12 and at\n"
        "                        most 500); 1 to 100000 for --format json, 1 to 200 for\n"
        "                        printed output (legible up to ~60)\n"
        "      --levels N        levels, for the generators that make several\n"
        "                        (battleships: default 2, up to 1000)\n"
        "      --theme NAME|FILE the words the rooms are stocked with: crypt, caverns,\n"
        "                        ruined-temple, mine, wizards-tower, bandit-lair,\n"
        "                        drowned-shrine, or a theme file of your own\n"
        "                        (default: the seed picks one)\n"
        "      --depth D         how deep the dungeon lies, 1..10: monsters and treasure\n"
        "                        grow with it (default 1)\n"
        "      --locks N         add N nested lock-and-key pairs on the way to the goal,\n"
        "                        0..8 (default 1 with 8 rooms or more and no lock; 0\n"
        "                        with --faithful)\n"
        "      --faithful        follow the seed's procedure exactly, without the repairs\n"
        "                        we add (re-rolls of dull deals, connecting lost rooms)\n"
        "      --extra-by HOW    dropdice: rank extra paths by 'tree' distance (default)\n"
        "                        or straight 'length'\n"
        "      --grid N          battleships: rooms per level, an N x N grid, 2 to 100\n"
        "                        (default 10)\n"
        "      --fleet LIST      battleships: ship lengths, e.g. 5,4,3,3,2 (default: the\n"
        "                        classic fleet scaled to the grid)\n"
        "      --extra K         battleships: extra white pegs per grid (default 3)\n"
        "      --secret-rows     battleships: the pegs added for rows are secret passages\n"
        "      --matching-stairs battleships: stairs join room k to room k of the next level\n"
        "      --extra-stairs K  battleships: K more stairs between each pair of levels\n"
        "      --sectors CxR     leximorph: columns x rows of sectors, 1x1 to 12x12\n"
        "                        (default 2x2)\n"
        "      --sector-ft N     leximorph: a sector's side in feet, 120 to 1200\n"
        "                        (default 240)\n"
        "      --rotate          leximorph: roll a d4 to turn each letter (default)\n"
        "      --no-rotate       leximorph: keep every letter upright\n"
        "      --letters FILE    leximorph: the d10 letter table (default\n"
        "                        templates/leximorph-letters.txt, which explains strokes)\n"
        "      --junctions FILE  leximorph: the d6 junction table (leximorph-junctions)\n"
        "      --walls FILE      leximorph: the d8 wall table (leximorph-walls)\n"
        "      --doors FILE      leximorph: the d20 table of what lies beyond a door\n"
        "                        (leximorph-doors)\n"
        "      --ladders         preconnect: a corridor crossing under or over another\n"
        "                        area on an odd roll has ladders, not stairs\n"
        "      --title TEXT      the dungeon's title (default: one drawn from the seed)\n"
        "  -o, --output FILE     write here (default dungeon.pdf; '-' for standard output);\n"
        "                        the extension picks the format: .pdf .svg .png .json\n"
        "  -f, --format FMT      pdf, svg, png, json or dot (Graphviz), whatever the\n"
        "                        extension says\n"
        "      --dpi N           PNG resolution, 36 to 600 (default 150)\n"
        "      --backend NAME    cairo (default: PDF, SVG, PNG) or haru (libharu: PDF only,\n"
        "                        faster a page in long batches, no kerning)\n"
        "      --author TEXT     the PDF's author\n"
        "      --page-size SIZE  a4 (default), letter, a5, half-letter, or WxH in mm or in,\n"
        "                        e.g. 148x210mm or 6x9in (90 to 1200 mm a side)\n"
        "      --landscape       turn the page\n"
        "      --style STYLE     ink (default: black on white) or colour\n"
        "      --template NAME   a page template: one-page (default), booklet, zine8, colour, or\n"
        "                        a .cfg file of your own (see templates/)\n"
        "      --appendix        add the procedure, step by step, as pages at the end\n"
        "      --impose saddle   print the pages 2-up on sheets twice as wide, in folding\n"
        "                        order, so that the printed stack folds into the booklet\n"
        "      --count N         N dungeons (seeds S, S+1, ...): one PDF with a contents\n"
        "                        cover and a bookmark each, or one file each when -o is a\n"
        "                        pattern such as 'dungeon-%03d.pdf' (1 to 10000)\n"
        "      --seeds A..B      the dungeons of seeds A to B, the same way\n"
        "      --player-map      the players' handout: the map without secrets, traps,\n"
        "                        keys or contents, and a notes grid instead of the key\n"
        "  -e, --explain         print the procedure, step by step, on standard output;\n"
        "                        with -o the file is written too, else nothing is\n"
        "  -h, --help            this text\n"
        "  -V, --version         crawlbook's version\n"
        "\n"
        "cards (Cardtography) options:\n"
        "      --grid WxH        the grid of cards dealt face down (default 5x5)\n"
        "      --shape SHAPE     rect (default), oval, or a mask file of '#' (card) and '.'\n"
        "                        rows, e.g. templates/mask-cross.txt (or mask-cross)\n"
        "      --entrance WHERE  bottom (centre, default), top, centre, or a cell C,R\n"
        "      --decks N         decks shuffled together, 1 to 2000 (default 1)\n"
        "      --jokers          add the jokers: boss rooms\n"
        "      --sprawl          deal cards only as the dice call for them, on an\n"
        "                        unbounded grid, up to --rooms per level (default 25)\n"
        "      --rediscovered HOW a die into an explored card with no door to this one:\n"
        "                        door (default), ignore, one-way or concealed\n"
        "      --no-doubles-obstructed  doubles make plain doors (default: trapped,\n"
        "                        locked, jammed or obstructed, rolled)\n"
        "      --min-rooms N     deal again when a level keeps fewer cards (default 5)\n"
        "      --content FILE    the table of what each card holds (default\n"
        "                        templates/cards-contents.txt); dropdice: what each room\n"
        "                        holds by its tags (templates/dropdice-contents.txt)\n"
        "      --lengths         roll a die for each connection's length\n"
        "      --length-unit FT  feet per pip of that die (default 10)\n"
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
} formats[] = {{"pdf", CB_FORMAT_PDF},
               {"svg", CB_FORMAT_SVG},
               {"png", CB_FORMAT_PNG},
               {"json", CB_FORMAT_JSON},
               {"dot", CB_FORMAT_DOT}};

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

/* The options that belong to some generators only, and which (space-separated). */
static const struct {
  int opt;
  const char *generators;
} scoped[] = {
    {OPT_EXTRA_BY, "dropdice"},
    {OPT_LEVELS, "cards battleships"},
    {OPT_FAITHFUL, "dropdice cards battleships leximorph preconnect"},
    {OPT_GRID, "cards battleships"},
    {OPT_EXTRA, "battleships"},
    {OPT_EXTRA_STAIRS, "battleships"},
    {OPT_SECRET_ROWS, "battleships"},
    {OPT_MATCHING_STAIRS, "battleships"},
    {OPT_FLEET, "battleships"},
    {OPT_SHAPE, "cards"},
    {OPT_ENTRANCE, "cards"},
    {OPT_DECKS, "cards"},
    {OPT_JOKERS, "cards"},
    {OPT_SPRAWL, "cards"},
    {OPT_REDISCOVERED, "cards"},
    {OPT_DOUBLES, "cards"},
    {OPT_NO_DOUBLES, "cards"},
    {OPT_MIN_ROOMS, "cards"},
    {OPT_CONTENT, "cards dropdice"},
    {OPT_LENGTHS, "cards"},
    {OPT_LENGTH_UNIT, "cards"},
    {OPT_SECTORS, "leximorph"},
    {OPT_SECTOR_FT, "leximorph"},
    {OPT_ROTATE, "leximorph"},
    {OPT_NO_ROTATE, "leximorph"},
    {OPT_LETTERS, "leximorph"},
    {OPT_JUNCTIONS, "leximorph"},
    {OPT_WALLS, "leximorph"},
    {OPT_DOORS, "leximorph"},
    {OPT_LADDERS, "preconnect"},
};

static const char *scope_of(int opt) {
  for (size_t i = 0; i < sizeof scoped / sizeof *scoped; i++)
    if (scoped[i].opt == opt) return scoped[i].generators;
  return NULL;
}

static int applies(int opt, const char *generator) {
  const char *list = scope_of(opt);
  if (!list) return 1;
  size_t n = strlen(generator);
  if (n == 0) return 0; /* (an empty name would match everywhere, and forever) */
  for (const char *p = list; (p = strstr(p, generator)) != NULL; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
  return 0;
}

static const char *option_name(int opt) {
  for (const struct option *o = long_opts; o->name; o++)
    if (o->val == opt) return o->name;
  return "?";
}

bool cb_cli_page_size(const char *s, double *w, double *h) {
  static const struct {
    const char *name;
    double w_mm, h_mm;
  } named[] = {{"a4", 210, 297}, {"letter", 215.9, 279.4}, {"a5", 148, 210}, {"half-letter", 139.7, 215.9}};
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (strcmp(s, named[i].name) == 0) {
      *w = named[i].w_mm * CB_PT_PER_MM, *h = named[i].h_mm * CB_PT_PER_MM;
      return true;
    }
  double a, b;
  char unit[4] = "", tail;
  if (sscanf(s, "%lfx%lf%3[a-z]%c", &a, &b, unit, &tail) != 3 || (s[0] < '0' || s[0] > '9')) return false;
  double k = strcmp(unit, "mm") == 0 ? 1 : strcmp(unit, "in") == 0 ? 25.4 : 0;
  a *= k, b *= k;
  if (!(a >= 90 && b >= 90 && a <= 1200 && b <= 1200)) return false;
  *w = a * CB_PT_PER_MM, *h = b * CB_PT_PER_MM;
  return true;
}

static cb_status text_arg(const char *opt, const char *v, size_t max, cb_error *err) {
  if (strlen(v) > max) return cb_error_set(err, CB_EINPUT, "--%s: longer than %zu bytes", opt, max);
  /* it is drawn (the footer's command at least): pango warns about and haru drops what is not UTF-8 */
  const char *bad = cb_text_bad(v);
  if (bad)
    return cb_error_set(err, CB_EINPUT, "--%s: byte %zu is %s", opt, (size_t)(bad - v) + 1,
                        cb_utf8_char(bad, strlen(bad), NULL) ? "a control character" : "not UTF-8 text");
  return CB_OK;
}

/* A comma-separated list of ship lengths, 1 to 100 each. */
static cb_status fleet_arg(const char *v, cb_gen_options *g, cb_error *err) {
  char buf[16];
  g->nfleet = 0;
  for (const char *p = v;;) {
    size_t len = strcspn(p, ",");
    unsigned long long n;
    if (len == 0 || len >= sizeof buf)
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': expected ship lengths such as 5,4,3,3,2", v);
    memcpy(buf, p, len);
    buf[len] = '\0';
    if (!cb_cli_number(buf, 1, 100, &n))
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': '%s' is not a ship length from 1 to 100", v, buf);
    if (g->nfleet == CB_MAX_FLEET)
      return cb_error_set(err, CB_EINPUT, "--fleet '%s': at most %d ships", v, CB_MAX_FLEET);
    g->fleet[g->nfleet++] = (int)n;
    if (!p[len]) break;
    p += len + 1;
  }
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
  cb_template_default(&job->tpl);
  job->gen.extra_by = CB_EXTRA_BY_TREE;
  const char *format = NULL, *output = NULL;
  bool gen_opt = false;
  int gen_c = 0; /* the first generator option given, for render's message */
  unsigned long long v;
  opterr = 0;
  optind = 0; /* glibc: 0 resets getopt fully, so the parser can run again (tests, fuzzing) */
  int c;
  bool landscape = false, count_given = false, seeds_given = false, seed_given = false;
  const char *page_size = NULL, *style = NULL, *template_name = NULL;
  int given[64], ngiven = 0;
  const char *given_arg[64];
  while ((c = getopt_long(argc, argv, ":g:s:n:o:f:ehV", long_opts, NULL)) != -1) {
    if (scope_of(c) && ngiven < 64) given_arg[ngiven] = optarg, given[ngiven++] = c;
    switch (c) {
    case 'g': job->generator = optarg, gen_opt = true; break;
    case 's':
      if (!cb_cli_number(optarg, 0, UINT64_MAX, &v))
        return cb_error_set(err, CB_EINPUT,
                            "--seed '%s': expected a whole number from 0 to 18446744073709551615", optarg);
      job->gen.seed = v;
      cli->seed_given = seed_given = gen_opt = true;
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
      if (strcmp(optarg, "tree") == 0)
        job->gen.extra_by = CB_EXTRA_BY_TREE;
      else if (strcmp(optarg, "length") == 0)
        job->gen.extra_by = CB_EXTRA_BY_LENGTH;
      else
        return cb_error_set(err, CB_EINPUT, "--extra-by '%s': expected 'tree' or 'length'", optarg);
      gen_opt = true;
      break;
    case OPT_LEVELS:
      if (!cb_cli_number(optarg, 1, 1000, &v))
        return cb_error_set(err, CB_EINPUT, "--levels '%s': expected a whole number from 1 to 1000", optarg);
      job->gen.levels = (int)v;
      gen_opt = true;
      break;
    case OPT_PLAYER_MAP: job->player_map = true; break;
    case OPT_TEMPLATE:
      if (text_arg("template", optarg, 1000, err)) return err->status;
      if (cb_template_load(optarg, &job->tpl, err) != CB_OK) return err->status;
      template_name = optarg;
      break;
    case OPT_APPENDIX: job->appendix = true; break;
    case OPT_IMPOSE:
      if (strcmp(optarg, "saddle") != 0)
        return cb_error_set(err, CB_EINPUT, "--impose '%s': expected saddle", optarg);
      job->impose_saddle = true;
      break;
    case OPT_STYLE:
      if (strcmp(optarg, "ink") != 0 && strcmp(optarg, "colour") != 0 && strcmp(optarg, "color") != 0)
        return cb_error_set(err, CB_EINPUT, "--style '%s': expected ink or colour", optarg);
      job->colour = optarg[0] == 'c';
      style = optarg;
      break;
    case OPT_COUNT:
      if (!cb_cli_number(optarg, 1, CB_MAX_BATCH, &v))
        return cb_error_set(err, CB_EINPUT, "--count '%s': expected a whole number from 1 to %d", optarg,
                            CB_MAX_BATCH);
      job->count = (int)v;
      count_given = true;
      break;
    case OPT_SEEDS: {
      const char *dots = strstr(optarg, "..");
      char first[32] = "";
      unsigned long long a = 0, b = 0;
      if (dots && (size_t)(dots - optarg) < sizeof first) memcpy(first, optarg, (size_t)(dots - optarg));
      if (!dots || !cb_cli_number(first, 0, UINT64_MAX, &a) || !cb_cli_number(dots + 2, 0, UINT64_MAX, &b) ||
          b < a || b - a >= CB_MAX_BATCH)
        return cb_error_set(err, CB_EINPUT,
                            "--seeds '%s': expected A..B with A <= B and at most %d seeds, e.g. 1..20",
                            optarg, CB_MAX_BATCH);
      job->gen.seed = a;
      job->count = (int)(b - a + 1);
      seeds_given = cli->seed_given = true;
      break;
    }
    case OPT_PAGE_SIZE:
      page_size = optarg;
      if (strlen(optarg) > 40 || !cb_cli_page_size(optarg, &job->page_w, &job->page_h))
        return cb_error_set(err, CB_EINPUT,
                            "--page-size '%s': expected a4, letter, a5, half-letter or WxH in mm or in "
                            "(90 to 1200 mm a side), e.g. 148x210mm",
                            optarg);
      break;
    case OPT_LANDSCAPE: landscape = true; break;
    case OPT_FAITHFUL:
      job->gen.faithful = true;
      gen_opt = true;
      break;
    case OPT_GRID: {
      /* N (a square grid: battleships, cards) or WxH (cards) */
      char *x = strchr(optarg, 'x');
      unsigned long long w = 0, h = 0;
      int ok = x ? (*x = '\0', cb_cli_number(optarg, 1, 100, &w) && cb_cli_number(x + 1, 1, 100, &h))
                 : cb_cli_number(optarg, 1, 100, &w);
      if (x) *x = 'x';
      if (!x) h = w;
      if (!ok)
        return cb_error_set(err, CB_EINPUT, "--grid '%s': expected N or WxH, 1 to 100 a side, e.g. 10 or 5x5",
                            optarg);
      job->gen.grid = (int)w;
      job->gen.cards.grid_w = (int)w, job->gen.cards.grid_h = (int)h;
      gen_opt = true;
      break;
    }
    case OPT_EXTRA:
      if (!cb_cli_number(optarg, 0, 10000, &v))
        return cb_error_set(err, CB_EINPUT, "--extra '%s': expected a whole number from 0 to 10000", optarg);
      job->gen.extra = (int)v;
      job->gen.extra_set = gen_opt = true;
      break;
    case OPT_EXTRA_STAIRS:
      if (!cb_cli_number(optarg, 0, 100, &v))
        return cb_error_set(err, CB_EINPUT, "--extra-stairs '%s': expected a whole number from 0 to 100",
                            optarg);
      job->gen.extra_stairs = (int)v;
      gen_opt = true;
      break;
    case OPT_SECRET_ROWS: job->gen.secret_rows = gen_opt = true; break;
    case OPT_MATCHING_STAIRS: job->gen.matching_stairs = gen_opt = true; break;
    case OPT_FLEET:
      if (fleet_arg(optarg, &job->gen, err)) return err->status;
      gen_opt = true;
      break;
    case OPT_SHAPE:
      if (!*optarg) return cb_error_set(err, CB_EINPUT, "--shape: expected rect, oval or a mask file");
      if (text_arg("shape", optarg, 1000, err)) return err->status;
      job->gen.cards.shape = optarg, gen_opt = true;
      break;
    case OPT_ENTRANCE:
      if (text_arg("entrance", optarg, 40, err)) return err->status;
      job->gen.cards.entrance = optarg, gen_opt = true;
      break;
    case OPT_DECKS:
      if (!cb_cli_number(optarg, 1, CB_CARDS_MAX_DECKS, &v))
        return cb_error_set(err, CB_EINPUT, "--decks '%s': expected a whole number from 1 to %d", optarg,
                            CB_CARDS_MAX_DECKS);
      job->gen.cards.decks = (int)v, gen_opt = true;
      break;
    case OPT_JOKERS: job->gen.cards.jokers = gen_opt = true; break;
    case OPT_SPRAWL: job->gen.cards.sprawl = gen_opt = true; break;
    case OPT_REDISCOVERED: {
      static const char *const how[] = {"door", "ignore", "one-way", "concealed"};
      int k = -1;
      for (int i = 0; i < 4; i++)
        if (strcmp(optarg, how[i]) == 0) k = i;
      if (k < 0)
        return cb_error_set(err, CB_EINPUT,
                            "--rediscovered '%s': expected door, ignore, one-way or concealed", optarg);
      job->gen.cards.rediscovered = (cb_rediscovered)k, gen_opt = true;
      break;
    }
    case OPT_DOUBLES: job->gen.cards.plain_doubles = false, gen_opt = true; break;
    case OPT_NO_DOUBLES: job->gen.cards.plain_doubles = gen_opt = true; break;
    case OPT_MIN_ROOMS:
      if (!cb_cli_number(optarg, 1, 100000, &v))
        return cb_error_set(err, CB_EINPUT, "--min-rooms '%s': expected a whole number from 1 to 100000",
                            optarg);
      job->gen.cards.min_rooms = (int)v, gen_opt = true;
      break;
    case OPT_CONTENT:
      if (!*optarg) return cb_error_set(err, CB_EINPUT, "--content: expected a table file");
      if (text_arg("content", optarg, 1000, err)) return err->status;
      job->gen.cards.content = optarg, gen_opt = true;
      break;
    case OPT_LENGTHS: job->gen.cards.lengths = gen_opt = true; break;
    case OPT_LENGTH_UNIT:
      if (!cb_cli_number(optarg, 1, 5280, &v))
        return cb_error_set(err, CB_EINPUT, "--length-unit '%s': expected feet per pip, 1 to 5280", optarg);
      job->gen.cards.length_unit = (int)v, gen_opt = true;
      break;
    case OPT_SECTORS: {
      unsigned long long c2, r2;
      const char *x = strchr(optarg, 'x');
      char cols[16] = "";
      if (x && (size_t)(x - optarg) < sizeof cols)
        memcpy(cols, optarg, (size_t)(x - optarg)), cols[x - optarg] = '\0';
      if (!x || !cb_cli_number(cols, 1, 12, &c2) || !cb_cli_number(x + 1, 1, 12, &r2))
        return cb_error_set(err, CB_EINPUT,
                            "--sectors '%s': expected columns x rows, each 1 to 12 (e.g. 3x2)", optarg);
      job->gen.sector_cols = (int)c2;
      job->gen.sector_rows = (int)r2;
      gen_opt = true;
      break;
    }
    case OPT_SECTOR_FT:
      if (!cb_cli_number(optarg, 120, 1200, &v))
        return cb_error_set(err, CB_EINPUT,
                            "--sector-ft '%s': expected a whole number of feet from 120 to 1200", optarg);
      job->gen.sector_ft = (int)v;
      gen_opt = true;
      break;
    case OPT_ROTATE: job->gen.no_rotate = false, gen_opt = true; break;
    case OPT_NO_ROTATE: job->gen.no_rotate = true, gen_opt = true; break;
    case OPT_LETTERS:
    case OPT_JUNCTIONS:
    case OPT_WALLS:
    case OPT_DOORS: {
      const char *name = c == OPT_LETTERS     ? "letters"
                         : c == OPT_JUNCTIONS ? "junctions"
                         : c == OPT_WALLS     ? "walls"
                                              : "doors";
      if (!*optarg) return cb_error_set(err, CB_EINPUT, "--%s: give a table file", name);
      if (text_arg(name, optarg, 900, err)) return err->status;
      *(c == OPT_LETTERS     ? &job->gen.letters
        : c == OPT_JUNCTIONS ? &job->gen.junctions
        : c == OPT_WALLS     ? &job->gen.walls
                             : &job->gen.doors) = optarg;
      gen_opt = true;
      break;
    }
    case OPT_LADDERS:
      job->gen.ladders = true;
      gen_opt = true;
      break;
    case OPT_THEME:
      if (text_arg("theme", optarg, 4000, err)) return err->status;
      job->stock.theme = optarg;
      gen_opt = true;
      break;
    case OPT_DEPTH:
      if (!cb_cli_number(optarg, 1, 10, &v))
        return cb_error_set(err, CB_EINPUT, "--depth '%s': expected a whole number from 1 to 10", optarg);
      job->stock.depth = (int)v;
      gen_opt = true;
      break;
    case OPT_LOCKS:
      if (!cb_cli_number(optarg, 0, 8, &v))
        return cb_error_set(err, CB_EINPUT, "--locks '%s': expected a whole number from 0 to 8", optarg);
      job->stock.locks = (int)v, job->stock.locks_set = true;
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
      if (strcmp(optarg, "cairo") != 0 && strcmp(optarg, "haru") != 0)
        return cb_error_set(err, CB_EINPUT, "--backend '%s': expected 'cairo' or 'haru'", optarg);
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
      /* glibc: optopt is 0 for an unknown long option, the option's value for one given a value it does not
       * take */
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
      while (o->name && o->val != gen_c)
        o++;
      return cb_error_set(err, CB_EINPUT,
                          "render lays out a saved dungeon: --%s is a generator's option and does not "
                          "apply",
                          o->name ? o->name : "?");
    }
    job->input = argv[optind + 1];
  }
  if (seeds_given && count_given)
    return cb_error_set(err, CB_EINPUT, "--seeds A..B already says how many: drop --count");
  if (seeds_given && seed_given)
    return cb_error_set(err, CB_EINPUT, "--seeds A..B already says which seeds: drop --seed");
  if (job->count > 1 && job->input)
    return cb_error_set(err, CB_EINPUT,
                        "render lays out one saved dungeon: --count and --seeds do not apply");
  if (job->count > 1 && cli->explain)
    return cb_error_set(err, CB_EINPUT, "--explain tells one dungeon's story: not with --count or --seeds");
  if (!cli->seed_given) job->gen.seed = random_seed;
  if (job->count > 1 && job->gen.seed > UINT64_MAX - (uint64_t)(job->count - 1)) {
    /* a batch's seeds run S, S+1, ...: they may not wrap past the largest */
    if (cli->seed_given)
      return cb_error_set(err, CB_EINPUT, "--seed %" PRIu64 " --count %d: the seeds would run past %" PRIu64,
                          job->gen.seed, job->count, UINT64_MAX);
    job->gen.seed -= (uint64_t)job->count;
  }
  /* the template first, then what the command line says */
  if (!page_size) job->page_w = job->tpl.page_w, job->page_h = job->tpl.page_h;
  if (job->tpl.cards[0] && !job->gen.cards.content && !strcmp(job->generator, "cards"))
    job->gen.cards.content = job->tpl.cards;
  if (job->tpl.letters[0] && !job->gen.letters) job->gen.letters = job->tpl.letters;
  if (job->tpl.junctions[0] && !job->gen.junctions) job->gen.junctions = job->tpl.junctions;
  if (job->tpl.walls[0] && !job->gen.walls) job->gen.walls = job->tpl.walls;
  if (job->tpl.doors[0] && !job->gen.doors) job->gen.doors = job->tpl.doors;
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
  if (cb_template_check_room(&job->tpl, job->page_w > 0 ? job->page_w : 210 * CB_PT_PER_MM,
                             job->page_h > 0 ? job->page_h : 297 * CB_PT_PER_MM, err))
    return err->status;
  for (int i = 0; i < ngiven; i++)
    if (!applies(given[i], job->generator))
      return cb_error_set(err, CB_EINPUT, "--%s%s%s: not an option of %s (only of %s)", option_name(given[i]),
                          given_arg[i] ? " " : "", given_arg[i] ? given_arg[i] : "", job->generator,
                          scope_of(given[i]));
  if (job->gen.cards.grid_w != job->gen.cards.grid_h && strcmp(job->generator, "battleships") == 0)
    return cb_error_set(err, CB_EINPUT, "--grid %dx%d: battleships grids are square: give one number",
                        job->gen.cards.grid_w, job->gen.cards.grid_h);

  if (format) {
    int f = format_of(format);
    if (f < 0)
      return cb_error_set(err, CB_EINPUT, "--format '%s': expected pdf, svg, png, json or dot", format);
    job->format = (cb_format)f;
  } else if (output && strcmp(output, "-") != 0) {
    const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
    int f = dot && (!slash || dot > slash) ? format_of(dot + 1) : -1;
    if (f < 0)
      return cb_error_set(err, CB_EINPUT,
                          "--output '%s': cannot tell the format from the extension; use "
                          ".pdf, .svg, .png, .json or .dot, or give --format",
                          output);
    job->format = (cb_format)f;
  } else if (output) {
    return cb_error_set(err, CB_EINPUT, "--output -: give --format too");
  }
  if (output)
    job->output = output;
  else if (!cli->explain)
    job->output = job->format == CB_FORMAT_JSON ? "dungeon.json" : "dungeon.pdf";
  (void)format_name;
  if (job->impose_saddle && job->tpl.layout == CB_LAYOUT_ZINE8)
    return cb_error_set(err, CB_EINPUT, "--impose saddle: the zine8 template is imposed already");
  if (job->player_map && (job->format == CB_FORMAT_JSON || job->format == CB_FORMAT_DOT))
    return cb_error_set(err, CB_EINPUT, "--player-map is a printed handout: use PDF, SVG or PNG");
  if (strcmp(job->backend, "haru") == 0 && job->format != CB_FORMAT_PDF)
    return cb_error_set(err, CB_EINPUT, "--backend haru writes PDF only");

  if (date_env && *date_env) {
    if (!cb_cli_number(date_env, 0, 253402300799ULL, &v))
      return cb_error_set(err, CB_EINPUT,
                          "SOURCE_DATE_EPOCH '%s': expected seconds since 1970, up to year 9999", date_env);
    job->date = (long long)v;
  }
  return CB_OK;
}
