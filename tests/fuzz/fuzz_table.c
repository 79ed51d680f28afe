/* libFuzzer: the content-table reader (templates/ *.txt). */
#include <stddef.h>
#include <stdint.h>

#include "base/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cb_table t;
  cb_error err = {0};
  if (cb_table_parse((const char *)data, size, "fuzz.txt", 1, 8, &t, &err) == CB_OK) {
    long v;
    double x;
    for (int i = 0; i < t.nrows; i++)
      for (int k = 0; k < t.rows[i].nfields; k++) {
        cb_table_int(t.rows[i].fields[k], -1000, 1000, &v);
        cb_table_num(t.rows[i].fields[k], -1e6, 1e6, &x);
      }
    cb_table_free(&t);
  }
  return 0;
}
