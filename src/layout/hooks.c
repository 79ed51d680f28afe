#include "hooks.h"

#include <string.h>

#include "battleships.h"
#include "cards_map.h"
#include "sketch.h"

/* One row per generator that draws more than the generic sheet. */
static const cb_layout_hooks rows[] = {
    {"dropdice", NULL, NULL},
    {"battleships", cb_battleships_map, cb_battleships_pages},
    {"cards", cb_cards_map, NULL},
    {"leximorph", NULL, cb_sketch_pages},
};

const cb_layout_hooks *cb_layout_hooks_find(const char *generator) {
  static const cb_layout_hooks none = {NULL, NULL, NULL};
  for (size_t i = 0; generator && i < sizeof rows / sizeof *rows; i++)
    if (strcmp(rows[i].generator, generator) == 0) return &rows[i];
  return &none;
}
