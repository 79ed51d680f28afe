#!/usr/bin/env bash
# The booklet (booklet.md, "Pages"): the cover shows the title and the
# situation and no map; the hook, the roster and the wandering table come
# before the first room of the key; the procedure appendix only with
# --appendix. The sheet (stocking.md): hook, roster and wandering table on
# the page of -g cards --seed 23, which once printed neither.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext

"$CRAWLBOOK" -g dropdice --seed 11 --template booklet -o "$WORK/b.pdf" 2>/dev/null
pdftotext -f 1 -l 1 "$WORK/b.pdf" "$WORK/cover.txt"
grep -q "captured outlaw" "$WORK/cover.txt" || fail "the cover does not give the situation"
# the game master's map marks its rooms with numbers and its legend; the cover has neither
grep -qE '^(Legend|[0-9]+|K1|S)$' "$WORK/cover.txt" && fail "the cover shows the game master's map"
pdftotext "$WORK/b.pdf" "$WORK/b.txt"
tr '\n' ' ' <"$WORK/b.txt" >"$WORK/flat.txt"
at() { grep -ob "$1" "$WORK/flat.txt" | head -1 | cut -d: -f1; }
room1=$(at "Fletcher's bench")
for what in "The hook." "Roster." "Wandering monsters"; do
  pos=$(at "$what")
  [ -n "$pos" ] || { fail "the booklet leaves off '$what'"; continue; }
  [ "$pos" -lt "$room1" ] || fail "'$what' comes after the key's first room"
done
grep -q "The procedure, step by step" "$WORK/b.txt" && fail "the appendix is there without --appendix"
"$CRAWLBOOK" -g dropdice --seed 11 --template booklet --appendix -o "$WORK/a.pdf" 2>/dev/null
pdftotext "$WORK/a.pdf" "$WORK/a.txt"
grep -q "The procedure, step by step" "$WORK/a.txt" || fail "--appendix adds no appendix"

"$CRAWLBOOK" -g cards --seed 23 -o "$WORK/s.pdf" 2>/dev/null
pdftotext "$WORK/s.pdf" "$WORK/s.txt"
for what in "The hook." "Roster." "Wandering monsters (d6)." "1: "; do
  grep -qF "$what" "$WORK/s.txt" || fail "the sheet of cards seed 23 leaves off '$what'"
done
finish
