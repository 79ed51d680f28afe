/* libFuzzer: the theme reader (templates/themes/ *.txt) and stocking with
 * what it read, on a small dungeon made once. */
#include <stddef.h>
#include <stdint.h>

#include "proc/dropdice/proc.h"
#include "registry/registry.h"
#include "stock/stock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cb_theme t;
  cb_error err = {0};
  if (cb_theme_parse((const char *)data, size, "fuzz.txt", &t, &err) == CB_OK) {
    cb_gen_options o = {0};
    o.seed = size;
    cb_dungeon *d = NULL;
    if (cb_generator_run(&cb_gen_dropdice, &o, &d, &err) == CB_OK) {
      cb_stock_options so = {NULL, (int)(size % 10) + 1, (int)(size % 4), true, false};
      cb_stock(d, &t, &so, &err);
    }
    cb_dungeon_free(d);
  }
  cb_theme_free(&t);
  return 0;
}
