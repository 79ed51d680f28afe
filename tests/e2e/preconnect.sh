#!/usr/bin/env bash
# preconnect from the command line: every bad option exits 2 and writes
# nothing; a good run writes a PDF whose key lists each door's roll, --explain
# speaks in a game master's words, and a saved JSON renders to the same bytes.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

bad() { # expected-words args...
  local words=$1
  shift
  local out="$tmp/bad.pdf" err
  rm -f "$out" "$tmp/bad.json"
  set +e
  err=$("$CRAWLBOOK" "$@" 2>&1 >/dev/null)
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "crawlbook $* exited $rc, expected 2"
  [ ! -e "$out" ] && [ ! -e "$tmp/bad.json" ] || fail "crawlbook $* wrote a file"
  case "$err" in *"$words"*) ;; *) fail "crawlbook $*: '$err' does not say '$words'" ;; esac
}
bad "--rooms" --generator preconnect --seed 1 --rooms 0 -o "$tmp/bad.pdf"
bad "--rooms" --generator preconnect --seed 1 --rooms 501 -o "$tmp/bad.json"
bad "--rooms" --generator preconnect --seed 1 --rooms twelve -o "$tmp/bad.pdf"
bad "--rooms" --generator preconnect --seed 1 --rooms 300 -o "$tmp/bad.pdf"
bad "--levels" --generator preconnect --seed 1 --levels 2 -o "$tmp/bad.pdf"
bad "--ladders" --generator dropdice --seed 1 --ladders -o "$tmp/bad.pdf"
bad "--seed" --generator preconnect --seed -4 -o "$tmp/bad.pdf"
bad "unknown option" --generator preconnect --stairs -o "$tmp/bad.pdf"

# a good run: the sheet, its key and the map's words
"$CRAWLBOOK" --generator preconnect --seed 7 --ladders -o "$tmp/a.pdf"
[ -s "$tmp/a.pdf" ] || fail "no PDF written"
if command -v pdftotext >/dev/null; then
  pdftotext "$tmp/a.pdf" "$tmp/a.txt"
  grep -q "Room key" "$tmp/a.txt" || fail "no room key"
  # a stocked key leaves the d10 rolls to the appendix (spec/stocking.md)
  grep -q "Doors (d10)" "$tmp/a.txt" && fail "the key lists the doors' rolls"
  "$CRAWLBOOK" --generator preconnect --seed 7 --ladders --appendix -o "$tmp/b.pdf"
  pdftotext "$tmp/b.pdf" "$tmp/b.txt"
  grep -q "d10" "$tmp/b.txt" || fail "the appendix does not give the doors' rolls"
  grep -q -- "--ladders" "$tmp/a.txt" || fail "the footer does not regenerate with --ladders"
  for n in 1 2 3 4 5 6 7 8 9 10 11 12; do
    grep -qw "$n" "$tmp/a.txt" || fail "room $n is not on the sheet"
  done
fi

# --explain: a line per step, in words
"$CRAWLBOOK" --generator preconnect --seed 7 --explain >"$tmp/explain.txt"
grep -Eq "^Room [0-9]+, (north|east|south|west) door: rolled [0-9]" "$tmp/explain.txt" || fail "no door rolls in --explain"
grep -Eq "^Room 2: [0-9]+ by [0-9]+ ft" "$tmp/explain.txt" || fail "no room sizes in --explain"
grep -q "^The map: 12 rooms" "$tmp/explain.txt" || fail "no summary in --explain"

# same seed, same bytes; JSON rendered back gives the very same PDF
"$CRAWLBOOK" --generator preconnect --seed 7 --ladders -o "$tmp/b.pdf"
cmp -s "$tmp/a.pdf" "$tmp/b.pdf" || fail "two runs differ"
"$CRAWLBOOK" --generator preconnect --seed 7 --ladders -o "$tmp/a.json"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/c.pdf"
cmp -s "$tmp/a.pdf" "$tmp/c.pdf" || fail "render of the JSON differs from the direct PDF"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/c.json"
cmp -s "$tmp/a.json" "$tmp/c.json" || fail "JSON read back and written again differs"

# a broken procedure is refused with a message, nothing written
sed 's/"facing":"N"/"facing":"up"/' "$tmp/a.json" >"$tmp/broken.json"
set +e
err=$("$CRAWLBOOK" render "$tmp/broken.json" -o "$tmp/broken.pdf" 2>&1)
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "broken JSON exited $rc"
[ ! -e "$tmp/broken.pdf" ] || fail "broken JSON wrote a PDF"
case "$err" in *facing*) ;; *) fail "broken JSON: '$err' does not name 'facing'" ;; esac

# sizes and --faithful
for rooms in 1 5 30 60; do
  "$CRAWLBOOK" --generator preconnect --seed 3 --rooms "$rooms" -o "$tmp/r$rooms.pdf" || fail "--rooms $rooms"
done
"$CRAWLBOOK" --generator preconnect --seed 3 --rooms 500 -o "$tmp/big.json" || fail "--rooms 500 to JSON"
"$CRAWLBOOK" --generator preconnect --seed 3 --faithful -o "$tmp/f.pdf" || fail "--faithful"

# the plan has a scale bar in feet under its north arrow (generators.md, booklet.md)
"$CRAWLBOOK" --generator preconnect --seed 58 --rooms 15 -o "$tmp/bar.pdf" || fail "seed 58"
pdftotext -f 1 -l 1 "$tmp/bar.pdf" - | grep -Eq '^(20|25|50|100) ft$' || fail "the plan has no scale bar"

echo "preconnect e2e: $fails failure(s)"
[ "$fails" -eq 0 ]
