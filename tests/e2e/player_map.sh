#!/usr/bin/env bash
# The players' map names neither the seed nor the command that makes the game
# master's sheet (booklet.md: a player could rebuild it), on both backends;
# the game master's sheet of the same dungeon names both.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext

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
finish
