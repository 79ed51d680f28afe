/* The command line: defaults, good values, and every bad value refused with
 * CB_EINPUT and a message naming the option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/options.h"
#include "proc/battleships/proc.h"
#include "proc/cards/proc.h"
#include "proc/dropdice/proc.h"
#include "testlib.h"

/* Parses a NULL-terminated list of arguments (after the program name). */
static cb_status parse(const char *date, cb_cli *cli, cb_error *err, const char *const *args) {
  static char store[64][512];
  static char *argv[66];
  int argc = 0;
  argv[argc++] = strcpy(store[0], "crawlbook");
  for (int i = 0; args[i]; i++, argc++) {
    snprintf(store[argc], sizeof store[argc], "%s", args[i]);
    argv[argc] = store[argc];
  }
  argv[argc] = NULL;
  memset(err, 0, sizeof *err);
  return cb_cli_parse(argc, argv, date, 777, cli, err);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void defaults(void **state) {
  (void)state;
  cb_cli cli;
  cb_error err;
  assert_int_equal(parse(NULL, &cli, &err, ARGS(NULL)), CB_OK);
  assert_string_equal(cli.job.generator, "dropdice");
  assert_true(cli.job.gen.seed == 777 && !cli.seed_given);
  assert_int_equal(cli.job.gen.rooms, 0);
  assert_int_equal(cli.job.format, CB_FORMAT_PDF);
  assert_string_equal(cli.job.output, "dungeon.pdf");
  assert_true(cli.job.dpi == 150);
  assert_true(cli.job.date == 946684800LL);
  assert_int_equal(cb_dropdice_options_of(&cli.job.gen)->extra_by, CB_EXTRA_BY_TREE);
  assert_null(cli.job.input);
}

/* A procedure's own options land in its own record, read by its own rows,
 * whichever procedure shares the option's name and wherever --generator
 * comes; the common record holds only what every procedure has. */
static void own_options_in_the_procedures_record(void **state) {
  (void)state;
  cb_cli cli;
  cb_error err;
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--content", "mine.txt", "-g", "dropdice")), CB_OK);
  assert_ptr_equal(cli.job.gen.own, cli.own);
  assert_string_equal(cb_dropdice_options_of(&cli.job.gen)->content, "mine.txt");
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--grid", "7", "-g", "battleships", "--fleet", "4,3")),
                   CB_OK);
  const cb_battleships_options *b = cb_battleships_options_of(&cli.job.gen);
  assert_true(b->grid.w == 7 && b->grid.h == 7 && b->nfleet == 2 && b->fleet[0] == 4 && b->fleet[1] == 3);
  assert_int_equal(parse(NULL, &cli, &err, ARGS("-g", "cards", "--grid", "6x4", "--content", "c.txt")),
                   CB_OK);
  const cb_cards_options *c = cb_cards_options_of(&cli.job.gen);
  assert_true(c->grid.w == 6 && c->grid.h == 4);
  assert_string_equal(c->content, "c.txt");
  /* battleships' own check reads its own record */
  assert_int_equal(parse(NULL, &cli, &err, ARGS("-g", "battleships", "--grid", "6x4")), CB_EINPUT);
  assert_non_null(strstr(err.msg, "--grid 6x4: battleships grids are square"));
  /* each parse starts from the procedure's defaults */
  assert_int_equal(parse(NULL, &cli, &err, ARGS("-g", "dropdice")), CB_OK);
  assert_null(cb_dropdice_options_of(&cli.job.gen)->content);
}

