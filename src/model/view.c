#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "bfs.h"
#include "check.h"

static const unsigned VISIBLE_TAGS = CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START;
/* a party learns a door is locked, or trapped, only by trying it */
static const unsigned HIDDEN_FLAGS = CB_FLAG_TRAPPED | CB_FLAG_LOCKED | CB_FLAG_SOFT_LOCKED;
static const unsigned UNSEEN_FLAGS = CB_FLAG_SECRET | CB_FLAG_CONCEALED;

/* Marks known[i] for the rooms the party can find from the ways in without a
 * secret: a walk over the passages the view keeps. 0, or -1 on OOM. */
static int mark_known(const cb_dungeon *d, bool *known) {
  cb_graph g;
  if (cb_graph_build(d, &g) != 0) return -1;
  cb_bfs b;
  if (cb_bfs_init(&b, d->nrooms)) {
    cb_bfs_free(&b);
    cb_graph_free(&g);
    return -1;
  }
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) cb_bfs_reach(&b, -1, i);
  int first = cb_check_start_room(d);
  if (b.tail == 0 && first >= 0) cb_bfs_reach(&b, -1, first);
  for (int r; (r = cb_bfs_next(&b)) >= 0;)
    for (int k = g.start[r]; k < g.start[r + 1]; k++)
      if (!(d->passages[g.passage[k]].flags & UNSEEN_FLAGS)) cb_bfs_reach(&b, r, g.room[k]);
  for (int i = 0; i < d->nrooms; i++)
    known[i] = b.hops[i] >= 0;
  cb_bfs_free(&b);
  cb_graph_free(&g);
  return 0;
}

/* Does room r have a way to the surface, and is none of its ways out a secret? */
static bool open_way_up(const cb_dungeon *d, const cb_room *r) {
  bool any = false;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (p->to != 0 || p->from != r->id) continue;
    if (p->flags & UNSEEN_FLAGS) return false;
    any = true;
  }
  return any;
}

static void copy_header(cb_dungeon *v, const cb_dungeon *d) {
  v->procedure = d->procedure; /* read-only artefacts, owned by d: v must not outlive it */
  v->room_ft = d->room_ft, v->marks_rooms = d->marks_rooms, v->room_rules = d->room_rules;
  v->players = true; /* drawings that mark secret doors and traps stay out */
  if (d->title) cb_dungeon_set_title(v, d->title);
  for (int i = 0; i < d->noptions; i++) {
    if (d->options[i].flag)
      cb_dungeon_set_flag(v, d->options[i].name);
    else
      cb_dungeon_set_option(v, d->options[i].name, d->options[i].value, d->options[i].number);
  }
  cb_dungeon_set_flag(v, "player-map");
  for (int i = 0; i < d->nlevels; i++)
    cb_dungeon_add_level(v, d->levels[i].id, d->levels[i].name);
}

cb_dungeon *cb_player_view(const cb_dungeon *d) {
  bool *known = calloc((size_t)(d->nrooms ? d->nrooms : 1), sizeof *known);
  cb_dungeon *v = known ? cb_dungeon_new(d->generator, d->seed) : NULL;
  if (!v || mark_known(d, known) != 0) goto fail;
  copy_header(v, d);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (!known[i]) continue;
    cb_room *c = cb_dungeon_add_room_id(v, r->id, r->level, r->x, r->y);
    if (!c) break;
    c->number = v->nrooms; /* the rooms the party sees, numbered without the gaps hidden rooms would leave */
    c->tags = r->tags & VISIBLE_TAGS;
    /* the mark of a way up, where a secret way up could be what it means, stays off */
    if ((r->tags & CB_TAG_SURFACE_EXIT) && open_way_up(d, r)) c->tags |= CB_TAG_SURFACE_EXIT;
  }
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (p->flags & UNSEEN_FLAGS) continue;
    if (!cb_dungeon_room(v, p->from) || (p->to != 0 && !cb_dungeon_room(v, p->to))) continue;
    cb_passage *c = cb_dungeon_add_passage(v, p->from, p->to, p->kind);
    if (!c) break;
    c->id = p->id; /* ascending still; a procedure's drawing finds its passages by id */
    c->flags = p->flags & ~HIDDEN_FLAGS;
    c->length_ft = p->length_ft;
  }
  if (v->oom) goto fail;
  free(known);
  return v;
fail:
  free(known);
  cb_dungeon_free(v);
  return NULL;
}
