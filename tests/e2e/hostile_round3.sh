#!/usr/bin/env bash
# Hostile input, round 3 (issue 25, items 8-13 and 15-20): each finding
# replayed. A refusal is exit 2 with one line on standard error that says
# what; what we write we read back.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need python3
need pdfinfo
cd "$WORK"

# refused WHAT PATTERN ARGS...: exit 2, one line matching PATTERN, nothing on standard output.
refused() {
  local what=$1 pattern=$2
  shift 2
  local rc=0
  timeout 60 "$CRAWLBOOK" "$@" >stdout 2>stderr || rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 ($(head -c 300 stderr))"
  [ "$(wc -l <stderr)" -eq 1 ] || fail "$what: not one line on stderr: $(head -c 600 stderr)"
  grep -q -- "$pattern" stderr || fail "$what: the message does not say '$pattern': $(cat stderr)"
  [ ! -s stdout ] || fail "$what: $(wc -c <stdout) bytes on standard output"
}

# 11: --explain with the document on standard output: the log goes to standard error
"$CRAWLBOOK" --seed 1 -f json --explain -o - >doc.json 2>log.txt || fail "11: --explain -o - failed"
python3 -c "import json; json.load(open('doc.json'))" || fail "11: --explain -o - wrote invalid JSON"
"$CRAWLBOOK" --seed 1 -f json --explain -o x.json >want.txt || fail "11: --explain -o x.json failed"
cmp -s doc.json x.json || fail "11: the document on standard output differs from the file"
[ -s want.txt ] && cmp -s log.txt want.txt || fail "11: the log on standard error is not the procedure's log"
"$CRAWLBOOK" --seed 1 -f pdf --explain -o /dev/stdout >doc.pdf 2>/dev/null || fail "11: --explain -o /dev/stdout failed"
[ "$(tail -c 6 doc.pdf | tr -d '\n')" = '%%EOF' ] || fail "11: the PDF on /dev/stdout does not end at %%EOF"

# 13: the documented minimum page: the sheet says what does not fit (exit 2, not "out of memory");
# the booklet lays it out
long=$(python3 -c "print('A Very Long Title ' * 8)")
for g in dropdice cards leximorph battleships preconnect; do
  refused "13: $g 90x90mm" 'too small for the one-page sheet' -g $g --seed 1 --page-size 90x90mm -f pdf -o -
  refused "13: $g 110x110mm, long title" 'leave [0-9]* mm for the map and the key' -g $g --seed 2 \
    --page-size 110x110mm --title "$long" -f pdf -o -
  "$CRAWLBOOK" -g $g --seed 1 --page-size 90x90mm --template booklet -o b.pdf || fail "13: $g booklet 90x90mm"
done
refused "13: cards 3 levels 100x100mm" 'too small' -g cards --seed 3 --levels 3 --page-size 100x100mm -f pdf -o -
refused "13: a wide page 120x90mm with a long title" 'leave [0-9]* mm for the map,' -g leximorph --seed 1 \
  --page-size 120x90mm --title "$long" -f pdf -o -
"$CRAWLBOOK" -g dropdice --seed 2 --page-size 200x90mm -o w.pdf 2>/dev/null || fail "13: a wide 200x90mm sheet"

# 10: JSON past render's limits is refused before its first byte, on standard output too
refused "10: battleships JSON past the value limit on -o -" 'more than 8,000,000 values' \
  -g battleships --seed 1 --grid 100 --levels 250 --extra 5000 -f json -o -

