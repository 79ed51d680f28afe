/* libFuzzer: Cardtography's mask files (--shape FILE), through the generator. */
#include "../tests/fuzz/fuzz_file.h"
#include "model/dungeon.h"
#include "proc/cards/proc.h"
#include "registry/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = cb_fuzz_file(data, size, ".txt");
  if (!path) return 0;
  cb_cards_options own = {.shape = path};
  cb_gen_options o = {.seed = 7, .own = &own};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(&cb_gen_cards, &o, &d, &err) == CB_OK) cb_dungeon_free(d);
  return 0;
}
