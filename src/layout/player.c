#include "player.h"

#include <string.h>

static const unsigned VISIBLE_TAGS = CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START | CB_TAG_SURFACE_EXIT;
static const unsigned HIDDEN_FLAGS = CB_FLAG_TRAPPED;

cb_dungeon *cb_player_view(const cb_dungeon *d) {
  cb_dungeon *v = cb_dungeon_new(d->generator, d->seed);
  if (!v) return NULL;
  v->procedure = d->procedure; /* read-only artefacts, owned by d: v must not outlive it */
  v->sketch = NULL;            /* the sketch marks secret doors and traps */
  if (d->title) cb_dungeon_set_title(v, d->title);
  for (int i = 0; i < d->noptions; i++) {
    if (d->options[i].flag) cb_dungeon_set_flag(v, d->options[i].name);
    else cb_dungeon_set_option(v, d->options[i].name, d->options[i].value, d->options[i].number);
  }
  cb_dungeon_set_flag(v, "player-map");
  for (int i = 0; i < d->nlevels; i++) cb_dungeon_add_level(v, d->levels[i].id, d->levels[i].name);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    cb_room *c = cb_dungeon_add_room_id(v, r->id, r->level, r->x, r->y);
    if (!c) break;
    c->number = r->number;
    c->tags = r->tags & VISIBLE_TAGS;
  }
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (p->flags & (CB_FLAG_SECRET | CB_FLAG_CONCEALED)) continue;
    cb_passage *c = cb_dungeon_add_passage(v, p->from, p->to, p->kind);
    if (!c) break;
    /* a lock stays a lock the party sees, without naming its key */
    c->flags = p->flags & ~HIDDEN_FLAGS;
    c->length_ft = p->length_ft;
  }
  if (v->oom) {
    cb_dungeon_free(v);
    return NULL;
  }
  return v;
}
