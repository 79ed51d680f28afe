#!/usr/bin/env bash
# The booklet (booklet.md, "Pages"): the cover shows the title and the
# situation and no map; the hook, the roster and the wandering table come
# before the first room of the key; the procedure appendix only with
# --appendix. The sheet (stocking.md): hook, roster and wandering table on
# the page of -g cards --seed 23, which once printed neither.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v pdftotext >/dev/null || exit 77

"$CRAWLBOOK" -g dropdice --seed 11 --template booklet -o "$tmp/b.pdf" 2>/dev/null
pdftotext -f 1 -l 1 "$tmp/b.pdf" "$tmp/cover.txt"
grep -q "captured outlaw" "$tmp/cover.txt" || fail "the cover does not give the situation"
# the game master's map marks its rooms with numbers and its legend; the cover has neither
grep -qE '^(Legend|[0-9]+|K1|S)$' "$tmp/cover.txt" && fail "the cover shows the game master's map"
pdftotext "$tmp/b.pdf" "$tmp/b.txt"
tr '\n' ' ' <"$tmp/b.txt" >"$tmp/flat.txt"
at() { grep -ob "$1" "$tmp/flat.txt" | head -1 | cut -d: -f1; }
room1=$(at "Fletcher's bench")
for what in "The hook." "Roster." "Wandering monsters"; do
  pos=$(at "$what")
  [ -n "$pos" ] || { fail "the booklet leaves off '$what'"; continue; }
  [ "$pos" -lt "$room1" ] || fail "'$what' comes after the key's first room"
done
grep -q "The procedure, step by step" "$tmp/b.txt" && fail "the appendix is there without --appendix"
"$CRAWLBOOK" -g dropdice --seed 11 --template booklet --appendix -o "$tmp/a.pdf" 2>/dev/null
pdftotext "$tmp/a.pdf" "$tmp/a.txt"
grep -q "The procedure, step by step" "$tmp/a.txt" || fail "--appendix adds no appendix"

"$CRAWLBOOK" -g cards --seed 23 -o "$tmp/s.pdf" 2>/dev/null
pdftotext "$tmp/s.pdf" "$tmp/s.txt"
for what in "The hook." "Roster." "Wandering monsters (d6)." "1: "; do
  grep -qF "$what" "$tmp/s.txt" || fail "the sheet of cards seed 23 leaves off '$what'"
done
[ "$fails" -eq 0 ] || exit 1
echo "ok"