# 8: theme words longer than the JSON reader takes are refused at their row (file:line); at the
# limits, the JSON written is read back
theme() { # OUT ROWS...: crypt with these rows appended last, each ROW fields joined by '|'
  local out=$1
  shift
  cp "$CB_SOURCE_DIR/templates/themes/crypt.txt" "$out"
  printf '%s\n' "$@" >>"$out"
}
b() { python3 -c "import sys; print('\u00e9' * (int(sys.argv[1]) // 2) + 'x' * (int(sys.argv[1]) % 2))" "$1"; }
line=$(($(wc -l <"$CB_SOURCE_DIR/templates/themes/crypt.txt") + 1))
theme room.txt "room|$(b 201)|faction|any"
refused "8: a room name of 201 bytes" "room.txt:$line: .*a room name holds at most 200 bytes" --seed 1 --theme ./room.txt -f json -o -
theme dress.txt "room|Test hall|faction|any" "dressing|$(b 1001)"
refused "8: a dressing of 1,001 bytes" "dress.txt:$((line + 1)): field 2 is 1001 bytes" --seed 1 --theme ./dress.txt -f json -o -
theme mon.txt "monster|tm|$(b 201)|tms|7|1|1 weapon|1d6|12|60'|2d4|About."
refused "8: a monster name of 201 bytes" "mon.txt:$line: field 3 is 201 bytes" --seed 1 --theme ./mon.txt -f json -o -
theme title.txt "title-a|$(b 97)"
refused "8: a title-a of 97 bytes (with a title-b, past a title's 200)" "title.txt:$line: field 2 is 97 bytes" \
  --seed 1 --theme ./title.txt -f json -o -
theme hook.txt "situation|the test" "hook|$(b 1001)|short"
refused "8: a hook line of 1,001 bytes" "hook.txt:$((line + 1)): field 2 is 1001" --seed 1 --theme ./hook.txt -f json -o -
# at the limits every row is taken, and what is written reads back (a passage's note longer than a
# JSON file takes is cut between characters with an ellipsis)
theme max.txt "room|$(b 200)|faction, beasts|any" "dressing|$(b 980) ~ short one" "dressing|$(b 980) ~ short two" \
  "special|$(b 980) ~ special short" "trap|$(b 480) ~ trig|$(b 480) ~ eff|$(b 1000)" "treasure|$(b 1000)"
for seed in 1 2 3; do
  "$CRAWLBOOK" --seed $seed --theme ./max.txt --rooms 40 -f json -o max$seed.json || fail "8: the theme at its limits, seed $seed"
  grep -q "$(b 200)" max$seed.json || fail "8: the room at its limits is not in the dungeon, seed $seed"
  "$CRAWLBOOK" render max$seed.json -f json -o back$seed.json || fail "8: render refused what we wrote, seed $seed"
done

# 9: a table path over 256 bytes is recorded in `options`, and render reads it back
deep=$(python3 -c "print('/'.join(['d' * 120] * 5))")
mkdir -p "$deep"
for t in themes/crypt.txt dropdice-contents.txt cards-contents.txt mask-cross.txt leximorph-letters.txt \
  leximorph-junctions.txt leximorph-walls.txt leximorph-doors.txt; do
  cp "$CB_SOURCE_DIR/templates/$t" "$deep/"
