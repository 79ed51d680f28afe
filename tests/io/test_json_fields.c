/* io/json_fields.h: a record written from its field table gives the bytes
 * the table says (names, bits, left-out fields), reads back to the same
 * record, and bad input is named by the field and its place; a procedure's
 * own top-level part (cb_proc_part) is written before "procedure" and read
 * back after it, by its key, with nothing of it known to io. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "io/json_fields.h"
#include "testlib.h"

typedef struct rec {
  int n;
  double ft, at;
  const char *word;
  int colour; /* 0 red, 1 blue */
  unsigned marks;
  int hidden; /* left out when 0 */
  int late;   /* read from version 3 on */
} rec;

static const char *const COLOURS[] = {"red", "blue"};
static const char *colour_name(int c) { return COLOURS[c]; }
static int colour_parse(const char *s) { return strcmp(s, "red") == 0 ? 0 : strcmp(s, "blue") == 0 ? 1 : -1; }
static const char *mark_name(int bit) { return bit == 1 ? "a" : bit == 2 ? "b" : "c"; }
static int mark_parse(const char *s) { return s[0] >= 'a' && s[0] <= 'c' && !s[1] ? 1 << (s[0] - 'a') : -1; }
static bool hidden_zero(const void *r) { return ((const rec *)r)->hidden == 0; }

enum { MAXN = 1 };
static const cb_json_field fields[] = {
    CB_JF_VAR_OF(rec, n, "n", 1, MAXN, CB_JF_REQUIRED, 1),
    CB_JF_REAL_OF(rec, ft, "ft", 0, 100, 0, 10),
    CB_JF_COORD_OF(rec, at, "at", -1000, 1000, CB_JF_REQUIRED),
    CB_JF_STR_OF(rec, word, "word", 5, CB_JF_OMIT_NULL),
    CB_JF_NAME_OF(rec, colour, "colour", 8, colour_name, colour_parse),
    {.key = "marks",
     .kind = CB_JF_BITS,
     .offset = offsetof(rec, marks),
     .hi = 3,
     .name = mark_name,
     .parse = mark_parse},
    {.key = "hidden", .kind = CB_JF_INT, .offset = offsetof(rec, hidden), .hi = 9, .omit = hidden_zero},
    {.key = "late", .kind = CB_JF_INT, .offset = offsetof(rec, late), .hi = 9, .dflt = 7, .since = 3},
};
enum { NF = sizeof fields / sizeof *fields };

static cb_status odd_n(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  ++*(int *)ctx;
  return ((rec *)item)->n % 2 ? CB_OK : cb_jr_fail(r, where, "'n' must be odd");
}
static const cb_json_list list = {"items", 3, 1, fields, NF, sizeof(rec), odd_n};

/* n items as the list l writes them (malloc'd). */
static char *write_items(const cb_json_list *l, const void *items, int n) {
  cb_test_buf b = {0};
  cb_jw *w = cb_jw_new((cb_sink){&b, cb_test_buf_write});
  cb_jw_list(w, l, items, n);
  assert_int_equal(cb_jw_finish(w, NULL), CB_OK);
  cb_test_buf_write(&b, (const unsigned char *)"", 1);
  return b.data;
}
static char *write_list(const rec *items, int n) { return write_items(&list, items, n); }

/* The dungeon whose arena holds the strings last read (freed by the next read, or at the end). */
static cb_dungeon *last;

/* Reads text as {"items": ...} at version 3 (or the one given); returns the
 * message, "" when it read, and the records into *out. */
static const char *read_list(const char *text, int version, rec **out, int *n, int *checked) {
  static cb_error err;
  err = (cb_error){0};
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  assert_non_null(root);
  cb_json_reader r = {"f.json", &err, cb_dungeon_new("test", 1), CB_OK, true, version, NULL};
  const long vars[] = {[MAXN - 1] = 50};
  rec *items = cb_jr_list(&r, root, "proc", &list, vars, checked, n);
  json_decref(root);
  if (items) {
    *out = malloc(sizeof **out * (size_t)*n + 1);
    memcpy(*out, items, sizeof **out * (size_t)*n);
  }
  cb_dungeon_free(last);
  last = r.d;
  return r.st == CB_OK ? "" : err.msg;
}

