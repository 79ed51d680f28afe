/* The JSON form: write -> parse -> write gives the same bytes, seeds above
 * 2^53 travel as decimal strings, and hostile or malformed input is refused
 * with CB_EINPUT and a message naming the file and the field (or, for text
 * that is not JSON at all, the line and column). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "io/json_util.h"
#include "model/check.h"
#include "proc/dropdice/proc.h"
#include "registry/registry.h"
#include "testlib.h"

static char *to_json(const cb_dungeon *d, size_t *len) {
  cb_test_buf b = {0};
  cb_error err = {0};
  if (cb_json_write(d, cb_proc_json(), (cb_sink){&b, cb_test_buf_write}, &err) != CB_OK)
    fail_msg("write: %s", err.msg);
  if (len) *len = b.len;
  return b.data;
}

static cb_dungeon *parse_ok(const char *text, size_t len) {
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_json_parse(text, len, "t.json", cb_proc_json(), &d, &err) != CB_OK) fail_msg("parse: %s", err.msg);
  return d;
}

static void round_trip_bytes(const cb_dungeon *d) {
  size_t l1, l2;
  char *a = to_json(d, &l1);
  cb_dungeon *back = parse_ok(a, l1);
  char *b = to_json(back, &l2);
  if (l1 != l2 || memcmp(a, b, l1) != 0) fail_msg("round trip differs:\n%s\n----\n%s", a, b);
  cb_dungeon_free(back);
  free(a);
  free(b);
}

static void generated_dungeons_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < 60; i++) {
    cb_dropdice_options own = {.extra_by = i % 2 ? CB_EXTRA_BY_LENGTH : CB_EXTRA_BY_TREE};
    cb_gen_options o = {.own = &own};
    o.seed = (uint64_t)i * 7919;
    o.rooms = 1 + i * 3;
    o.faithful = i % 3 == 0;
    o.title = i % 5 == 0 ? "Caf\xc3\xa9 \"des\" D\xc3\xa9s \\ \n\t<&>" : NULL;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
    round_trip_bytes(d);
    cb_dungeon_free(d);
  }
}

/* A dungeon using every tag, flag and kind, two levels, a way out, options of
 * each kind and awkward strings. */
static void hand_made_dungeon_round_trips(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("cards", 12345);
  cb_dungeon_add_level(d, 1, "Upper \"halls\"");
  cb_dungeon_add_level(d, 2, "Lower \xe2\x80\x94 deeps");
  cb_dungeon_set_title(d, "T\xc3\xadtulo / \\ \x01");
  cb_dungeon_set_option(d, "rooms", "5", true);
  cb_dungeon_set_option(d, "shape", "full", false);
  cb_dungeon_set_option(d, "length-unit", "0.25", true);
  cb_dungeon_set_flag(d, "faithful");
  for (int i = 0; i < 5; i++) {
    cb_room *r = cb_dungeon_add_room_id(d, 10 + i, i < 3 ? 1 : 2, i * 12.34, -i * 0.01);
    r->number = i + 1;
    r->tags = (1u << (i * 2)) | (1u << (i * 2 + 1) % CB_TAG_COUNT);
    r->value = i == 4 ? CB_NO_VALUE : i;
    r->card = i == 0 ? "JK" : i == 1 ? "9S" : NULL;
    r->text = i == 2 ? "A room with \"quotes\", \xe2\x80\x9csmart\xe2\x80\x9d ones and a\nnewline." : NULL;
  }
  cb_dungeon_add_key(d, cb_dungeon_room(d, 11), "K1");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 11), "gold key");
  for (int k = 0; k < CB_PASSAGE_KIND_COUNT; k++) {
    cb_passage *p = cb_dungeon_add_passage(d, 10 + k % 5, k == 6 ? 0 : 10 + (k + 1) % 5, (cb_passage_kind)k);
    p->flags = (1u << k) | (k + 3 < CB_FLAG_COUNT ? 1u << (k + 3) : 0);
    if (p->flags & CB_FLAG_LOCKED) p->lock = k % 2 ? "K1" : "gold key";
    if (k % 2) p->length_ft = 30.5 * k;
  }
  cb_dungeon_log(d, "Line one with \"quotes\".");
  cb_dungeon_log(d, "Line two \xc3\xa9.");
  cb_error err = {0};
  assert_int_equal(cb_check_structure(d, &err), CB_OK);
  round_trip_bytes(d);
  size_t len;
  char *text = to_json(d, &len);
  cb_dungeon *back = parse_ok(text, len);
  assert_int_equal(back->nrooms, 5);
  assert_int_equal(back->npassages, CB_PASSAGE_KIND_COUNT);
  for (int i = 0; i < 5; i++) {
    assert_int_equal(back->rooms[i].id, d->rooms[i].id);
    assert_int_equal(back->rooms[i].number, d->rooms[i].number);
    assert_int_equal(back->rooms[i].tags, d->rooms[i].tags);
    assert_int_equal(back->rooms[i].value, d->rooms[i].value);
    assert_int_equal(back->rooms[i].level, d->rooms[i].level);
  }
  for (int k = 0; k < CB_PASSAGE_KIND_COUNT; k++) {
    assert_int_equal(back->passages[k].kind, k);
    assert_int_equal(back->passages[k].flags, d->passages[k].flags);
    assert_true(back->passages[k].length_ft == d->passages[k].length_ft);
  }
  assert_string_equal(back->title, d->title);
  assert_string_equal(back->rooms[2].text, d->rooms[2].text);
  /* one room, passage and log line per line */
  assert_non_null(strstr(text, "\n  {\"id\": 10,") ? strstr(text, "\n  {\"id\": 10,")
                                                   : strstr(text, "\n  {\"id\":10,"));
  cb_dungeon_free(back);
  free(text);
  cb_dungeon_free(d);
}

