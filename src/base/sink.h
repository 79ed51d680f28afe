/* Where bytes go: an output file, a memory buffer in tests. */
#ifndef CB_SINK_H
#define CB_SINK_H

#include <stddef.h>

#include "error.h"

typedef struct cb_sink {
  void *closure;
  /* CB_OK, or the status of the failure (the sink keeps the first). */
  cb_status (*write)(void *closure, const unsigned char *data, size_t len);
} cb_sink;

#endif