static void writes_and_reads_back(void **state) {
  (void)state;
  const rec in[2] = {{3, 2.5, 1.005, "ab\"c", 1, 5, 0, 2}, {5, 4, -7.25, NULL, 0, 0, 4, 0}};
  char *text = write_list(in, 2);
  assert_string_equal(text, "[{\"n\":3,\"ft\":2.5,\"at\":1.0,\"word\":\"ab\\\"c\",\"colour\":\"blue\","
                            "\"marks\":[\"a\",\"c\"],\"late\":2},{\"n\":5,\"ft\":4.0,\"at\":-7.25,\"colour\":"
                            "\"red\",\"marks\":[],\"hidden\":4,\"late\":0}]");
  char doc[512];
  snprintf(doc, sizeof doc, "{\"items\": %s}", text);
  rec *out = NULL;
  int n = 0, checked = 0;
  assert_string_equal(read_list(doc, 3, &out, &n, &checked), "");
  assert_int_equal(n, 2);
  assert_int_equal(checked, 2);
  assert_int_equal(out[0].marks, 5), assert_int_equal(out[0].colour, 1), assert_int_equal(out[0].late, 2);
  assert_string_equal(out[0].word, "ab\"c");
  assert_null(out[1].word);
  assert_int_equal(out[1].hidden, 4);
  free(out);
  /* before version 3 "late" is not read: left zero */
  assert_string_equal(read_list(doc, 2, &out, &n, &checked), "");
  assert_int_equal(out[0].late, 0);
  free(out);
  free(text);
  cb_dungeon_free(last);
  last = NULL;
}