/* A hand-made dungeon of any generator may come without its procedure
 * ("procedure": {}); writing it again must not need one. */
static void dungeons_without_a_procedure(void **state) {
  (void)state;
  const char *gens[] = {"dropdice", "cards", "leximorph", "preconnect", "battleships"};
  for (size_t i = 0; i < sizeof gens / sizeof *gens; i++) {
    char doc[1024];
    snprintf(doc, sizeof doc,
             "{\"format\":\"crawlbook/1\",\"generator\":\"%s\",\"seed\":3,\"title\":\"Hand-made\","
             "\"levels\":[{\"id\":1,\"name\":\"L\"}],\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0},"
             "{\"id\":2,\"level\":1,\"x\":30,\"y\":0}],\"passages\":[{\"id\":1,\"from\":1,\"to\":2,"
             "\"kind\":\"door\"}],\"procedure\":{}}",
             gens[i]);
    cb_dungeon *d = parse_ok(doc, strlen(doc));
    size_t len;
    char *text = to_json(d, &len);
    if (!strstr(text, "\"procedure\": {}"))
      fail_msg("%s: the procedure is not written empty:\n%s", gens[i], text);
    round_trip_bytes(d);
    free(text);
    cb_dungeon_free(d);
  }
}

static void seeds_above_2_pow_53_are_strings(void **state) {
  (void)state;
  static const struct {
    uint64_t seed;
    const char *text;
  } cases[] = {{0, "\"seed\": 0,"},
               {9007199254740991ull, "\"seed\": 9007199254740991,"},
               {9007199254740992ull, "\"seed\": \"9007199254740992\","},
               {9007199254740993ull, "\"seed\": \"9007199254740993\","},
               {18446744073709551615ull, "\"seed\": \"18446744073709551615\","}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cb_gen_options o = {0};
    o.seed = cases[i].seed;
    o.rooms = 3;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
    size_t len;
    char *text = to_json(d, &len);
    if (!strstr(text, cases[i].text)) fail_msg("seed %s not written as %s", cases[i].text, cases[i].text);
    cb_dungeon *back = parse_ok(text, len);
    assert_true(back->seed == cases[i].seed);
    cb_dungeon_free(back);
    cb_dungeon_free(d);
    free(text);
  }
}

/* ---- hostile input ---- */

#define HEAD                                                                                                 \
  "{\"format\":\"crawlbook/"                                                                                 \
  "1\",\"generator\":\"dropdice\",\"seed\":1,\"title\":\"T\",\"levels\":[{\"id\":1,\"name\":\"L\"}],"
#define R1 "{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":[],\"keys\":[\"K1\"]}"
#define R2 "{\"id\":2,\"level\":1,\"x\":10,\"y\":0,\"tags\":[],\"keys\":[]}"
#define ROOMS "\"rooms\":[" R1 "," R2 "],"
#define P1 "{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"corridor\",\"flags\":[\"locked\"],\"lock\":\"K1\"}"
#define PASSAGES "\"passages\":[" P1 "]"
#define GOOD HEAD ROOMS PASSAGES "}"

