#!/usr/bin/env bash
# leximorph from the command line: bad options and bad tables are refused
# with exit 2 and nothing written; the booklet has the tunnel sketch page;
# a saved dungeon renders to the same bytes, and edits to its JSON are refused
# with the field and place named; the footer's command remakes it.
set -u
: "${CRAWLBOOK:?set CRAWLBOOK to the crawlbook binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "leximorph.sh: $*" >&2; fail=1; }

refuse() { # refuse "what the message must say" args...
  local want=$1; shift
  rm -f "$tmp/out.pdf"
  "$CRAWLBOOK" -g leximorph "$@" -o "$tmp/out.pdf" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [ $rc -eq 2 ] || say "'$*' exited $rc, not 2"
  [ -e "$tmp/out.pdf" ] && say "'$*' wrote a file"
  grep -qF -- "$want" "$tmp/stderr" || say "'$*' said '$(cat "$tmp/stderr")', not '$want'"
}

letters9="$tmp/nine.txt"
grep -v '^#' "$CB_SOURCE_DIR/templates/leximorph-letters.txt" | grep -v '^10 ' >"$letters9"
outside="$tmp/outside.txt"
sed 's/^10 *| X |.*/10 | X | L 0,0 1.5,1/' "$CB_SOURCE_DIR/templates/leximorph-letters.txt" >"$outside"
unknown="$tmp/unknown.txt"
sed 's/^7 *| T |.*/7 | T | L 0,0 1,0 ; Q 0.5,0 0.5,1/' "$CB_SOURCE_DIR/templates/leximorph-letters.txt" >"$unknown"
walls="$tmp/walls.txt"
printf '1|blank wall|blank\n2|door|door\n' >"$walls"

refuse "--sectors '0x3'" --sectors 0x3
refuse "--sectors '3'" --sectors 3
refuse "--sectors '13x1'" --sectors 13x1
refuse "--sector-ft '50'" --sector-ft 50
refuse "--rooms 5: leximorph" --rooms 5
refuse "--levels 2" --levels 2
refuse "nine.txt: expected 10 rows, one for each roll of a d10; found 9" --letters "$letters9"
refuse "outside.txt:23: stroke 1 of letter 'X' leaves its box" --letters "$outside"
refuse "unknown.txt:20: stroke 2: unknown command 'Q'" --letters "$unknown"
refuse "walls.txt: expected 8 rows" --walls "$walls"
refuse "no-such.txt: No such file" --junctions "$tmp/no-such.txt"
doors="$tmp/doors.txt"
sed 's/| *chamber$/| cellar/' "$CB_SOURCE_DIR/templates/leximorph-doors.txt" >"$doors"
refuse "doors.txt:26: unknown effect 'cellar'" --doors "$doors"
# every door onto a room: more rooms than the d20's half
sed 's/| *[a-z]*$/| room/' "$CB_SOURCE_DIR/templates/leximorph-doors.txt" >"$doors"
"$CRAWLBOOK" -g leximorph --seed 3 --doors "$doors" -o "$tmp/rooms.json" || say "--doors FILE failed"
"$CRAWLBOOK" -g leximorph --seed 3 -o "$tmp/ours.json" || say "seed 3 failed"
grep -q '"result":"parallel"' "$tmp/rooms.json" && say "--doors FILE was not read"
grep -q '"result":"room"' "$tmp/ours.json" || say "no door opened on a room"
"$CRAWLBOOK" -g leximorph -o "$tmp/out.pdf" --letters 2>"$tmp/stderr"
[ $? -eq 2 ] || say "--letters without a value was not refused"
grep -qF -- "--letters needs a value" "$tmp/stderr" || say "--letters without a value: $(cat "$tmp/stderr")"
[ -e "$tmp/out.pdf" ] && say "--letters without a value wrote a file"

