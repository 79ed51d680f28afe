/* Internal to src/io: what stocking adds to the JSON form (crawlbook/2 and 3,
 * spec/stocking.md "JSON"): top-level theme, depth, hook and wandering; per
 * room contents; per passage note; from crawlbook/3 the roster, boss, goal,
 * the monsters' roster kinds and every sheet text's short form (key_short). */
#ifndef CB_JSON_STOCK_H
#define CB_JSON_STOCK_H

#include "json_util.h"

/* ,"theme":..,"depth":..,"hook":[..],"wandering":[..] when d is stocked. */
void cb_json_write_stock(cb_jw *w, const cb_dungeon *d);
/* ,"contents":{..} when the room has some. */
void cb_json_write_contents(cb_jw *w, const cb_dungeon *d, const cb_room *room);

/* Reads the top-level fields (all optional) into r->d. */
cb_status cb_json_read_stock(cb_json_reader *r, json_t *root);
/* Reads room v's optional "contents" into room. */
cb_status cb_json_read_contents(cb_json_reader *r, json_t *v, const char *where, cb_room *room);

#endif