static void expect_bad(const char *text, size_t len, const char *what, const char *field) {
  cb_dungeon *d = (cb_dungeon *)&len; /* any non-NULL value: a failed parse must clear it */
  cb_error err = {0};
  cb_status st = cb_json_parse(text, len, "bad.json", cb_proc_json(), &d, &err);
  if (st != CB_EINPUT) fail_msg("%s: status %d (%s), want CB_EINPUT", what, st, err.msg);
  assert_null(d);
  if (strncmp(err.msg, "bad.json:", 9) != 0 || !strstr(err.msg, field))
    fail_msg("%s: message '%s' does not name the file and '%s'", what, err.msg, field);
}

static void bad(const char *text, const char *what, const char *field) {
  expect_bad(text, strlen(text), what, field);
}

static void good_document_parses(void **state) {
  (void)state;
  cb_dungeon *d = parse_ok(GOOD, strlen(GOOD));
  assert_int_equal(d->nrooms, 2);
  assert_string_equal(d->passages[0].lock, "K1");
  cb_dungeon_free(d);
}

static void truncated_text(void **state) {
  (void)state;
  const char *good = GOOD;
  size_t n = strlen(good);
  for (size_t cut = 0; cut < n; cut++)
    expect_bad(good, cut, "truncated", "bad.json:");
  /* the file's own output, cut anywhere in its first lines */
  cb_gen_options o = {0};
  o.rooms = 4;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
  size_t len;
  char *text = to_json(d, &len);
  for (size_t cut = 0; cut + 1 < len; cut += 7)
    expect_bad(text, cut, "truncated output", "bad.json:");
  free(text);
  cb_dungeon_free(d);
}

static void not_json_or_not_an_object(void **state) {
  (void)state;
  bad("", "empty", "bad.json:");
  bad("   \n", "blank", "bad.json:");
  bad("[]", "an array", "top level");
  bad("[1,2]", "an array", "top level");
  bad("42", "a number", "bad.json:1:");
  bad("\"x\"", "a string", "bad.json:1:");
  bad("null", "null", "bad.json:1:");
  bad(GOOD " {}", "two documents", "bad.json:1:");
  bad("{\"format\":\"crawlbook/1\",}", "a trailing comma", "bad.json:1:");
  bad("\xff\xfe{}", "not UTF-8", "bad.json:1:");
  bad("{\"format\":\"crawlbook/1\",\"format\":\"crawlbook/1\"}", "a duplicate key", "duplicate");
}

static void deep_nesting(void **state) {
  (void)state;
  enum { DEPTH = 100000 };
  char *deep = malloc(2 * DEPTH + 1);
  memset(deep, '[', DEPTH);
  memset(deep + DEPTH, ']', DEPTH);
  deep[2 * DEPTH] = '\0';
  bad(deep, "100000 nested arrays", "bad.json:1:");
  /* nested where a string belongs */
  char doc[4096];
  char nest[1100];
  memset(nest, '[', 500);
  memset(nest + 500, ']', 500);
  nest[1000] = '\0';
  snprintf(doc, sizeof doc, "{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"title\":%s}",
           nest);
  bad(doc, "nested title", "'title'");
  free(deep);
}

static void header_fields(void **state) {
  (void)state;
  bad("{\"generator\":\"dropdice\"}", "missing format", "'format'");
  bad("{\"format\":\"crawlbook/4\",\"generator\":\"dropdice\"}", "format 4", "'format'");
  bad("{\"format\":1}", "format a number", "'format'");
  bad("{\"format\":\"crawlbook/1\"}", "missing generator", "'generator'");
  bad("{\"format\":\"crawlbook/1\",\"generator\":\"dungeonomicon\"}", "unknown generator", "'generator'");
  bad("{\"format\":\"crawlbook/1\",\"generator\":[\"dropdice\"]}", "generator an array", "'generator'");
  const char *seeds[] = {"",
                         "\"seed\":-1,",
                         "\"seed\":1.5,",
                         "\"seed\":\"abc\",",
                         "\"seed\":\"-1\",",
                         "\"seed\":\" 1\",",
                         "\"seed\":\"18446744073709551616\",",
                         "\"seed\":\"1x\",",
                         "\"seed\":1e30,",
                         "\"seed\":null,",
                         "\"seed\":\"\","};
  for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
    char doc[512];
    snprintf(doc, sizeof doc, "{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",%s\"levels\":[]}",
             seeds[i]);
    bad(doc, seeds[i], "'seed'");
  }
  bad("{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":99999999999999999999999}",
      "seed too big", "bad.json:1:");
  bad("{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"title\":5}", "title a number",
      "'title'");
  bad(HEAD ROOMS PASSAGES ",\"options\":[]}", "options an array", "'options'");
  bad(HEAD ROOMS PASSAGES ",\"options\":{\"rooms\":{}}}", "an option an object", "options");
  bad(HEAD ROOMS PASSAGES ",\"options\":{\"rooms\":[1]}}", "an option an array", "options");
}