static void names_what_is_wrong(void **state) {
  (void)state;
  static const struct {
    const char *doc, *msg;
  } bad[] = {
      {"{}", "f.json: proc: missing field 'items'"},
      {"{\"items\": [1]}", "f.json: proc.items[0]: must be an object"},
      {"{\"items\": [{\"n\":1,\"at\":0,\"colour\":\"red\"}, {\"at\":0}]}",
       "f.json: proc.items[1]: missing field 'n'"},
      {"{\"items\": [{\"n\":51,\"at\":0}]}", "f.json: proc.items[0]: 'n' is 51; it must be 1 to 50"},
      {"{\"items\": [{\"n\":1,\"at\":0,\"colour\":\"green\"}]}",
       "f.json: proc.items[0]: unknown colour 'green'"},
      {"{\"items\": [{\"n\":1,\"at\":0,\"colour\":\"red\",\"marks\":[\"d\"]}]}",
       "f.json: proc.items[0]: 'marks'[0] is not one of the names model.md lists"},
      {"{\"items\": [{\"n\":1,\"at\":0,\"colour\":\"red\",\"word\":\"toolong\"}]}",
       "f.json: proc.items[0]: 'word' is longer than 5 bytes or holds a NUL"},
      {"{\"items\": [{\"n\":2,\"at\":0,\"colour\":\"red\"}]}", "f.json: proc.items[0]: 'n' must be odd"},
      {"{\"items\": [{},{},{},{}]}", "f.json: proc: 'items' has more than 3 entries"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    rec *out = NULL;
    int n = -1, checked = 0;
    assert_string_equal(read_list(bad[i].doc, 3, &out, &n, &checked), bad[i].msg);
    assert_int_equal(n, 0);
    assert_null(out);
  }
  cb_dungeon_free(last);
  last = NULL;
}

/* ---- the kinds a procedure's geometry needs ---- */

typedef struct leg {
  int roll;
} leg;
typedef struct shape {
  bool open;
  int check; /* 0: written null */
  double at[2];
  int npath, nside, nrolls, nlegs;
  double (*path)[2];
  double side[2][2];
  int *rolls;
  leg *legs;
  bool ladder; /* written by name */
} shape;

static const cb_json_field leg_fields[] = {CB_JF_INT_OF(leg, roll, "roll", 1, 6, CB_JF_REQUIRED, 1)};
static const cb_json_list legs = {"legs", 4, 0, leg_fields, 1, sizeof(leg), NULL};
static const char *way_name(int ladder) { return ladder ? "ladder" : "stairs"; }
static int way_parse(const char *s) {
  return strcmp(s, "ladder") == 0 ? 1 : strcmp(s, "stairs") == 0 ? 0 : -1;
}
static const cb_json_field shape_fields[] = {
    CB_JF_BOOL_OF(shape, open, "open"),
    CB_JF_INT_OF(shape, check, "check", 1, 6, CB_JF_REQUIRED | CB_JF_ZERO_NULL, 1),
    CB_JF_POINT_OF(shape, at, "at", CB_JF_REQUIRED),
    CB_JF_POINTS_OF(shape, path, npath, "path", 1, 5, CB_JF_REQUIRED | CB_JF_LEGS),
    CB_JF_POINTS_OF(shape, side, nside, "side", 2, 2, CB_JF_INLINE | CB_JF_OMIT_NULL),
    CB_JF_INTS_OF(shape, rolls, nrolls, "rolls", 1, 10, 3),
    CB_JF_LIST_OF(shape, legs, nlegs, &legs),
    {.key = "mark",
     .kind = CB_JF_NAME,
     .offset = offsetof(shape, ladder),
     .flags = CB_JF_IN_BOOL,
     .hi = 8,
     .name = way_name,
     .parse = way_parse,
     .choices = "stairs or ladder"},
};
static const cb_json_list shapes = {"shapes", 2, 1, shape_fields, 8, sizeof(shape), NULL};

/* Reads {"shapes": [text]}: the message, "" when it read, the first record into *out. */
static const char *read_shape(const char *text, shape *out) {
  static cb_error err;
  err = (cb_error){0};
  char doc[1024];
  snprintf(doc, sizeof doc, "{\"shapes\": [%s]}", text);
  json_error_t jerr;
  json_t *root = json_loads(doc, 0, &jerr);
  assert_non_null(root);
  cb_json_reader r = {"f.json", &err, cb_dungeon_new("test", 1), CB_OK, true, 3, NULL};
  int n = 0;
  shape *items = cb_jr_list(&r, root, "proc", &shapes, NULL, NULL, &n);
  json_decref(root);
  if (items) *out = items[0];
  cb_dungeon_free(last);
  last = r.d;
  return r.st == CB_OK ? "" : err.msg;
}

static void points_flags_and_nested_lists(void **state) {
  (void)state;
  double path[3][2] = {{0, 0}, {0, 10.004}, {-5.5, 10}};
  int rolls[2] = {3, 10};
  leg lg[2] = {{2}, {6}};
  shape in[2] = {{true, 0, {1, 2}, 3, 0, 2, 2, path, {{0}}, rolls, lg, true},
                 {false, 4, {0, 0}, 1, 2, 0, 0, path, {{1, 1}, {1, 3}}, NULL, NULL, false}};
  cb_test_buf b = {0};
  cb_jw *w = cb_jw_new((cb_sink){&b, cb_test_buf_write});
  cb_jw_list(w, &shapes, in, 2);
  assert_int_equal(cb_jw_finish(w, NULL), CB_OK);
  cb_test_buf_write(&b, (const unsigned char *)"", 1);
  assert_string_equal(b.data,
                      "[{\"open\":true,\"check\":null,\"at\":[1.0,2.0],\"path\":[[0.0,0.0],[0.0,10.0],"
                      "[-5.5,10.0]],\"rolls\":[3,10],\"legs\":[{\"roll\":2},{\"roll\":6}],\"mark\":"
                      "\"ladder\"},{\"open\":false,\"check\":4,\"at\":[0.0,0.0],\"path\":[[0.0,0.0]],"
                      "\"side\":[[1.0,1.0],[1.0,3.0]],\"rolls\":[],\"legs\":[],\"mark\":\"stairs\"}]");
  /* each read back */
  char one[512];
  const char *second = strstr(b.data, "},{\"open\"") + 2;
  snprintf(one, sizeof one, "%.*s", (int)(second - 1 - (b.data + 1)), b.data + 1);
  shape out;
  assert_string_equal(read_shape(one, &out), "");
  assert_true(out.open && out.ladder);
  assert_int_equal(out.check, 0);
  assert_int_equal(out.npath, 3), assert_true(out.path[1][1] == 10 && out.path[2][0] == -5.5);
  assert_int_equal(out.nside, 0);
  assert_int_equal(out.nrolls, 2), assert_int_equal(out.rolls[1], 10);
  assert_int_equal(out.nlegs, 2), assert_int_equal(out.legs[1].roll, 6);
  snprintf(one, sizeof one, "%.*s", (int)strlen(second) - 1, second);
  assert_string_equal(read_shape(one, &out), "");
  assert_true(!out.open && !out.ladder);
  assert_int_equal(out.check, 4);
  assert_int_equal(out.nside, 2), assert_true(out.side[1][1] == 3);
  free(b.data);
  /* absent: false, no side, no rolls, no legs, stairs */
  assert_string_equal(read_shape("{\"check\":null,\"at\":[0,0],\"path\":[[0,0]]}", &out), "");
  assert_true(!out.open && !out.ladder && out.nside == 0 && out.nrolls == 0 && out.nlegs == 0);
  static const struct {
    const char *doc, *msg;
  } bad[] = {
      {"{\"open\":1,\"check\":1,\"at\":[0,0],\"path\":[[0,0]]}", "'open' must be true or false"},
      {"{\"at\":[0,0],\"path\":[[0,0]]}", "missing field 'check'"},
      {"{\"check\":0,\"at\":[0,0],\"path\":[[0,0]]}", "'check' is 0; it must be 1 to 6"},
      {"{\"check\":1,\"path\":[[0,0]]}", "a point must be [x, y] in feet"},
      {"{\"check\":1,\"at\":[0,1e9],\"path\":[[0,0]]}", "a point lies outside +-1e+08 ft"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[]}", "'path' needs at least 1 points"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0],[1,1]]}", "'path': legs must run north-south or east-west"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0]],\"side\":[[0,0]]}", "'side' needs at least 2 points"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0]],\"side\":[[0,0],[0,1],[0,2]]}",
       "'side' has more than 2 entries"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0]],\"rolls\":[11]}",
       "'rolls' must hold whole numbers from 1 to 10"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0]],\"legs\":[{\"roll\":7}]}",
       "proc.shapes[0].legs[0]: 'roll' is 7; it must be 1 to 6"},
      {"{\"check\":1,\"at\":[0,0],\"path\":[[0,0]],\"mark\":\"rope\"}",
       "unknown mark 'rope' (stairs or ladder)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *msg = read_shape(bad[i].doc, &out);
    if (!strstr(msg, bad[i].msg)) fail_msg("%s: '%s', not '%s'", bad[i].doc, msg, bad[i].msg);
    if (strncmp(msg, "f.json: proc.shapes[0]", 22) != 0) fail_msg("%s: '%s' is not placed", bad[i].doc, msg);
  }
  cb_dungeon_free(last);
  last = NULL;
}

