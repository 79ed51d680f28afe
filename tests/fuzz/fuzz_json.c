/* libFuzzer: the dungeon JSON reader, and for every file it accepts, the JSON
 * writer and the whole layout (a fixed-width measurer stands in for fonts). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/json.h"
#include "layout/sheet.h"
#include "registry/registry.h"

static double width(void *ctx, cb_font font, double size, const char *utf8) {
  (void)ctx;
  return (font >= CB_FONT_BOLD ? 0.55 : 0.5) * size * (double)strlen(utf8);
}

static cb_status discard(void *closure, const unsigned char *data, size_t len) {
  (void)closure, (void)data, (void)len;
  return CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_json_parse((const char *)data, size, "fuzz.json", cb_proc_json(), &d, &err) != CB_OK) return 0;
  cb_error werr = {0};
  cb_json_write(d, cb_proc_json(), (cb_sink){NULL, discard}, &werr);
  if (d->nrooms <= 200) {
    cb_measure m = {NULL, width};
    cb_sheet_options o = {595.2756, 841.8898, 34, "fuzz", false};
    cb_proc_sheet(d, &o);
    cb_document doc = {0};
    cb_error lerr = {0};
    cb_sheet_layout(d, &m, &o, &doc, &lerr);
    cb_document_free(&doc);
  }
  cb_dungeon_free(d);
  return 0;
}
