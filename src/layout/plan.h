/* A sheet's first page under its title, as a plan of boxes: the map's frame,
 * its legend below it, the key's heading, and the key in one or two boxes
 * (its first columns, then where it goes on). Made by sheet.c's planners;
 * kept in a cb_sheet_memo for a second layout of the same dungeon. Private
 * to layout. */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include <stdbool.h>

typedef struct cb_key_box {
  double x, y, w, h;
  int cols;
  double gutter;
  bool balanced;     /* cb_key_fill_balanced: the columns evened out when all it has left fits */
  bool under_legend; /* y counts from the legend's foot (known once it is drawn), h runs down to the bottom */
} cb_key_box;

typedef struct cb_sheet_plan {
  bool made;                         /* false: the planner's arrangement does not suit the sheet */
  double map_x, map_y, map_w, map_h; /* the map's frame */
  double legend_x, legend_y, legend_w;
  double head_x, head_y; /* the key's heading, its top */
  bool head_under_legend;
  cb_key_box key[2];
  int nkey;
  double size;  /* the key's type size */
  bool compact; /* its compact form */
  int cols;     /* its columns on the pages it runs onto */
} cb_sheet_plan;

#endif