static void levels_rooms_passages(void **state) {
  (void)state;
  char big[400];
  memset(big, 'x', 300);
  big[300] = '\0';
  char doc[1024];
  snprintf(doc, sizeof doc,
           "{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"title\":\"%s\"}", big);
  bad(doc, "a 300-byte title", "'title'");
  static const struct {
    const char *text, *what, *field;
  } cases[] = {
      {"{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1," ROOMS PASSAGES "}", "no levels",
       "'levels'"},
      {"{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"levels\":[]," ROOMS PASSAGES "}",
       "empty levels", "'levels'"},
      {"{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"levels\":{}," ROOMS PASSAGES "}",
       "levels an object", "'levels'"},
      {"{\"format\":\"crawlbook/"
       "1\",\"generator\":\"dropdice\",\"seed\":1,\"levels\":[{\"name\":\"L\"}]," ROOMS PASSAGES "}",
       "a level without id", "levels[0]"},
      {"{\"format\":\"crawlbook/1\",\"generator\":\"dropdice\",\"seed\":1,\"levels\":[1]," ROOMS PASSAGES "}",
       "a level a number", "levels[0]"},
      {HEAD PASSAGES "}", "no rooms", "'rooms'"},
      {HEAD "\"rooms\":\"many\"," PASSAGES "}", "rooms a string", "'rooms'"},
      {HEAD "\"rooms\":[7]," PASSAGES "}", "a room a number", "rooms[0]"},
      {HEAD "\"rooms\":[{\"level\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "a room without id",
       "rooms[0]: missing field 'id'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"y\":0}]," PASSAGES "}", "a room without x", "'x'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0}]," PASSAGES "}", "a room without y", "'y'"},
      {HEAD "\"rooms\":[{\"id\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "a room without level", "'level'"},
      {HEAD "\"rooms\":[{\"id\":\"1\",\"level\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "id a string", "'id'"},
      {HEAD "\"rooms\":[{\"id\":1.5,\"level\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "id 1.5", "'id'"},
      {HEAD "\"rooms\":[{\"id\":0,\"level\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "id 0", "'id'"},
      {HEAD "\"rooms\":[{\"id\":99999999999,\"level\":1,\"x\":0,\"y\":0}]," PASSAGES "}", "a huge id",
       "'id'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":\"0\",\"y\":0}]," PASSAGES "}", "x a string", "'x'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":1e300,\"y\":0}]," PASSAGES "}", "x 1e300", "'x'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":-1e12}]," PASSAGES "}", "y -1e12", "'y'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":1e999,\"y\":0}]," PASSAGES "}", "x overflows",
       "bad.json:1:"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"value\":1e9}]," PASSAGES "}", "value 1e9",
       "'value'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"value\":-3}]," PASSAGES "}", "value -3",
       "'value'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":2,\"x\":0,\"y\":0}],\"passages\":[]}", "a level not in levels",
       "level 2"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":\"goal\"}],\"passages\":[]}",
       "tags a string", "'tags'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":[\"gaol\"]}],\"passages\":[]}",
       "unknown tag", "'tags'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":[1]}],\"passages\":[]}",
       "a tag a number", "'tags'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"keys\":[1]}],\"passages\":[]}",
       "a key a number", "'keys'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"keys\":[\"\"]}],\"passages\":[]}",
       "an empty key", "'keys'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"keys\":\"K1\"}],\"passages\":[]}",
       "keys a string", "'keys'"},
      {HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"text\":[]}],\"passages\":[]}",
       "text an array", "'text'"},
      {HEAD
       "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"card\":\"a very long card\"}],\"passages\":[]}",
       "a long card", "'card'"},
      {HEAD "\"rooms\":[" R1 "," R1 "]," PASSAGES "}", "duplicate room ids", "not unique"},
      {HEAD "\"rooms\":[" R1 ",{\"id\":2,\"level\":1,\"x\":10,\"y\":0,\"keys\":[\"K1\"]}]," PASSAGES "}",
       "a key in two rooms", "K1"},
      {HEAD "\"rooms\":[" R1 "," R2 "]}", "no passages", "'passages'"},
      {HEAD ROOMS "\"passages\":{}}", "passages an object", "'passages'"},
      {HEAD ROOMS "\"passages\":[[1,2]]}", "a passage an array", "passages[0]"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":7,\"kind\":\"corridor\"}]}", "to a missing room",
       "'to' names room 7"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":9,\"to\":2,\"kind\":\"corridor\"}]}",
       "from a missing room", "'from' names room 9"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"to\":2,\"kind\":\"corridor\"}]}", "no from", "'from'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"kind\":\"corridor\"}]}", "no to", "'to'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":-2,\"kind\":\"corridor\"}]}", "to -2", "'to'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2}]}", "no kind", "'kind'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"hallway\"}]}", "unknown kind",
       "hallway"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":3}]}", "kind a number", "'kind'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"flags\":[\"sekret\"]}]}",
       "unknown flag", "'flags'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"flags\":\"secret\"}]}",
       "flags a string", "'flags'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"flags\":[\"locked\"]}]}",
       "locked without a lock", "'lock'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"lock\":\"K1\"}]}",
       "a lock without the flag", "'locked'"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"flags\":[\"locked\"],"
                  "\"lock\":\"K9\"}]}",
       "a lock whose key is nowhere", "K9"},
      {HEAD ROOMS
       "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"flags\":[\"locked\"],\"lock\":1}]}",
       "lock a number", "'lock'"},
      {HEAD ROOMS "\"passages\":[{\"id\":5,\"from\":1,\"to\":2,\"kind\":\"door\"}]}", "passage id 5",
       "passages[0]"},
      {HEAD ROOMS "\"passages\":[{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"door\",\"length_ft\":-5}]}",
       "a negative length", "'length_ft'"},
      {HEAD ROOMS PASSAGES ",\"log\":[1]}", "a log line a number", "log"},
      {HEAD ROOMS PASSAGES ",\"log\":\"text\"}", "log a string", "'log'"},
      {HEAD ROOMS PASSAGES ",\"procedure\":[]}", "procedure an array", "'procedure'"},
      {HEAD ROOMS PASSAGES ",\"procedure\":{\"die_ft\":10}}", "procedure without dice", "'dice'"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[{\"room\":9,\"x\":0,\"y\":0,\"value\":3}],"
       "\"delaunay\":[],\"tree\":[],\"extra\":[],\"rewrites\":[]}}",
       "a die in no room", "procedure.dice[0]"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[{\"room\":1,\"x\":0,\"y\":0,\"value\":7}],"
       "\"delaunay\":[],\"tree\":[],\"extra\":[],\"rewrites\":[]}}",
       "a die showing 7", "'value'"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[],\"delaunay\":[[1,99]],\"tree\":[],\"extra\":[],"
       "\"rewrites\":[]}}",
       "a mesh edge to no room", "'delaunay'"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[],\"delaunay\":[[1]],\"tree\":[],\"extra\":[],"
       "\"rewrites\":[]}}",
       "a mesh edge of one room", "'delaunay'"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[],\"delaunay\":[],\"tree\":[],\"extra\":[],"
       "\"rewrites\":[{\"passage\":1,\"rule\":\"weird\"}]}}",
       "an unknown rule", "weird"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":10,\"dice\":[],\"delaunay\":[],\"tree\":[],\"extra\":[],"
       "\"rewrites\":[{\"passage\":4,\"rule\":\"odd\"}]}}",
       "a rewrite of no passage", "'passage'"},
      {HEAD ROOMS PASSAGES
       ",\"procedure\":{\"die_ft\":-1,\"dice\":[],\"delaunay\":[],\"tree\":[],\"extra\":[],"
       "\"rewrites\":[]}}",
       "a negative die", "'die_ft'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    bad(cases[i].text, cases[i].what, cases[i].field);
}

static void nul_bytes(void **state) {
  (void)state;
  bad(HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"text\":\"a\\u0000b\"}],\"passages\":[]}",
      "an escaped NUL in a text", "bad.json:1:");
  bad(HEAD "\"rooms\":[{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"keys\":[\"K\\u0000\"]}],\"passages\":[]}",
      "an escaped NUL in a key", "bad.json:1:");
  bad(HEAD ROOMS PASSAGES ",\"log\":[\"a\\u0000b\"]}", "an escaped NUL in the log", "bad.json:1:");
  bad(HEAD ROOMS PASSAGES ",\"options\":{\"a\\u0000b\":1}}", "an escaped NUL in an option name",
      "bad.json:1:");
  /* a raw NUL byte inside the text */
  const char raw[] = "{\"format\":\"crawlbook/1\",\"title\":\"a\0b\"}";
  expect_bad(raw, sizeof raw - 1, "a raw NUL", "bad.json:1:");
}

static void files(void **state) {
  (void)state;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_json_read_file("/nonexistent/dir/x.json", cb_proc_json(), &d, &err), CB_EINPUT);
  assert_null(d);
  assert_non_null(strstr(err.msg, "/nonexistent/dir/x.json"));
  const char *dir = cb_test_tmpdir();
  cb_error e2 = {0};
  assert_int_equal(cb_json_read_file(dir, cb_proc_json(), &d, &e2), CB_EINPUT);
  assert_null(d);
  assert_non_null(strstr(e2.msg, dir));
  char path[4200];
  snprintf(path, sizeof path, "%s/good.json", dir);
  FILE *f = fopen(path, "wb");
  fputs(GOOD, f);
  fclose(f);
  cb_error e3 = {0};
  assert_int_equal(cb_json_read_file(path, cb_proc_json(), &d, &e3), CB_OK);
  assert_int_equal(d->nrooms, 2);
  cb_dungeon_free(d);
  cb_test_rmdir(dir);
}

typedef struct failing {
  size_t left;
} failing;

static cb_status fail_after(void *closure, const unsigned char *data, size_t len) {
  (void)data;
  failing *f = closure;
  if (len > f->left) return CB_EINTERNAL;
  f->left -= len;
  return CB_OK;
}

static void a_failing_sink_is_reported(void **state) {
  (void)state;
  cb_gen_options o = {0};
  o.rooms = 5;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
  for (size_t n = 0; n < 2000; n += 37) {
    failing f = {n};
    cb_error e = {0};
    assert_int_not_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&f, fail_after}, &e), CB_OK);
    assert_true(e.msg[0] != '\0');
  }
  cb_dungeon_free(d);
}

/* The streaming writer's own number formatting (no printf on the hot path)
 * gives exactly the bytes jansson gives for the same value. */
static void numbers_match_jansson(void **state) {
  (void)state;
  uint64_t x = 88172645463325252ULL; /* xorshift64: many magnitudes and signs */
  for (int i = 0; i < 200000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    switch (i % 4) {
    case 0: v = (double)(int64_t)(x % 2000000000001ULL - 1000000000000LL) / 100; break; /* hundredths */
    case 1: v = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * pow(10, (double)(x % 26) - 8); break;
    case 2: v = (double)(int64_t)(x % 2001 - 1000) / 1000; break; /* near zero: -0.0 and 0.005 */
    default: v = (double)(int64_t)(x % 200000000001ULL - 100000000000LL) / 100 + 0.005; break;
    }
    if (i == 0) v = -0.0;
    if (i == 1) v = 1e300;
    cb_test_buf b = {0};
    cb_jw *w = cb_jw_new((cb_sink){&b, cb_test_buf_write});
    assert_non_null(w);
    cb_jw_coord(w, v);
    cb_jw_raw(w, " ", 1);
    cb_jw_int(w, (long long)(x % 3 == 0 ? INT64_MIN + (int64_t)(x % 7) : (int64_t)x >> (x % 64)));
    assert_int_equal(cb_jw_finish(w, NULL), CB_OK);
    json_t *jv = cb_jv_coord(v);
    char *want_coord = json_dumps(jv, JSON_COMPACT | JSON_REAL_PRECISION(12) | JSON_ENCODE_ANY);
    json_decref(jv);
    char want[128];
    snprintf(want, sizeof want, "%s %lld", want_coord,
             (long long)(x % 3 == 0 ? INT64_MIN + (int64_t)(x % 7) : (int64_t)x >> (x % 64)));
    free(want_coord);
    if (b.len != strlen(want) || memcmp(b.data, want, b.len) != 0)
      fail_msg("%.17g: wrote '%.*s', jansson '%s'", v, (int)b.len, b.data, want);
    free(b.data);
  }
}

/* JSON has no NaN or infinity: a model holding one (a bug upstream) fails the
 * write with a message instead of giving a file no reader takes. */
static void a_number_that_is_not_finite_fails(void **state) {
  (void)state;
  const double bad[] = {NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 3; i++) {
    cb_dungeon *d = cb_dungeon_new("dropdice", 1);
    cb_dungeon_add_level(d, 1, "Level 1");
    cb_dungeon_add_room(d, 1, 0, 0);
    cb_dungeon_add_room(d, 1, bad[i], 5);
    cb_test_buf b = {0};
    cb_error err = {0};
    assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&b, cb_test_buf_write}, &err), CB_EINTERNAL);
    assert_non_null(strstr(err.msg, "not finite"));
    free(b.data);
    cb_dungeon_free(d);
  }
}

