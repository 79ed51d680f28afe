/* leximorph's procedure artefacts (model.md "procedure"): the rolls of the
 * sectors, junctions and walls. They are the same arrays as the sketch's
 * (model/sketch.h), arena-allocated in the dungeon. */
#ifndef CB_PROC_LEXIMORPH_H
#define CB_PROC_LEXIMORPH_H

#include "sketch.h"

typedef struct cb_leximorph_proc {
  int nsectors, njunctions, nwalls, ndoors;
  cb_sketch_sector *sectors;
  cb_sketch_junction *junctions;
  cb_sketch_wall *walls;
  cb_sketch_door *doors; /* every door's d20 */
} cb_leximorph_proc;

#endif
