#!/usr/bin/env bash
# Stocking from the command line (spec/stocking.md): themes by name and by
# file, a bad theme refused with file:line and nothing written, hand-edited
# contents printed as written, and none of it on the players' map.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext
need python3
cd "$WORK"

# every shipped theme by name, the title and JSON follow it
for t in crypt caverns ruined-temple mine wizards-tower bandit-lair drowned-shrine; do
  "$CRAWLBOOK" -g dropdice -s 5 --theme "$t" --depth 4 -f json -o "$t.json" || fail "--theme $t failed"
  python3 - "$t.json" <<'PY' || fail "--theme $t: the JSON lacks its stocking"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "crawlbook/3" and d["depth"] == 4 and len(d["hook"]) == 2 and len(d["wandering"]) == 6
assert all(r["contents"]["name"] and r["contents"]["dressing"] for r in d["rooms"])
kinds = {e["name"] for e in d["roster"]}
assert all(set(e) >= {"name", "plural", "ac", "hd", "attacks", "damage", "morale", "move", "about"} for e in d["roster"])
assert all(m["kind"] in kinds for r in d["rooms"] for m in r["contents"]["monsters"])
assert all(m["kind"] in kinds for m in d["wandering"])
assert d["boss"]["name"] in kinds and d["goal"]["name"] in " ".join(d["hook"])
assert any(r["id"] == d["goal"]["room"] and "goal" in r["tags"] for r in d["rooms"])
assert d["options"]["theme"] and d["options"]["depth"] == 4
PY
done

# a theme file of one's own; a bad one names file:line, exit 2, nothing written
cp "$CB_SOURCE_DIR/templates/themes/crypt.txt" mine.txt
"$CRAWLBOOK" -g cards -s 2 --theme ./mine.txt -o own.pdf || fail "--theme FILE failed"
sed 's/^room | \(.*\)$/room | \1 | oops/' mine.txt >bad.txt
rc=0
"$CRAWLBOOK" -g cards -s 2 --theme ./bad.txt -o never.pdf 2>err.txt || rc=$?
[ "$rc" -eq 2 ] || fail "a bad theme: exit $rc, want 2"
grep -q "bad.txt:[0-9]*: a room row takes 3 fields" err.txt || fail "a bad theme: $(cat err.txt)"
[ ! -e never.pdf ] || fail "a bad theme still wrote a file"
# a theme of the old format is told so
printf 'theme | Old | old\nroom | Hall\ndressing | Dust.\n' >old.txt
rc=0
"$CRAWLBOOK" -g cards -s 2 --theme ./old.txt -o never.pdf 2>err.txt || rc=$?
[ "$rc" -eq 2 ] && [ ! -e never.pdf ] || fail "an old-format theme: exit $rc"
grep -q "old.txt: a theme of the old format" err.txt || fail "an old-format theme: $(cat err.txt)"
rc=0
"$CRAWLBOOK" -g cards -s 2 --theme nosuchtheme -o never.pdf 2>err.txt || rc=$?
[ "$rc" -eq 2 ] && [ ! -e never.pdf ] || fail "an unknown theme: exit $rc"
for bad in "--depth 0" "--depth 11" "--locks 9" "--locks x"; do
  rc=0
  # shellcheck disable=SC2086
  "$CRAWLBOOK" -g dropdice $bad -o never.pdf 2>/dev/null || rc=$?
  [ "$rc" -eq 2 ] || fail "$bad: exit $rc, want 2"
done

# hand-edited contents render as written; crawlbook/1 still renders
"$CRAWLBOOK" -g dropdice -s 9 -f json -o d.json
python3 - <<'PY'
import json
d = json.load(open("d.json"))
c = d["rooms"][0]["contents"]
c["name"] = "Hall of Quokkas"
c["monsters"] = [{"name": "zebrafinches", "count": 7, "hd": "3", "doing": "arguing about taxes"}]
c["treasure"] = [{"what": "a xylophone of bone", "value": 777}]
c["dressing"] = "Quokka tracks everywhere."
c.pop("dressing_short", None)
json.dump(d, open("edited.json", "w"))
# crawlbook/2: no roster, boss, goal, kinds or short forms
two = json.loads(json.dumps(d))
for k in ("roster", "boss", "goal", "hook_short"):
    two.pop(k, None)
for r in two["rooms"]:
    c = r["contents"]
    for k in ("dressing_short", "special_short"):
        c.pop(k, None)
    for m in c["monsters"]:
        m.pop("kind", None), m.pop("doing_short", None)
    if "trap" in c:
        c["trap"].pop("trigger_short", None), c["trap"].pop("effect_short", None)