/* ---- crawlbook/2: what stocking adds ---- */

#define HEAD2                                                                                                \
  "{\"format\":\"crawlbook/"                                                                                 \
  "2\",\"generator\":\"dropdice\",\"seed\":1,\"title\":\"T\",\"theme\":\"Crypt\",\"depth\":3,"               \
  "\"hook\":[\"One.\",\"Two.\"],\"levels\":[{\"id\":1,\"name\":\"L\"}],"
#define W1 "{\"name\":\"rats\",\"count\":3,\"hd\":\"1/2\"}"
#define WANDER "\"wandering\":[" W1 "," W1 "," W1 "," W1 "," W1 "," W1 "],"
#define C1                                                                                                   \
  "\"contents\":{\"name\":\"My hall\",\"dressing\":\"Wet.\",\"monsters\":[{\"name\":\"ghouls\",\"count\":4," \
  "\"hd\":\"2\",\"doing\":\"feeding\"}],\"trap\":{\"trigger\":\"a\",\"effect\":\"b\",\"tell\":\"c\"},"       \
  "\"special\":\"A fountain.\",\"treasure\":[{\"what\":\"Coins\",\"value\":60}]}"
#define R1C "{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":[],\"keys\":[\"K1\"]," C1 "}"
#define P1N                                                                                                  \
  "{\"id\":1,\"from\":1,\"to\":2,\"kind\":\"corridor\",\"flags\":[\"locked\"],\"lock\":\"K1\",\"note\":\"A " \
  "grate.\"}"