# the sheet: the sketch stands in for the map; the booklet: map and key, then the tunnel sketch
"$CRAWLBOOK" -g leximorph --seed 7 -o "$tmp/a.pdf" 2>/dev/null || say "seed 7 failed"
"$CRAWLBOOK" -g leximorph --seed 7 --template booklet -o "$tmp/book.pdf" || say "seed 7 booklet failed"
if command -v pdftotext >/dev/null; then
  pdftotext "$tmp/a.pdf" "$tmp/a.txt"
  pdftotext "$tmp/book.pdf" "$tmp/book.txt"
  grep -q "Tunnel sketch" "$tmp/a.txt" && say "the sheet repeats the sketch as a page"
  # a caption's two lines stay together; a sector whose tunnels leave no room for them keeps less (its letter)
  pdftotext -raw -f 1 -l 1 "$tmp/a.pdf" "$tmp/a1.txt"
  grep -qE "sector [12],[12]" "$tmp/a1.txt" || say "the sheet's map is not the sketch"
  grep -q "Tunnel sketch" "$tmp/book.txt" || say "no tunnel sketch page in the booklet"
  grep -q "Room key" "$tmp/a.txt" || say "no room key"
  # the cover no longer draws the map (it shows the game master's secrets): the sketch page tells the sectors
  grep -q "a letter per sector" "$tmp/book.txt" || say "the sketch names no sectors"
fi

# saved, edited by nobody, rendered again: the same bytes
"$CRAWLBOOK" -g leximorph --seed 7 -o "$tmp/a.json" || say "json failed"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/b.pdf" 2>/dev/null || say "render failed"
cmp -s "$tmp/a.pdf" "$tmp/b.pdf" || say "render of the JSON differs from the generated PDF"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/b.json" && cmp -s "$tmp/a.json" "$tmp/b.json" || say "JSON round trip differs"

# a broken sketch is refused
sed 's/"side":"left"/"side":"up"/' "$tmp/a.json" >"$tmp/bad.json"
"$CRAWLBOOK" render "$tmp/bad.json" -o "$tmp/bad.pdf" 2>"$tmp/stderr"
[ $? -eq 2 ] || say "a bad side was not refused"
[ -e "$tmp/bad.pdf" ] && say "a bad JSON wrote a PDF"