static void good_values(void **state) {
  (void)state;
  cb_cli cli;
  cb_error err;
  assert_int_equal(parse("1700000000", &cli, &err,
                         ARGS("--seed", "18446744073709551615", "--rooms", "100000", "-o", "out/x.JSON.json",
                              "--dpi", "600", "--extra-by", "length", "--faithful", "--title", "T")),
                   CB_OK);
  assert_true(cli.job.gen.seed == UINT64_MAX && cli.seed_given);
  assert_int_equal(cli.job.gen.rooms, 100000);
  assert_int_equal(cli.job.format, CB_FORMAT_JSON);
  assert_string_equal(cli.job.output, "out/x.JSON.json");
  assert_true(cli.job.dpi == 600);
  assert_true(cli.job.date == 1700000000LL);
  assert_int_equal(cb_dropdice_options_of(&cli.job.gen)->extra_by, CB_EXTRA_BY_LENGTH);
  assert_true(cli.job.gen.faithful);
  assert_string_equal(cli.job.gen.title, "T");
  assert_int_equal(parse("0", &cli, &err, ARGS("-s", "0", "-n", "1", "--dpi", "36", "-f", "svg", "-o", "-")),
                   CB_OK);
  assert_true(cli.job.gen.seed == 0 && cli.job.gen.rooms == 1 && cli.job.dpi == 36 && cli.job.date == 0);
  assert_int_equal(cli.job.format, CB_FORMAT_SVG);
  assert_string_equal(cli.job.output, "-");
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--format", "json")), CB_OK);
  assert_string_equal(cli.job.output, "dungeon.json");
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--explain")), CB_OK);
  assert_true(cli.explain);
  assert_null(cli.job.output);
  assert_int_equal(parse(NULL, &cli, &err, ARGS("-o", "a.png", "--seed=5", "--rooms=7")), CB_OK);
  assert_int_equal(cli.job.format, CB_FORMAT_PNG);
  assert_true(cli.job.gen.seed == 5 && cli.job.gen.rooms == 7);
  assert_int_equal(parse(NULL, &cli, &err, ARGS("render", "in.json", "-o", "out.pdf")), CB_OK);
  assert_string_equal(cli.job.input, "in.json");
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--help")), CB_OK);
  assert_true(cli.help);
  assert_int_equal(parse(NULL, &cli, &err, ARGS("-V")), CB_OK);
  assert_true(cli.version);
}

static void bad(const char *date, const char *const *args, const char *name) {
  cb_cli cli;
  cb_error err;
  cb_status st = parse(date, &cli, &err, args);
  char shown[512] = "";
  for (int i = 0; args[i]; i++)
    snprintf(shown + strlen(shown), sizeof shown - strlen(shown), " %s", args[i]);
  if (st != CB_EINPUT) fail_msg("crawlbook%s: status %d, want CB_EINPUT", shown, st);
  if (!strstr(err.msg, name)) fail_msg("crawlbook%s: message '%s' does not name %s", shown, err.msg, name);
  if (strchr(err.msg, '\n')) fail_msg("crawlbook%s: message spans lines", shown);
}