#define GOOD2 HEAD2 WANDER "\"rooms\":[" R1C "," R2 "],\"passages\":[" P1N "]}"

static void stocked_document_parses(void **state) {
  (void)state;
  cb_dungeon *d = parse_ok(GOOD2, strlen(GOOD2));
  assert_string_equal(d->theme, "Crypt");
  assert_int_equal(d->depth, 3);
  assert_string_equal(d->hook[1], "Two.");
  assert_int_equal(d->nwandering, 6);
  const cb_contents *c = d->rooms[0].contents;
  assert_non_null(c);
  assert_string_equal(c->name, "My hall");
  assert_int_equal(c->monsters[0].count, 4);
  assert_string_equal(c->trap->tell, "c");
  assert_int_equal(c->treasure[0].value, 60);
  assert_null(d->rooms[1].contents);
  assert_string_equal(d->passages[0].note, "A grate.");
  /* written back as read */
  cb_test_buf buf = {0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&buf, cb_test_buf_write}, &err), CB_OK);
  cb_dungeon *again = parse_ok(buf.data, buf.len);
  assert_string_equal(again->rooms[0].contents->monsters[0].doing, "feeding");
  cb_dungeon_free(again);
  free(buf.data);
  cb_dungeon_free(d);
  /* crawlbook/1 has no contents: they are not read */
  const char *one = HEAD ROOMS PASSAGES "}";
  d = parse_ok(one, strlen(one));
  assert_null(d->theme);
  assert_null(d->rooms[0].contents);
  cb_dungeon_free(d);
}