/* ---- pairs of ints ---- */

typedef struct hop {
  int level, room, other; /* [level, room] is "at"; other lies between them, untouched */
  int (*cells)[2];
  int ncells;
} hop;
enum { LEVELS = 1, ROOMS = 2, CELLS = 3 };
static const cb_json_field hop_fields[] = {
    CB_JF_PAIR_OF(hop, level, room, "at", "level", "room", 1, LEVELS, 1, ROOMS, CB_JF_REQUIRED),
    CB_JF_PAIRS_OF(hop, cells, ncells, "cells", "row", "column", 0, ROOMS, 1, LEVELS, CELLS, 0),
};
static const cb_json_list hops = {"hops", 2, 1, hop_fields, 2, sizeof(hop), NULL};

/* Reads {"hops": [text]} with 3 levels, 10 rooms, 2 cells at most: the message, "" when it read. */
static const char *read_hop(const char *text, hop *out) {
  static cb_error err;
  err = (cb_error){0};
  char doc[512];
  snprintf(doc, sizeof doc, "{\"hops\": [%s]}", text);
  json_error_t jerr;
  json_t *root = json_loads(doc, 0, &jerr);
  assert_non_null(root);
  cb_json_reader r = {"f.json", &err, cb_dungeon_new("test", 1), CB_OK, true, 3, NULL};
  const long vars[] = {[LEVELS - 1] = 3, [ROOMS - 1] = 10, [CELLS - 1] = 2};
  int n = 0;
  hop *items = cb_jr_list(&r, root, "proc", &hops, vars, NULL, &n);
  json_decref(root);
  if (items) *out = items[0];
  cb_dungeon_free(last);
  last = r.d;
  return r.st == CB_OK ? "" : err.msg;
}

