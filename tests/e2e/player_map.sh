#!/usr/bin/env bash
# The players' map names neither the seed nor the command that makes the game
# master's sheet (booklet.md: a player could rebuild it), on both backends;
# the game master's sheet of the same dungeon names both. The booklet's
# handout is the same pages as --player-map at the booklet's page size (its
# levels side by side, its notes a line for every room the party can see).
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext
need pdfinfo

for gen in dropdice cards leximorph preconnect battleships; do
  for backend in cairo haru; do
    "$CRAWLBOOK" -g $gen --seed 4242 --backend $backend --player-map -o "$WORK/p.pdf" || die "$gen: crawlbook failed"
    pdftotext "$WORK/p.pdf" "$WORK/p.txt"
    if grep -Eiq 'seed|4242|make it again|--generator' "$WORK/p.txt"; then
      fail "$gen ($backend): the players' map shows: $(grep -Ei 'seed|4242|make it again|--generator' "$WORK/p.txt" | head -2)"
    fi
  done
  "$CRAWLBOOK" -g $gen --seed 4242 -o "$WORK/gm.pdf" || die "$gen: crawlbook failed"
  pdftotext "$WORK/gm.pdf" "$WORK/gm.txt"
  grep -q 'seed 4242' "$WORK/gm.txt" || fail "$gen: the game master's sheet lost its seed"
  grep -q 'make it again' "$WORK/gm.txt" || fail "$gen: the game master's sheet lost its command"
done
# the text of pages from..to of a PDF, footers' page numbers and blank lines left out
handout_text() {
  pdftotext -f "$2" -l "$3" "$1" - | grep -Ev '^(page [0-9]+ of [0-9]+)?$'
}
for gen in battleships cards dropdice; do
  "$CRAWLBOOK" -g $gen --seed 91 --template booklet -o "$WORK/b.pdf" || die "$gen: the booklet failed"
  "$CRAWLBOOK" -g $gen --seed 91 --page-size a5 --player-map -o "$WORK/p.pdf" || die "$gen: crawlbook failed"
  pages=$(pdfinfo "$WORK/b.pdf" | awk '/^Pages/ {print $2}')
  handout=$(pdfinfo "$WORK/p.pdf" | awk '/^Pages/ {print $2}')
  first=0
  for ((k = 1; k <= pages; k++)); do
    if pdftotext -f $k -l $k "$WORK/b.pdf" - | grep -q "The players' map: what the party knows"; then first=$k; break; fi
  done
  [ "$first" -gt 0 ] || { fail "$gen: the booklet has no players' map"; continue; }
  handout_text "$WORK/b.pdf" $first $((first + handout - 1)) >"$WORK/bt.txt"
  handout_text "$WORK/p.pdf" 1 $handout >"$WORK/pt.txt"
  diff -q "$WORK/bt.txt" "$WORK/pt.txt" >/dev/null ||
    fail "$gen: the booklet's handout (page $first) differs from --player-map: $(diff "$WORK/bt.txt" "$WORK/pt.txt" | head -4 | tr '\n' ' ')"
done
finish