done
[ ${#deep} -gt 600 ] || die "9: the path is only ${#deep} bytes"
paths() { # GENERATOR ARGS...: a JSON written with them renders to the same bytes
  local g=$1
  shift
  "$CRAWLBOOK" -g "$g" --seed 1 "$@" -f json -o long.json || { fail "9: $g $1: not written"; return; }
  "$CRAWLBOOK" render long.json -f json -o again.json 2>err.txt || fail "9: $g $1: render refused it: $(cat err.txt)"
  cmp -s long.json again.json || fail "9: $g $1: the JSON read back differs"
}
paths dropdice --theme "./$deep/crypt.txt" --content "./$deep/dropdice-contents.txt"
paths cards --content "./$deep/cards-contents.txt" --shape "./$deep/mask-cross.txt"
paths leximorph --letters "./$deep/leximorph-letters.txt" --junctions "./$deep/leximorph-junctions.txt" \
  --walls "./$deep/leximorph-walls.txt" --doors "./$deep/leximorph-doors.txt"

# 15: render runs the key walk: a lock whose key lies behind it and a key object of a key nobody
# holds are noted (the file renders, as a --faithful dungeon's may); two rooms numbered alike on one
# level are refused
"$CRAWLBOOK" --seed 1 -f json -o base.json 2>/dev/null || die "15: cannot make base.json"
edit() { # OUT PYTHON: base.json as d, changed by PYTHON
  python3 -c "import json
d = json.load(open('base.json'))
room = {r['id']: r for r in d['rooms']}
$2
json.dump(d, open('$1', 'w'), indent=1)"
}
notes() { # WHAT FILE PATTERN: render FILE succeeds with a note matching PATTERN
  "$CRAWLBOOK" render "$2" -f json -o back.json 2>err.txt || fail "$1: render failed: $(cat err.txt)"
  grep -q "crawlbook: note: $2: $3" err.txt || fail "$1: no note '$3': $(cat err.txt)"
}
"$CRAWLBOOK" render base.json -f json -o back.json 2>err.txt || fail "15: base.json"
[ ! -s err.txt ] || fail "15: a playable dungeon got: $(cat err.txt)"
edit behind.json "
room[1]['keys'] = []; room[10]['keys'] = ['K1']
obj = [t for t in room[1]['contents']['treasure'] if t['what'].startswith('K1: ')]
room[1]['contents']['treasure'] = [t for t in room[1]['contents']['treasure'] if t not in obj]
room[10]['contents']['treasure'] += obj"
notes "15: a key behind its own lock" behind.json 'lock K1 (passage 1, 10-7) never opens: its key, in room 10, lies behind it'
edit lost.json "room[4]['contents']['treasure'].append({'what': 'K9: a key-shaped hole', 'value': 0})"
notes "15: a key object of a key nobody holds" lost.json 'room 4 holds the object of key K9, but no room holds that key'
edit twice.json "room[3]['number'] = 5"
refused "15: two rooms numbered 5 on level 1" 'room 5 is numbered 5 on level 1, as room 3 is' render twice.json -f json -o -

# 16: cards reaching fewer levels than --levels asks says so, once a dungeon (a batch counts twice)
"$CRAWLBOOK" -g cards --seed 1 --grid 3x3 --levels 60 -f json -o c.json 2>err.txt || fail "16: cards --levels 60"
grep -q 'crawlbook: note: seed 1: the dungeon reached 1 of the 60 levels asked (--levels 60)' err.txt ||
  fail "16: no note of the levels reached: $(cat err.txt)"
"$CRAWLBOOK" -g cards --seeds 1..2 --grid 3x3 --levels 9 -o c.pdf 2>err.txt || fail "16: a batch"
[ "$(grep -c 'levels asked' err.txt)" = 2 ] || fail "16: a batch of 2 noted $(grep -c 'levels asked' err.txt) times"
"$CRAWLBOOK" -g battleships --seed 1 --levels 3 -f json -o c.json 2>err.txt || fail "16: battleships"
[ ! -s err.txt ] || fail "16: every level reached, yet: $(cat err.txt)"

# 20: every sentence of a passage's note begins with a capital ("... matching rune. A landing ...")
for g in dropdice cards preconnect; do
  for seed in 1 2 3 4 5 6; do
    "$CRAWLBOOK" -g $g --seed $seed -f json -o n.json 2>/dev/null || fail "20: $g $seed"
    low=$(grep -o '"note":"[^"]*"' n.json | grep -E '\. [a-z]|^"note":"[a-z]' || true)
    [ -z "$low" ] || fail "20: $g seed $seed: a note's sentence in lower case: $(echo "$low" | head -1)"
  done
done

# 19: messages name what the user gave: a mask file's grid is not a --grid; a sheet that runs over
# several pages says how many
python3 -c "print('\n'.join(['#####'] * 16))" >tall.txt
refused "19: a 5x16 mask past one deck" "--shape ./tall.txt: its 5x16 grid has 80 cards, but one deck holds 52" \
  -g cards --seed 1 --shape ./tall.txt -f pdf -o -
"$CRAWLBOOK" -g leximorph --seed 1 --page-size 100x160mm -o many.pdf 2>err.txt || fail "19: leximorph 100x160mm"
pages=$(pdfinfo many.pdf | sed -n 's/^Pages: *//p')
[ "$pages" -gt 2 ] || fail "19: leximorph 100x160mm took $pages pages"
grep -q "it runs over $pages pages" err.txt || fail "19: a $pages-page sheet said: $(cat err.txt)"

# 18: a byte-order mark is named, in themes, masks and every other table, as JSON and templates do
bom() { printf '\357\273\277' >"$1" && cat "$CB_SOURCE_DIR/templates/$2" >>"$1"; }
bom bom-theme.txt themes/crypt.txt
refused "18: a theme with a BOM" 'bom-theme.txt:1: the file starts with a byte-order mark' --seed 1 --theme ./bom-theme.txt -f json -o -
bom bom-mask.txt mask-cross.txt
refused "18: a mask with a BOM" 'bom-mask.txt:1: the file starts with a byte-order mark' -g cards --seed 1 --shape ./bom-mask.txt -f json -o -
bom bom-content.txt dropdice-contents.txt
refused "18: a content table with a BOM" 'bom-content.txt:1: the file starts with a byte-order mark' -g dropdice --seed 1 --content ./bom-content.txt -f json -o -

# 17: @include inside a /* */ comment or a string of several lines is nothing libconfig reads: the
# template is taken; one after a '#' comment holding a quote is still an @include, and refused
mkdir -p incdir
printf 'layout = "sheet";\n/* a comment\n@include "incdir"\n*/\n' >comment.cfg
printf 'layout = "sheet";\nname = "two\n@include \\"incdir\\"\nlines";\n' >string.cfg
printf 'layout = "sheet"; # "\n@include "incdir"\n' >quote.cfg
for t in comment string; do
  "$CRAWLBOOK" --seed 1 --template ./$t.cfg -o t.pdf 2>err.txt || fail "17: @include in a $t refused: $(cat err.txt)"
done
refused "17: @include after a comment with a quote" 'quote.cfg:2: @include is not supported' --seed 1 --template ./quote.cfg -f pdf -o -

# 19: text our fonts cannot draw is refused naming where it came from: the theme's file:line, the
# JSON file and its field, --title
sed 's/^dressing | \([^~]*\)$/dressing | \1 \xe4\xb8\xad/' \
  "$CB_SOURCE_DIR/templates/themes/crypt.txt" >cjk.txt
refused "19: a theme row our fonts cannot draw" "cjk.txt:[0-9]*: our fonts cannot draw U+4E2D" --seed 1 --theme ./cjk.txt -f pdf -o -
at=$(sed -n 's/^crawlbook: \.\/cjk\.txt:\([0-9]*\): our fonts cannot draw U+4E2D (in "\([^"]*\)").*/\1 \2/p' stderr)
[ -n "$at" ] && sed -n "${at%% *}p" cjk.txt | grep -qF "| ${at#* }" || fail "19: the line named does not hold the text: $at"
edit cjk.json "room[3]['contents']['name'] = 'A \u4e2d room'"
refused "19: a JSON field our fonts cannot draw" "cjk.json: room 3's name: our fonts cannot draw U+4E2D" render cjk.json -f pdf -o -
refused "19: a --title our fonts cannot draw" "--title: our fonts cannot draw U+4E2D" --seed 1 --title "$(printf 'A \xe4\xb8\xad')" -f pdf -o -
refused "19: a theme row our fonts cannot draw, in a batch" "cjk.txt:[0-9]*: our fonts cannot draw U+4E2D" --seeds 1..2 --theme ./cjk.txt -f pdf -o -

finish