static void bad_contents_are_refused(void **state) {
  (void)state;
  static const struct {
    const char *from, *to, *field;
  } cases[] = {
      {"\"count\":4", "\"count\":0", "count"},
      {"\"count\":4", "\"count\":\"4\"", "count"},
      {"\"hd\":\"2\"", "\"hd\":\"22222222222222222222\"", "hd"},
      {"\"monsters\":[{", "\"monsters\":[7,{", "monsters[0]"},
      {"\"tell\":\"c\"", "\"tel\":\"c\"", "tell"},
      {"\"value\":60", "\"value\":-1", "value"},
      {"\"name\":\"My hall\"", "\"name\":5", "name"},
      {"\"contents\":{", "\"contents\":7,\"contents_was\":{", "contents"},
      {"\"depth\":3", "\"depth\":11", "depth"},
      {"\"hook\":[\"One.\",", "\"hook\":[\"One.\",\"x\",", "hook"},
      {"\"note\":\"A grate.\"", "\"note\":[]", "note"},
      {"\"wandering\":[" W1 ",", "\"wandering\":[", "wandering"},
      /* a wandering monster is named as the list's entry (was ".wandering[0]") */
      {"\"count\":3", "\"count\":0", "bad.json: wandering[0]: 'count' is 0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char doc[8192];
    const char *at = strstr(GOOD2, cases[i].from);
    assert_non_null(at);
    snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - GOOD2), GOOD2, cases[i].to, at + strlen(cases[i].from));
    bad(doc, cases[i].to, cases[i].field);
  }
}

/* ---- crawlbook/3: roster, boss, goal, kinds and short forms ---- */