# the sketch's lists are the procedure's in their short form; edits are refused with the field and
# place named, and the rooms behind a wall's doors, 1-based tunnels and a door's way and stub read back
edit() { # edit NAME 'python statements on d' : writes $tmp/NAME.json from a.json
  python3 - "$tmp/a.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
P, S = d["procedure"], d["sketch"]
stub = next(x for x in S["doors"] if "stub" in x)
room = next(x for x in S["doors"] if "room" in x)
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
refused_json() { # refused_json NAME "message" 'python'
  edit "$1" "$3"
  "$CRAWLBOOK" render "$tmp/$1.json" -o "$tmp/$1.out.json" 2>"$tmp/stderr"
  local rc=$?
  [ $rc -eq 2 ] || say "$1: exited $rc, not 2"
  grep -qF -- "$2" "$tmp/stderr" || say "$1: said '$(cat "$tmp/stderr")', not '$2'"
}
if command -v python3 >/dev/null; then
  refused_json disagree "sketch.walls[0]: does not agree with the procedure's wall" 'S["walls"][0]["side"] = "right" if S["walls"][0]["side"] == "left" else "left"'
  refused_json fewer "sketch: its sectors, junctions and walls must be those of the procedure" 'S["walls"].pop()'
  refused_json tunnel0 "procedure.walls[0]: 'tunnel' is 0; it must be 1 to 1000000" 'P["walls"][0]["tunnel"] = 0'
  refused_json notunnel "sketch: wall 1 names no tunnel" 'P["walls"][0]["tunnel"] = S["walls"][0]["tunnel"] = 999'
  refused_json rooms "procedure.walls[0]: 'rooms' must name rooms (0 for a door onto a passage)" 'P["walls"][0]["rooms"] = [0, 999]'
  refused_json roll "procedure.sectors[0]: missing field 'roll'" 'del P["sectors"][0]["roll"]'
  refused_json side "procedure.walls[0]: unknown side 'up' (left or right)" 'P["walls"][0]["side"] = "up"'
  refused_json stub2 "'stub' needs 3 points" 'stub["stub"].pop()'
  refused_json nostub "missing field 'stub'" 'del stub["stub"]'
  refused_json stubout "points must be [x, y] inside the 480 by 480 ft map" 'stub["stub"][2] = [-1, 0]'
  refused_json doorx "'x' is 1000000; it must be 0 to 480" 'room["x"] = 1000000'
  refused_json way "'way' must be a direction" 'room["way"] = [0, 2]'
  refused_json points "sketch.tunnels[0]: 'points' needs at least 2 points" 'S["tunnels"][0]["points"] = S["tunnels"][0]["points"][:1]'
  # a door onto a room has no stub: one there is not read
  edit roomstub 'room["stub"] = "anything"'
  "$CRAWLBOOK" render "$tmp/roomstub.json" -o "$tmp/roomstub.out.json" || say "a room door's stray stub was read"
  cmp -s "$tmp/a.json" "$tmp/roomstub.out.json" || say "a room door's stray stub was written"
  # a wall with doors onto two rooms, or only onto its second: written up to the last room, read back
  edit rooms2 'P["walls"][0]["rooms"] = S["walls"][0]["rooms"] = [0, room["room"]]'
  "$CRAWLBOOK" render "$tmp/rooms2.json" -o "$tmp/rooms2.out.json" || say "rooms [0, n] refused"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["procedure"]["walls"][0]["rooms"][0] != 0 or len(d["sketch"]["walls"][0]["rooms"]) != 2)' \
    "$tmp/rooms2.out.json" || say "rooms [0, n] did not read back"
fi

# the footer's command makes the same dungeon
"$CRAWLBOOK" -g leximorph --seed 11 --sectors 3x2 --sector-ft 300 --no-rotate -o "$tmp/c.json" || say "3x2 failed"
grep -q '"rotation":[234]' "$tmp/c.json" && say "--no-rotate turned a letter"
grep -q '"no-rotate":true' "$tmp/c.json" || say "--no-rotate was not recorded"
"$CRAWLBOOK" -g leximorph --seed 11 --sectors 3x2 --sector-ft 300 --no-rotate --rotate --letters leximorph-letters \
  -o "$tmp/d.json" || say "--rotate failed"
grep -q '"rotate":true' "$tmp/d.json" || say "--rotate was not recorded"

# --explain in a game master's words
"$CRAWLBOOK" -g leximorph --seed 7 --explain >"$tmp/explain" || say "--explain failed"
grep -qE '^Sector 1,1: rolled [0-9]+ -> [A-Za-z]+, (upright|turned)' "$tmp/explain" || say "no sector roll in --explain"
grep -qE '^Junction 1 \(sector' "$tmp/explain" || say "no junction roll in --explain"
grep -qE 'left wall rolled [1-8] -> ' "$tmp/explain" || say "no wall roll in --explain"

# the one-page sheet's map has a scale bar in feet under its legend (booklet.md)
"$CRAWLBOOK" -g leximorph --seed 91 -o "$tmp/sheet.pdf" || say "the sheet failed"
pdftotext -f 1 -l 1 "$tmp/sheet.pdf" - | grep -q 'one square is 10 ft' || say "the sheet's map has no scale bar"

# PNG at two resolutions
for dpi in 80 150; do
  "$CRAWLBOOK" -g leximorph --seed 7 --dpi $dpi -o "$tmp/a$dpi.png" && [ -s "$tmp/a$dpi.png" ] || say "png at $dpi dpi failed"
done
exit $fail