static void bad_values(void **state) {
  (void)state;
  const char *seeds[] = {"abc",
                         "-1",
                         "+1",
                         "1.5",
                         "",
                         " 1",
                         "1 ",
                         "0x10",
                         "1e3",
                         "18446744073709551616",
                         "99999999999999999999999"};
  for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
    bad(NULL, ARGS("--seed", seeds[i]), "--seed");
    bad(NULL, ARGS("-s", seeds[i]), "--seed");
  }
  const char *rooms[] = {"abc", "-1", "0", "100001", "1e3", "", "10x", "4294967297", "-0"};
  for (size_t i = 0; i < sizeof rooms / sizeof *rooms; i++) {
    bad(NULL, ARGS("--rooms", rooms[i]), "--rooms");
    bad(NULL, ARGS("-n", rooms[i]), "--rooms");
  }
  const char *dpis[] = {"35", "601", "0", "-150", "abc", "150.5", ""};
  for (size_t i = 0; i < sizeof dpis / sizeof *dpis; i++)
    bad(NULL, ARGS("--dpi", dpis[i]), "--dpi");
  const char *levels[] = {"0", "1001", "x", "-2"};
  for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
    bad(NULL, ARGS("--levels", levels[i]), "--levels");
  bad(NULL, ARGS("--extra-by", "furthest"), "--extra-by");
  bad(NULL, ARGS("--extra-by", ""), "--extra-by");
  char long_text[300];
  memset(long_text, 't', 201);
  long_text[201] = '\0';
  bad(NULL, ARGS("--title", long_text), "--title");
  bad(NULL, ARGS("--author", long_text), "--author");
  bad(NULL, ARGS("--backend", "gdi"), "--backend");
  bad(NULL, ARGS("--format", "doc"), "--format");
  bad(NULL, ARGS("--format", "PDF"), "--format");
  bad(NULL, ARGS("-o", "x.doc"), "--output");
  bad(NULL, ARGS("-o", "noextension"), "--output");
  bad(NULL, ARGS("-o", "dir.pdf/x"), "--output");
  bad(NULL, ARGS("-o", "x."), "--output");
  bad(NULL, ARGS("-o", "-"), "--output");
  bad(NULL, ARGS("--bogus"), "--bogus");
  bad(NULL, ARGS("--bogus=1"), "--bogus");
  bad(NULL, ARGS("-x"), "-x");
  bad(NULL, ARGS("-eZ"), "-Z");
  bad(NULL, ARGS("--seed"), "--seed");
  bad(NULL, ARGS("--rooms"), "--rooms");
  bad(NULL, ARGS("-o"), "-o");
  bad(NULL, ARGS("--faithful=yes"), "--faithful");
  bad(NULL, ARGS("dungeon.pdf"), "dungeon.pdf");
  bad(NULL, ARGS("render"), "render");
  bad(NULL, ARGS("render", "a.json", "b.json"), "render");
  const char *dates[] = {"abc", "-1", "253402300800", "1.5", " 1"};
  for (size_t i = 0; i < sizeof dates / sizeof *dates; i++)
    bad(dates[i], ARGS("--seed", "1"), "SOURCE_DATE_EPOCH");
  /* a bad value after good ones, and a good parse after a bad one */
  bad(NULL, ARGS("--seed", "4", "-o", "x.pdf", "--rooms", "many"), "--rooms");
  cb_cli cli;
  cb_error err;
  assert_int_equal(parse(NULL, &cli, &err, ARGS("--seed", "4")), CB_OK);
}

static void render_refuses_generator_options(void **state) {
  (void)state;
  static const struct {
    const char *opt, *value, *name;
  } opts[] = {{"--seed", "1", "--seed"},
              {"-s", "1", "--seed"},
              {"--rooms", "5", "--rooms"},
              {"-n", "5", "--rooms"},
              {"--generator", "dropdice", "--generator"},
              {"-g", "dropdice", "--generator"},
              {"--extra-by", "length", "--extra-by"},
              {"--levels", "2", "--levels"},
              {"--title", "T", "--title"},
              {"--faithful", NULL, "--faithful"}};
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
    if (opts[i].value) {
      bad(NULL, ARGS("render", "x.json", opts[i].opt, opts[i].value), opts[i].name);
      bad(NULL, ARGS(opts[i].opt, opts[i].value, "render", "x.json", "-o", "y.pdf"), opts[i].name);
    } else {
      bad(NULL, ARGS("render", "x.json", opts[i].opt), opts[i].name);
    }
  }
  /* what does apply to rendering is fine */
  cb_cli cli;
  cb_error err;
  assert_int_equal(
      parse(NULL, &cli, &err, ARGS("render", "x.json", "-o", "y.png", "--dpi", "72", "--author", "A")),
      CB_OK);
}

/* --rooms 201 with a printed format is refused before anything is written. */
static void too_many_rooms_for_a_page(void **state) {
  (void)state;
  char dir[512], path[700];
  snprintf(dir, sizeof dir, "%s", cb_test_tmpdir());
  const char *exts[] = {"pdf", "svg", "png"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/x.%s", dir, exts[i]);
    cb_cli cli;
    cb_error err;
    assert_int_equal(parse(NULL, &cli, &err, ARGS("--rooms", "201", "-o", path)), CB_OK);
    cb_error e2 = {0};
    assert_int_equal(cb_job_run(&cli.job, NULL, &e2), CB_EINPUT);
    assert_non_null(strstr(e2.msg, "--rooms"));
    struct stat sb;
    assert_int_not_equal(stat(path, &sb), 0);
  }
  cb_test_rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(defaults),
      cmocka_unit_test(own_options_in_the_procedures_record),
      cmocka_unit_test(good_values),
      cmocka_unit_test(bad_values),
      cmocka_unit_test(render_refuses_generator_options),
      cmocka_unit_test(too_many_rooms_for_a_page),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
