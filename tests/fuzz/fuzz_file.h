/* For harnesses whose parser reads a file: the input written to a file of this
 * process's own (path in a static buffer); NULL when it cannot be written. */
#ifndef CB_FUZZ_FILE_H
#define CB_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static inline const char *cb_fuzz_file(const uint8_t *data, size_t size, const char *suffix) {
  static char path[256];
  snprintf(path, sizeof path, "/tmp/cb-fuzz-%ld%s", (long)getpid(), suffix);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  int ok = fwrite(data, 1, size, f) == size;
  if (fclose(f) != 0 || !ok) return NULL;
  return path;
}

#endif