for m in two["wandering"]:
    m.pop("kind", None), m.pop("doing_short", None)
for p in two["passages"]:
    p.pop("note_short", None)
two["format"] = "crawlbook/2"
json.dump(two, open("two.json", "w"))
for r in d["rooms"]:
    r.pop("contents", None)
for p in d["passages"]:
    p.pop("note", None)
for k in ("theme", "depth", "hook", "wandering", "roster", "boss", "goal", "hook_short"):
    d.pop(k, None)
d["format"] = "crawlbook/1"
json.dump(d, open("one.json", "w"))
PY
"$CRAWLBOOK" render edited.json -o edited.pdf || fail "render of hand-edited contents failed"
pdftotext edited.pdf - | tr '\n' ' ' >edited.txt
for words in "Hall of Quokkas" "7 zebrafinches (HD 3)" "arguing about taxes" "xylophone of bone (777 gp)" \
  "Quokka tracks everywhere."; do
  grep -q "$words" edited.txt || fail "the edited contents do not print '$words'"
done
"$CRAWLBOOK" render two.json -o two.pdf || fail "crawlbook/2 no longer renders"
pdftotext two.pdf - | tr '\n' ' ' | grep -q "Hall of Quokkas" || fail "crawlbook/2 renders without its contents"
"$CRAWLBOOK" render one.json -o one.pdf || fail "crawlbook/1 no longer renders"

# the players' map shows no contents, hook or wandering monsters
"$CRAWLBOOK" render edited.json --player-map -o players.pdf || fail "--player-map failed"
pdftotext players.pdf - | tr '\n' ' ' >players.txt
for words in "Quokkas" "zebrafinches" "Wandering" "hook" "gp"; do
  grep -q "$words" players.txt && fail "the players' map shows '$words'"
done
# the map is the procedure's: every catalogue seed, stocked with another
# theme, depth and no locks, has the catalogue's rooms, passages, levels,
# procedure and sketch (what stocking adds set aside)
cat >same_map.py <<'PY'
import json, sys
def strip(d):
    rooms = []
    for r in d["rooms"]:
        r = dict(r)
        r.pop("contents", None)
        r["tags"] = [t for t in r["tags"] if t not in ("goal", "key")]
        r["keys"] = [k for k in r["keys"] if k in sys_keys(d)]
        rooms.append(r)
    ps = []
    for p in d["passages"]:
        p = dict(p)
        p.pop("note", None), p.pop("note_short", None)
        if p.get("lock") and p["lock"] not in sys_keys(d):
            p.pop("lock"); p["flags"] = [f for f in p["flags"] if f != "locked"]
        ps.append(p)
    return rooms, ps, d["levels"], d.get("procedure"), d.get("sketch")
def sys_keys(d):
    # keys the procedure made: those not named in a 'Stocking: lock' log line
    added = {l.split()[2] for l in d["log"] if l.startswith("Stocking: lock ")}
    return {k for r in d["rooms"] for k in r["keys"]} - added
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sa, sb = strip(a), strip(b)
names = ["rooms", "passages", "levels", "procedure", "sketch"]
bad = [n for n, x, y in zip(names, sa, sb) if x != y]
sys.exit("%s: stocking changed the %s" % (sys.argv[2], bad) if bad else 0)
PY
for args_file in "$CB_SOURCE_DIR"/tests/catalog/*.args; do
  name=$(basename "$args_file" .args)
  mapfile -d '' args < <(xargs printf '%s\0' <"$args_file")
  "$CRAWLBOOK" "${args[@]}" --theme caverns --depth 7 --locks 0 -f json -o "$name.json" || fail "$name failed"
  python3 same_map.py "$CB_SOURCE_DIR/tests/catalog/$name.json" "$name.json" || fail "$name: the map changed"
done
# the default lock (stocking.md: one where the procedure made none and there are at least 8 rooms) is
# placed, also where no single passage cuts the goal off (then every way into the goal is locked)
for gen in dropdice cards preconnect leximorph battleships; do
  for seed in $(seq 1 20); do
    "$CRAWLBOOK" --generator "$gen" --seed "$seed" --explain -o "$gen-$seed.json" >"$gen-$seed.log" 2>/dev/null ||
      fail "$gen $seed failed"
    grep -q "lock asked" "$gen-$seed.log" && fail "$gen seed $seed: the default lock was not placed"
  done
done
finish
