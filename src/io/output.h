/* Output files are written to a temporary file beside the target and renamed
 * into place once complete, so a failed run never leaves a partial file and
 * never clobbers an existing one. "-" writes to standard output. */
#ifndef CB_OUTPUT_H
#define CB_OUTPUT_H

#include <stddef.h>

#include "../model/error.h"

typedef struct cb_output cb_output;

/* Opens a temporary file in path's directory. CB_EINPUT (with the path and
 * the reason) when the directory is missing or unwritable, or path is a
 * directory. On success *out must be committed or aborted. */
cb_status cb_output_open(const char *path, cb_output **out, cb_error *err);
/* Appends bytes; the first failure sticks. Usable as a cb_sink write. */
cb_status cb_output_write(void *out, const unsigned char *data, size_t len);
/* Flushes, syncs and renames into place; frees o. On failure the temporary
 * file is removed and the target is left as it was. */
cb_status cb_output_commit(cb_output *o, cb_error *err);
/* Removes the temporary file and frees o. */
void cb_output_abort(cb_output *o);

#endif
