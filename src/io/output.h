/* Output files. A regular file (new or existing) is written to a temporary
 * file beside it and renamed into place once complete, so a failed run never
 * leaves a partial file and never clobbers an existing one; an existing file
 * keeps its mode (and owner where we may set it). A symbolic link is followed
 * and its target replaced the same way. A FIFO or a character device
 * (/dev/null, a terminal) is written as a stream, with no rename. "-", and
 * any name for our standard output (/dev/stdout), write to standard output.
 * A file with more than one hard link, a block device or a socket is refused:
 * replacing it would break the link or the device. */
#ifndef CB_OUTPUT_H
#define CB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

typedef struct cb_output cb_output;

/* Checks that path could be opened, without writing anything: CB_EINPUT with
 * the path and the reason when it could not (a batch checks every name first). */
cb_status cb_output_check(const char *path, cb_error *err);
/* True when path names our standard output ("-", /dev/stdout and its like). */
bool cb_output_is_stdout(const char *path);
/* Opens path for writing (see above). CB_EINPUT (with the path and the
 * reason) when the directory is missing or unwritable, or path is a
 * directory or refused. On success *out must be committed or aborted. */
cb_status cb_output_open(const char *path, cb_output **out, cb_error *err);
/* Appends bytes; the first failure sticks. Usable as a cb_sink write. */
cb_status cb_output_write(void *out, const unsigned char *data, size_t len);
/* Flushes, syncs and renames into place; frees o. On failure the temporary
 * file is removed and the target is left as it was. */
cb_status cb_output_commit(cb_output *o, cb_error *err);
/* Removes the temporary file and frees o. */
void cb_output_abort(cb_output *o);
/* Aborts o after a failed run (st): when the failure was a write to o, err's
 * message is replaced by one naming the file and the system's reason (disk
 * full), status CB_EINTERNAL. Returns the status to report. */
cb_status cb_output_fail(cb_output *o, cb_status st, cb_error *err);
/* Removes the open temporary file, if any, on SIGINT, SIGTERM and SIGHUP,
 * then dies of the signal (exit status 128 + signal). Called once by main. */
void cb_output_trap_signals(void);

#endif