#define ROSTER                                                                                               \
  "\"roster\":[{\"name\":\"ghoul\",\"plural\":\"ghouls\",\"ac\":6,\"ac_ascending\":13,\"hd\":\"2\","         \
  "\"attacks\":\"2 claws, 1 "                                                                                \
  "bite\",\"damage\":\"1d3/1d3/1d3\",\"morale\":9,\"move\":\"90'\",\"about\":\"Eats.\"}],"                   \
  "\"boss\":{\"room\":1,\"name\":\"ghoul\"},\"goal\":{\"room\":2,\"name\":\"the cup\"},"                     \
  "\"hook_short\":[\"1.\",\"2.\"],"
#define HEAD3                                                                                                \
  "{\"format\":\"crawlbook/"                                                                                 \
  "3\",\"generator\":\"dropdice\",\"seed\":1,\"title\":\"T\",\"theme\":\"Crypt\",\"depth\":3,"               \
  "\"hook\":[\"One.\",\"Two.\"],\"levels\":[{\"id\":1,\"name\":\"L\"}],"
#define C3                                                                                                   \
  "\"contents\":{\"name\":\"My hall\",\"dressing\":\"Wet and cold.\",\"dressing_short\":\"Wet.\","           \
  "\"monsters\":[{\"name\":\"ghouls\",\"kind\":\"ghoul\",\"count\":4,\"hd\":\"2\",\"doing\":\"feeding\"}],"  \
  "\"treasure\":[]}"
#define R1C3 "{\"id\":1,\"level\":1,\"x\":0,\"y\":0,\"tags\":[],\"keys\":[\"K1\"]," C3 "}"
#define GOOD3 HEAD3 ROSTER WANDER "\"rooms\":[" R1C3 "," R2 "],\"passages\":[" P1N "]}"

static void third_format_parses(void **state) {
  (void)state;
  const char *doc = GOOD3;
  cb_dungeon *d = parse_ok(doc, strlen(doc));
  assert_int_equal(d->nroster, 1);
  assert_string_equal(d->roster[0].damage, "1d3/1d3/1d3");
  assert_int_equal(d->rooms[0].contents->monsters[0].kind, 0);
  assert_int_equal(d->wandering[0].kind, -1);
  assert_string_equal(d->boss_name, "ghoul");
  assert_int_equal(d->goal_room, 2);
  assert_string_equal(d->hook_short[1], "2.");
  assert_string_equal(d->rooms[0].contents->dressing_short, "Wet.");
  cb_test_buf buf = {0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&buf, cb_test_buf_write}, &err), CB_OK);
  cb_dungeon *again = parse_ok(buf.data, buf.len);
  assert_int_equal(again->rooms[0].contents->monsters[0].kind, 0);
  assert_string_equal(again->roster[0].about, "Eats.");
  assert_non_null(strstr(buf.data, "\"format\": \"crawlbook/3\""));
  cb_dungeon_free(again);
  free(buf.data);
  cb_dungeon_free(d);
  static const struct {
    const char *from, *to, *field;
  } cases[] = {
      {"\"kind\":\"ghoul\"", "\"kind\":\"gnome\"", "kind"},
      {"\"morale\":9", "\"morale\":13", "morale"},
      {"\"boss\":{\"room\":1", "\"boss\":{\"room\":9", "boss"},
      {"\"goal\":{\"room\":2,\"name\":\"the cup\"}", "\"goal\":{\"room\":2}", "name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char bad_doc[8192];
    const char *at = strstr(doc, cases[i].from);
    assert_non_null(at);
    snprintf(bad_doc, sizeof bad_doc, "%.*s%s%s", (int)(at - doc), doc, cases[i].to,
             at + strlen(cases[i].from));
    bad(bad_doc, cases[i].to, cases[i].field);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(third_format_parses),
      cmocka_unit_test(generated_dungeons_round_trip),
      cmocka_unit_test(hand_made_dungeon_round_trips),
      cmocka_unit_test(dungeons_without_a_procedure),
      cmocka_unit_test(seeds_above_2_pow_53_are_strings),
      cmocka_unit_test(good_document_parses),
      cmocka_unit_test(truncated_text),
      cmocka_unit_test(not_json_or_not_an_object),
      cmocka_unit_test(deep_nesting),
      cmocka_unit_test(header_fields),
      cmocka_unit_test(stocked_document_parses),
      cmocka_unit_test(bad_contents_are_refused),
      cmocka_unit_test(levels_rooms_passages),
      cmocka_unit_test(nul_bytes),
      cmocka_unit_test(files),
      cmocka_unit_test(a_failing_sink_is_reported),
      cmocka_unit_test(numbers_match_jansson),
      cmocka_unit_test(a_number_that_is_not_finite_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
