/* The option specs the command line is built from: every row well formed,
 * rows that share a name read it alike, every option in --help, each
 * procedure's options taken by it and refused by the others, and every
 * option a procedure records named by one of its rows, and every other one a
 * dungeon records named by one table (model/recorded.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cli/options.h"
#include "io/json.h"
#include "model/recorded.h"
#include "registry/registry.h"
#include "testlib.h"

static const cb_option_spec *common_row(const char *name) {
  for (int k = 0; k < cb_cli_ncommon; k++)
    if (strcmp(cb_cli_common[k].name, name) == 0) return &cb_cli_common[k];
  return NULL;
}

static void well_formed(const cb_option_spec *s, bool procedure) {
  assert_non_null(s->name);
  assert_true(strlen(s->name) > 1 && s->name[0] != '-' && !strchr(s->name, ' '));
  if (s->kind == CB_OPT_WORD) assert_non_null(s->words);
  if (s->kind == CB_OPT_CUSTOM) assert_non_null(s->parse);
  if (procedure && s->kind == CB_OPT_CUSTOM && s->record != CB_REC_NONE) assert_non_null(s->format);
  if (s->kind == CB_OPT_NUMBER && !s->parse && !(s->flags & CB_OPTF_COMMON)) assert_true(s->lo <= s->hi);
  /* --help shows a value for each option that takes one, and none for a flag */
  if (s->help) assert_true((s->arg == NULL) == (s->kind == CB_OPT_FLAG));
  if (s->help) assert_true(s->help[0] && s->help[strlen(s->help) - 1] != '\n');
}

static void rows_well_formed(void **state) {
  (void)state;
  for (int k = 0; k < cb_cli_ncommon; k++) {
    well_formed(&cb_cli_common[k], false);
    for (int j = 0; j < k; j++)
      assert_string_not_equal(cb_cli_common[j].name, cb_cli_common[k].name);
  }
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++) {
    const cb_option_set *set = gens[g]->options;
    assert_non_null(set);
    assert_non_null(set->about);
    for (int k = 0; k < set->n; k++) {
      const cb_option_spec *s = &set->specs[k];
      well_formed(s, true);
      assert_ptr_equal(cb_option_find(set, s->name), s); /* once in a table */
      assert_int_equal(s->letter, 0);
      /* a common option is read by the common table; a procedure's own
       * option has a name of its own */
      const cb_option_spec *c = common_row(s->name);
      if (s->flags & CB_OPTF_COMMON)
        assert_true(c && !s->help);
      else if (c)
        fail_msg("%s: --%s is a common option: mark the row CB_OPTF_COMMON", gens[g]->name, s->name);
    }
  }
}

/* Options are first read before the procedure is known, by the first
 * procedure's row, to refuse a bad value at once: procedures that share one
 * must accept the same values (each then reads it into its own record, at
 * its own field). */
static void shared_rows_agree(void **state) {
  (void)state;
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++)
    for (int k = 0; k < gens[g]->options->n; k++) {
      const cb_option_spec *a = &gens[g]->options->specs[k];
      for (int h = g + 1; h < n && !(a->flags & CB_OPTF_COMMON); h++) {
        const cb_option_spec *b = cb_option_find(gens[h]->options, a->name);
        if (!b) continue;
        if (b->flags & CB_OPTF_COMMON) fail_msg("--%s: common in one procedure, its own in another", a->name);
        if (a->parse || b->parse) {
          assert_ptr_equal(a->parse, b->parse);
          continue;
        }
        if (a->kind != b->kind || a->lo != b->lo || a->hi != b->hi || a->set != b->set ||
            a->seen != b->seen || a->words != b->words ||
            (a->expect != b->expect && strcmp(a->expect, b->expect)))
          fail_msg("--%s: %s and %s read it differently", a->name, gens[g]->name, gens[h]->name);
      }
    }
}

static void every_option_in_help(void **state) {
  (void)state;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  cb_cli_help(f);
  fclose(f);
  char want[96];
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++) {
    snprintf(want, sizeof want, "  %-12s %s", gens[g]->name, gens[g]->options->about);
    if (!strstr(text, want)) fail_msg("--help does not list %s", gens[g]->name);
    for (int k = 0; k < gens[g]->options->n; k++) {
      const cb_option_spec *s = &gens[g]->options->specs[k];
      snprintf(want, sizeof want, "      --%s%s%s ", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
      if (s->help && !strstr(text, want)) fail_msg("--help does not show --%s", s->name);
    }
  }
  for (int k = 0; k < cb_cli_ncommon; k++) {
    snprintf(want, sizeof want, "--%s", cb_cli_common[k].name);
    assert_non_null(strstr(text, want));
  }
  free(text);
}

static cb_status parse(cb_cli *cli, cb_error *err, const char *const *args) {
  char *argv[8];
  int argc = 0;
  static char store[8][128];
  argv[argc++] = strcpy(store[0], "crawlbook");
  for (; args[argc - 1]; argc++)
    argv[argc] = strcpy(store[argc], args[argc - 1]);
  argv[argc] = NULL;
  memset(err, 0, sizeof *err);
  return cb_cli_parse(argc, argv, NULL, 1, cli, err);
}

/* A value the row takes, or NULL for one only its own parser knows. */
static const char *sample(const cb_option_spec *s, char *buf, size_t cap) {
  switch (s->kind) {
  case CB_OPT_NUMBER: return s->parse ? NULL : (snprintf(buf, cap, "%llu", s->lo), buf);
  case CB_OPT_WORD: return s->words[0];
  case CB_OPT_TEXT:
  case CB_OPT_FILE: return "x";
  default: return NULL;
  }
}