static void pairs_of_ints(void **state) {
  (void)state;
  int cells[2][2] = {{0, 3}, {10, 1}};
  hop in[2] = {{3, 10, 99, cells, 2}, {1, 1, 0, NULL, 0}};
  cb_test_buf b = {0};
  cb_jw *w = cb_jw_new((cb_sink){&b, cb_test_buf_write});
  cb_jw_list(w, &hops, in, 2);
  assert_int_equal(cb_jw_finish(w, NULL), CB_OK);
  cb_test_buf_write(&b, (const unsigned char *)"", 1);
  assert_string_equal(b.data, "[{\"at\":[3,10],\"cells\":[[0,3],[10,1]]},{\"at\":[1,1],\"cells\":[]}]");
  free(b.data);
  hop out = {0};
  assert_string_equal(read_hop("{\"at\":[3,10],\"cells\":[[0,3],[10,1]]}", &out), "");
  assert_int_equal(out.level, 3), assert_int_equal(out.room, 10), assert_int_equal(out.other, 0);
  assert_int_equal(out.ncells, 2), assert_int_equal(out.cells[1][0], 10),
      assert_int_equal(out.cells[1][1], 1);
  assert_string_equal(read_hop("{\"at\":[1,1]}", &out), ""); /* "cells" may be left out */
  assert_int_equal(out.ncells, 0);
  static const struct {
    const char *doc, *msg;
  } bad[] = {
      {"{}", "missing field 'at'"},
      {"{\"at\":5}", "'at'"},
      {"{\"at\":[0,1]}", "'at' must be [level, room] with a level 1 to 3 and a room 1 to 10"},
      {"{\"at\":[4,1]}", "'at' must be [level, room]"},
      {"{\"at\":[1,11]}", "'at' must be [level, room]"},
      {"{\"at\":[1,0]}", "'at' must be [level, room]"},
      {"{\"at\":[1]}", "'at' must be [level, room]"},
      {"{\"at\":[1,2,3]}", "'at' must be [level, room]"},
      {"{\"at\":[1,2.5]}", "'at' must be [level, room]"},
      {"{\"at\":[1,1],\"cells\":[[0,1],[11,1]]}",
       "'cells'[1] must be [row, column] with a row 0 to 10 and a column 1 to 3"},
      {"{\"at\":[1,1],\"cells\":[[0,4]]}", "'cells'[0] must be [row, column]"},
      {"{\"at\":[1,1],\"cells\":[\"x\"]}", "'cells'[0] must be [row, column]"},
      {"{\"at\":[1,1],\"cells\":[[0,1],[0,1],[0,1]]}", "'cells' has more than 2 entries"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *msg = read_hop(bad[i].doc, &out);
    if (!strstr(msg, bad[i].msg)) fail_msg("%s: '%s', not '%s'", bad[i].doc, msg, bad[i].msg);
    if (strncmp(msg, "f.json: proc.hops[0]", 20) != 0) fail_msg("%s: '%s' is not placed", bad[i].doc, msg);
  }
  cb_dungeon_free(last);
  last = NULL;
}

/* ---- a square of marks ---- */

typedef struct board {
  const char **rows;
  int nrows;
} board;
static const cb_json_field board_fields[] = {
    CB_JF_MARKS_OF(board, rows, nrows, "rows", "row", "column", 1, ". # X")};
static const cb_json_list boards = {"boards", 1, 1, board_fields, 1, sizeof(board), NULL};

/* Reads {"boards": [{"rows": text}]} with n = 3: the message, "" when it read. */
static const char *read_board(const char *text, board *out) {
  static cb_error err;
  err = (cb_error){0};
  char doc[512];
  snprintf(doc, sizeof doc, "{\"boards\": [{\"rows\": %s}]}", text);
  json_error_t jerr;
  json_t *root = json_loads(doc, JSON_ALLOW_NUL, &jerr);
  assert_non_null(root);
  cb_json_reader r = {"f.json", &err, cb_dungeon_new("test", 1), CB_OK, true, 3, NULL};
  const long vars[] = {3};
  int n = 0;
  board *items = cb_jr_list(&r, root, "proc", &boards, vars, NULL, &n);
  json_decref(root);
  if (items) *out = items[0];
  cb_dungeon_free(last);
  last = r.d;
  return r.st == CB_OK ? "" : err.msg;
}

static void squares_of_marks(void **state) {
  (void)state;
  const char *rows[] = {".#X", "...", "XX#"};
  board in = {rows, 3};
  cb_test_buf b = {0};
  cb_jw *w = cb_jw_new((cb_sink){&b, cb_test_buf_write});
  cb_jw_list(w, &boards, &in, 1);
  assert_int_equal(cb_jw_finish(w, NULL), CB_OK);
  cb_test_buf_write(&b, (const unsigned char *)"", 1);
  assert_string_equal(b.data, "[{\"rows\":[\".#X\",\"...\",\"XX#\"]}]");
  free(b.data);
  board out = {0};
  assert_string_equal(read_board("[\".#X\", \"...\", \"XX#\"]", &out), "");
  assert_int_equal(out.nrows, 3);
  assert_string_equal(out.rows[0], ".#X"), assert_string_equal(out.rows[2], "XX#");
  static const struct {
    const char *doc, *msg;
  } bad[] = {
      {"5", "'rows'"},
      {"[\"...\", \"...\"]", "'rows' must hold 3 rows"},
      {"[\"...\", \"...\", \"...\", \"...\"]", "'rows' has more than 3 entries"},
      {"[\"...\", \"..\", \"...\"]", "row 2 must be a string of 3 marks"},
      {"[\"...\", \"....\", \"...\"]", "row 2 must be a string of 3 marks"},
      {"[\"...\", 5, \"...\"]", "row 2 must be a string of 3 marks"},
      {"[\"...\", \".\\u0000.\", \"...\"]", "row 2 must be a string of 3 marks"},
      {"[\"...\", \"...\", \".Z.\"]", "row 3, column 2: 'Z' is not one of . # X"},
      {"[\"...\", \"...\", \". .\"]", "row 3, column 2: ' ' is not one of . # X"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *msg = read_board(bad[i].doc, &out);
    if (!strstr(msg, bad[i].msg)) fail_msg("%s: '%s', not '%s'", bad[i].doc, msg, bad[i].msg);
    if (strncmp(msg, "f.json: proc.boards[0]", 22) != 0) fail_msg("%s: '%s' is not placed", bad[i].doc, msg);
  }
  cb_dungeon_free(last);
  last = NULL;
}

/* ---- a procedure with a part of its own ---- */

static int parts_read;
static bool has_extra(const cb_dungeon *d) { return d->seed != 0; }
static void write_extra(cb_jw *w, const cb_dungeon *d) {
  (void)d;
  cb_jw_put(w, "{\"x\":1}");
}
static cb_status read_extra(cb_json_reader *r, json_t *part) {
  parts_read++;
  return cb_jr_int(r, part, "extra", "x", 1, 1, 1, 0) == 1 ? CB_OK : r->st;
}
static const cb_proc_part parts[] = {{"extra", has_extra, write_extra, read_extra}};
static const cb_proc_io fake_io = {.generator = "fake", .parts = parts, .nparts = 1};
static const cb_proc_io *find(const char *g) { return strcmp(g, "fake") == 0 ? &fake_io : NULL; }
static const char *names(char *buf, size_t cap) { return snprintf(buf, cap, "fake"), buf; }
static bool records(const char *g, const char *key) { return (void)g, (void)key, false; }
static const cb_json_procs procs = {find, names, records};

static void parts_are_the_procedures(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("fake", 5);
  cb_dungeon_add_level(d, 1, "L");
  cb_dungeon_add_room(d, 1, 0, 0);
  cb_test_buf b = {0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, &procs, (cb_sink){&b, cb_test_buf_write}, &err), CB_OK);
  cb_test_buf_write(&b, (const unsigned char *)"", 1);
  const char *at = strstr(b.data, "\"extra\": {\"x\":1},\n \"procedure\": {}");
  assert_non_null(at);
  cb_dungeon *back = NULL;
  parts_read = 0;
  assert_int_equal(cb_json_parse(b.data, strlen(b.data), "p.json", &procs, &back, &err), CB_OK);
  assert_int_equal(parts_read, 1);
  cb_dungeon_free(back);
  memcpy(strstr(b.data, "\"x\":1") + 4, "2", 1);
  assert_int_equal(cb_json_parse(b.data, strlen(b.data), "p.json", &procs, &back, &err), CB_EINPUT);
  assert_string_equal(err.msg, "p.json: extra: 'x' is 2; it must be 1 to 1");
  memcpy(strstr(b.data, "{\"x\":2}"), "[3,4,5]", 7);
  err = (cb_error){0};
  assert_int_equal(cb_json_parse(b.data, strlen(b.data), "p.json", &procs, &back, &err), CB_EINPUT);
  assert_string_equal(err.msg, "p.json: 'extra' must be an object");
  free(b.data);
  cb_dungeon_free(d);
}

/* ---- two forms of one record, numbered from 1, trimmed and fixed arrays, a way ---- */

typedef struct twin {
  int id;     /* from 0; 1-based in JSON */
  int roll;   /* the long form only */
  int room;   /* left out when 0 */
  int ids[2]; /* written up to the last non-zero */
  double way[2];
  double stub[2][2]; /* when room is 0 */
} twin;
static bool twin_has_room(const void *t) { return ((const twin *)t)->room != 0; }
static const cb_json_field twin_fields[] = {
    CB_JF_INT_OF(twin, id, "id", 1, 9, CB_JF_REQUIRED | CB_JF_FROM1, 1),
    CB_JF_INT_OF(twin, roll, "roll", 1, 6, CB_JF_REQUIRED | CB_JF_LONG, 1),
    CB_JF_INT_OF(twin, room, "room", 1, 99, CB_JF_OMIT_NULL, 0),
    CB_JF_TRIM_OF(twin, ids, "ids", 0, 99, 2, "name rooms"),
    CB_JF_DIR_OF(twin, way, "way"),
    CB_JF_FIXED_OF(twin, stub, "stub", 2, CB_JF_UNBOUNDED | CB_JF_AS_WRITTEN, twin_has_room),
};
enum { TWIN_NF = sizeof twin_fields / sizeof *twin_fields };
static const cb_json_list twins[2] = {{"twins", 4, 1, twin_fields, TWIN_NF, sizeof(twin), NULL, false},
                                      {"twins", 4, 1, twin_fields, TWIN_NF, sizeof(twin), NULL, true}};

/* Reads {"twins": list} in the form given: "" or the message; the first into *out. */
static const char *read_twins(const char *items, bool brief, twin *out) {
  static cb_error err;
  err = (cb_error){0};
  char doc[512];
  snprintf(doc, sizeof doc, "{\"twins\": %s}", items);
  json_t *root = json_loads(doc, 0, NULL);
  assert_non_null(root);
  cb_json_reader r = {"f.json", &err, cb_dungeon_new("test", 1), CB_OK, true, 3, NULL};
  int n = 0;
  twin *got = cb_jr_list(&r, root, "", &twins[brief], NULL, NULL, &n);
  json_decref(root);
  if (got && out) *out = got[0];
  cb_dungeon_free(r.d);
  return r.st == CB_OK ? "" : err.msg;
}

static void two_forms_and_fixed_arrays(void **state) {
  (void)state;
  const twin in[2] = {{0, 5, 7, {3, 0}, {0.123456, -1}, {{0}}},
                      {2, 6, 0, {0, 4}, {1, 0}, {{1, 2}, {3e9, 4}}}};
  char *lng = write_items(&twins[0], in, 2), *brief = write_items(&twins[1], in, 2);
  assert_string_equal(
      lng, "[{\"id\":1,\"roll\":5,\"room\":7,\"ids\":[3],\"way\":[0.1235,-1.0]},"
           "{\"id\":3,\"roll\":6,\"ids\":[0,4],\"way\":[1.0,0.0],\"stub\":[[1.0,2.0],[3000000000.0,4.0]]}]");
  assert_string_equal(brief,
                      "[{\"id\":1,\"room\":7,\"ids\":[3],\"way\":[0.1235,-1.0]},"
                      "{\"id\":3,\"ids\":[0,4],\"way\":[1.0,0.0],\"stub\":[[1.0,2.0],[3000000000.0,4.0]]}]");
  twin out[2] = {0};
  assert_string_equal(read_twins(lng, false, &out[0]), "");
  assert_int_equal(out[0].id, 0), assert_int_equal(out[0].roll, 5), assert_int_equal(out[0].ids[0], 3);
  /* the brief form reads back without its long fields, and agrees with the long one in the others */
  assert_string_equal(read_twins(brief, true, &out[1]), "");
  assert_int_equal(out[1].roll, 0);
  assert_false(cb_jf_same(twin_fields, TWIN_NF, &out[0], &out[1], false));
  assert_true(cb_jf_same(twin_fields, TWIN_NF, &out[0], &out[1], true));
  out[1].ids[1] = 1;
  assert_false(cb_jf_same(twin_fields, TWIN_NF, &out[0], &out[1], true));
  /* the stub is read only where it is written: a door with a room ignores it */
  assert_string_equal(read_twins("[{\"id\":1,\"roll\":1,\"room\":2,\"way\":[0,1],\"stub\":5}]", false, NULL),
                      "");
  free(lng), free(brief);
  static const struct {
    const char *list, *msg;
  } bad[] = {
      {"[{\"id\":1,\"way\":[0,1]}]", "twins[0]: missing field 'roll'"},
      {"[{\"id\":10,\"roll\":1,\"way\":[0,1]}]", "twins[0]: 'id' is 10; it must be 1 to 9"},
      {"[{\"id\":1,\"roll\":1,\"room\":0,\"way\":[0,1]}]", "twins[0]: 'room' is 0; it must be 1 to 99"},
      {"[{\"id\":1,\"roll\":1,\"ids\":[1,2,3],\"way\":[0,1]}]", "twins[0]: 'ids' has more than 2 entries"},
      {"[{\"id\":1,\"roll\":1,\"ids\":[\"a\"],\"way\":[0,1]}]", "twins[0]: 'ids' must name rooms"},
      {"[{\"id\":1,\"roll\":1,\"way\":[0]}]", "twins[0]: 'way' must be [ux, uy]"},
      {"[{\"id\":1,\"roll\":1,\"way\":[0,1.5]}]", "twins[0]: 'way' must be a direction"},
      {"[{\"id\":1,\"roll\":1,\"way\":[0,1],\"stub\":[[1,2]]}]", "twins[0]: 'stub' needs 2 points"},
      {"[{\"id\":1,\"roll\":1,\"way\":[0,1],\"stub\":[[1,2],[3]]}]",
       "twins[0]: a point must be [x, y] in feet"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *msg = read_twins(bad[i].list, false, NULL);
    if (!strstr(msg, bad[i].msg)) fail_msg("%s: '%s', not '%s'", bad[i].list, msg, bad[i].msg);
  }
  /* the brief form does not ask for the long form's fields */
  assert_string_equal(read_twins("[{\"id\":1,\"way\":[0,1]}]", true, NULL), "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(writes_and_reads_back),
      cmocka_unit_test(names_what_is_wrong),
      cmocka_unit_test(points_flags_and_nested_lists),
      cmocka_unit_test(pairs_of_ints),
      cmocka_unit_test(squares_of_marks),
      cmocka_unit_test(parts_are_the_procedures),
      cmocka_unit_test(two_forms_and_fixed_arrays),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
