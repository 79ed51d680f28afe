/* libFuzzer: the command-line parser; the input is argv, NUL-separated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *buf = malloc(size + 1);
  char *argv[66];
  int argc = 0;
  if (!buf) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  argv[argc++] = "crawlbook";
  for (char *p = buf; p < buf + size + 1 && argc < 64; p += strlen(p) + 1)
    argv[argc++] = p;
  argv[argc] = NULL;
  cb_cli cli;
  cb_error err = {0};
  const char *date = argc > 2 ? argv[argc - 1] : NULL;
  cb_cli_parse(argc, argv, date, 7, &cli, &err);
  free(buf);
  return 0;
}