/* Each procedure takes its own options, and another refuses them naming the
 * procedures that take them. */
static void options_scoped_to_procedures(void **state) {
  (void)state;
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++)
    for (int k = 0; k < gens[g]->options->n; k++) {
      const cb_option_spec *s = &gens[g]->options->specs[k];
      char opt[64], value[32];
      const char *v = sample(s, value, sizeof value);
      if ((s->flags & CB_OPTF_COMMON) || (s->kind != CB_OPT_FLAG && !v)) continue;
      snprintf(opt, sizeof opt, "--%s", s->name);
      for (int h = 0; h < n; h++) {
        cb_cli cli;
        cb_error err;
        const char *args[] = {"-g", gens[h]->name, opt, v, NULL};
        cb_status st = parse(&cli, &err, args);
        if (cb_option_find(gens[h]->options, s->name)) {
          if (st != CB_OK) fail_msg("-g %s %s: %s", gens[h]->name, opt, err.msg);
        } else {
          char want[128];
          snprintf(want, sizeof want, ": not an option of %s (only of ", gens[h]->name);
          if (st != CB_EINPUT || !strstr(err.msg, want) || !strstr(err.msg, gens[g]->name))
            fail_msg("-g %s %s: %s", gens[h]->name, opt, st == CB_OK ? "taken" : err.msg);
        }
      }
    }
}

/* What a procedure records in its dungeon is named by its rows. */
static void records_named_by_rows(void **state) {
  (void)state;
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++) {
    cb_gen_options o = {.seed = 3, .faithful = g % 2 == 1};
    cb_dungeon *d = NULL;
    cb_error err = {0};
    if (cb_generator_run(gens[g], &o, &d, &err) != CB_OK) fail_msg("%s: %s", gens[g]->name, err.msg);
    for (int i = 0; i < d->noptions; i++) {
      const cb_option_spec *s = cb_option_find(gens[g]->options, d->options[i].name);
      if (!s || s->record == CB_REC_NONE)
        fail_msg("%s records --%s, which none of its rows records", gens[g]->name, d->options[i].name);
      assert_int_equal(d->options[i].flag, s->kind == CB_OPT_FLAG);
    }
    for (int k = 0; k < gens[g]->options->n; k++) {
      const cb_option_spec *s = &gens[g]->options->specs[k];
      bool found = false;
      for (int i = 0; i < d->noptions; i++)
        found |= strcmp(d->options[i].name, s->name) == 0;
      if (s->record == CB_REC_ALWAYS && s->kind != CB_OPT_FLAG && !found)
        fail_msg("%s does not record --%s", gens[g]->name, s->name);
    }
    cb_dungeon_free(d);
  }
}

/* The options every dungeon records, whichever procedure made it, are the
 * rows of one table: each a common option of the command line of its kind;
 * a dungeon made with all of them given records each under its row, nothing
 * beyond them and its procedure's rows, and the JSON reads them back. */
static void recorded_options_one_table(void **state) {
  (void)state;
  for (int r = 0; r < CB_RECORDED_COUNT; r++) {
    const cb_recorded_option *row = &cb_recorded_options[r];
    const cb_option_spec *c = common_row(row->name);
    if (!c) fail_msg("--%s is recorded but no common option", row->name);
    assert_int_equal(c->kind, row->number ? CB_OPT_NUMBER : CB_OPT_TEXT);
    assert_int_not_equal(c->record, CB_REC_NONE);
  }
  int n;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++) {
    cb_cli cli;
    cb_error err;
    const char *args[] = {"-g", gens[g]->name, "--title", "The Vault", "--locks", "2", NULL};
    assert_int_equal(parse(&cli, &err, args), CB_OK);
    cli.job.output = NULL;
    cb_dungeon *d = NULL, *back = NULL;
    if (cb_job_run(&cli.job, &d, &err) != CB_OK) fail_msg("%s: %s", gens[g]->name, err.msg);
    int recorded = 0;
    for (int i = 0; i < d->noptions; i++) {
      bool mine = cb_option_find(gens[g]->options, d->options[i].name) != NULL;
      if (!mine && !cb_recorded_is(d->options[i].name))
        fail_msg("%s records --%s, in no table", gens[g]->name, d->options[i].name);
      recorded += !mine;
    }
    assert_int_equal(recorded, CB_RECORDED_COUNT);
    for (int r = 0; r < CB_RECORDED_COUNT; r++)
      assert_non_null(cb_dungeon_recorded(d, (cb_recorded)r));
    cb_test_buf buf = {0};
    assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&buf, cb_test_buf_write}, &err), CB_OK);
    if (cb_json_parse(buf.data, buf.len, "t.json", cb_proc_json(), &back, &err) != CB_OK)
      fail_msg("%s: %s", gens[g]->name, err.msg);
    assert_int_equal(back->noptions, d->noptions);
    for (int r = 0; r < CB_RECORDED_COUNT; r++)
      assert_string_equal(cb_dungeon_recorded(back, (cb_recorded)r), cb_dungeon_recorded(d, (cb_recorded)r));
    free(buf.data);
    cb_dungeon_free(back);
    cb_dungeon_free(d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rows_well_formed),      cmocka_unit_test(shared_rows_agree),
      cmocka_unit_test(every_option_in_help),  cmocka_unit_test(options_scoped_to_procedures),
      cmocka_unit_test(records_named_by_rows), cmocka_unit_test(recorded_options_one_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
