/* The model's JSON form (format "crawlbook/3", reading "crawlbook/2" and "crawlbook/1" too;
 * ../shared/spec/model.md),
 * through jansson. Output is deterministic: fixed key order, coordinates with
 * at most 12 significant digits. */
#ifndef CB_JSON_H
#define CB_JSON_H

#include "base/error.h"
#include "base/sink.h"
#include "model/dungeon.h"

#define CB_JSON_FORMAT "crawlbook/3"
/* Stocking before the roster, boss, goal and short forms: still read. */
#define CB_JSON_FORMAT_2 "crawlbook/2"
/* The format before stocking: still read, without contents. */
#define CB_JSON_FORMAT_1 "crawlbook/1"

/* What the JSON core asks of the procedures (proc/registry.c answers): each
 * one's reader and writer of its artefacts, and their names for messages. */
struct cb_proc_io;
typedef struct cb_json_procs {
  const struct cb_proc_io *(*find)(const char *generator); /* NULL: no such procedure */
  const char *(*names)(char *buf, size_t cap);             /* every procedure's name, for a message */
  bool (*records)(const char *generator, const char *key); /* key is an option it records */
} cb_json_procs;

/* Writes the dungeon as JSON: the top-level object with one room, passage or
 * log line per line, so that a diff shows what changed. CB_EINPUT, with
 * nothing written, when render could not read it back (counted first).
 * CB_EINTERNAL on OOM or with the sink's status when a write fails. */
/* Whether d's counts (rooms, passages, levels, log lines) stay within what
 * cb_json_parse reads back: CB_OK, or CB_EINPUT with a message. */
cb_status cb_json_writable(const cb_dungeon *d, cb_error *err);
cb_status cb_json_write(const cb_dungeon *d, const cb_json_procs *procs, cb_sink sink, cb_error *err);

/* Reads and validates a dungeon from JSON text (name is used in messages).
 * On success *out is a new dungeon the caller frees; on failure CB_EINPUT
 * with "name:line:column: ..." or "name: rooms[3]: ..." and *out NULL. */
cb_status cb_json_parse(const char *text, size_t len, const char *name, const cb_json_procs *procs,
                        cb_dungeon **out, cb_error *err);
/* The same for a file. */
cb_status cb_json_read_file(const char *path, const cb_json_procs *procs, cb_dungeon **out, cb_error *err);

#endif
