/* libFuzzer: the page-template reader (templates/NAME.cfg, through libconfig). */
#include "../tests/fuzz/fuzz_file.h"
#include "cli/options.h"
#include "layout/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = cb_fuzz_file(data, size, ".cfg");
  if (!path) return 0;
  cb_template t;
  cb_error err = {0};
  const char *keys[CB_TEMPLATE_MAX_TABLES + 1];
  cb_cli_table_keys(keys, CB_TEMPLATE_MAX_TABLES + 1);
  cb_template_load(path, keys, &t, &err);
  return 0;
}
