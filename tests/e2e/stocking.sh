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
assert d["format"] == "crawlbook/2" and d["depth"] == 4 and len(d["hook"]) == 2 and len(d["wandering"]) == 6
assert all(r["contents"]["name"] and r["contents"]["dressing"] for r in d["rooms"])
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
grep -q "bad.txt:[0-9]*: a room row takes 1 field" err.txt || fail "a bad theme: $(cat err.txt)"
[ ! -e never.pdf ] || fail "a bad theme still wrote a file"
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
json.dump(d, open("edited.json", "w"))
for r in d["rooms"]:
    r.pop("contents", None)
for p in d["passages"]:
    p.pop("note", None)
for k in ("theme", "depth", "hook", "wandering"):
    d.pop(k)
d["format"] = "crawlbook/1"
json.dump(d, open("one.json", "w"))
PY
"$CRAWLBOOK" render edited.json -o edited.pdf || fail "render of hand-edited contents failed"
pdftotext edited.pdf - | tr '\n' ' ' >edited.txt
for words in "Hall of Quokkas" "7 zebrafinches (HD 3)" "arguing about taxes" "xylophone of bone (777 gp)"; do
  grep -q "$words" edited.txt || fail "the edited contents do not print '$words'"
done
"$CRAWLBOOK" render one.json -o one.pdf || fail "crawlbook/1 no longer renders"

# the players' map shows no contents, hook or wandering monsters
"$CRAWLBOOK" render edited.json --player-map -o players.pdf || fail "--player-map failed"
pdftotext players.pdf - | tr '\n' ' ' >players.txt
for words in "Quokkas" "zebrafinches" "Wandering" "hook" "gp"; do
  grep -q "$words" players.txt && fail "the players' map shows '$words'"
done
finish
