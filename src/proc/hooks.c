#include "layout/hooks.h"

#include <string.h>

#include "proc/battleships/layout.h"
#include "proc/cards/layout.h"
#include "proc/leximorph/layout.h"
#include "proc/preconnect/layout.h"

/* One row per generator that draws more than the generic sheet. */
static const cb_layout_hooks rows[] = {
    {.generator = "dropdice"},
    {.generator = "battleships", .map = cb_battleships_map, .extra_pages = cb_battleships_pages},
    {.generator = "cards", .map = cb_cards_map, .height = cb_cards_map_height},
    {.generator = "leximorph",
     .sheet_map = cb_sketch_map,
     .sheet_height = cb_sketch_height,
     .sheet_legend = cb_sketch_legend,
     .extra_pages = cb_sketch_pages},
    {.generator = "preconnect",
     .map = cb_corridors_draw,
     .height = cb_corridors_height,
     .key_note = cb_corridors_key_note},
};

const cb_layout_hooks *cb_layout_hooks_find(const char *generator) {
  static const cb_layout_hooks none = {.generator = NULL};
  for (size_t i = 0; generator && i < sizeof rows / sizeof *rows; i++)
    if (strcmp(rows[i].generator, generator) == 0) return &rows[i];
  return &none;
}
