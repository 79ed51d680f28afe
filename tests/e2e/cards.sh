#!/bin/bash
# cards (Cardtography) from the command line: every bad option is a clear
# error (exit 2, naming the option or file:line) that writes nothing; a good
# run makes a PDF, JSON that renders to the same bytes, and --explain prose.
set -u
: "${CRAWLBOOK:?set CRAWLBOOK to the binary}" "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source root}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_error() { # WANT ARGS...: exit 2, WANT in the message, nothing written
  local want=$1 out="$tmp/out/dungeon.pdf" err rc
  shift
  rm -rf "$tmp/out"
  mkdir "$tmp/out"
  err=$("$CRAWLBOOK" --generator cards "$@" -o "$out" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "exit $rc, not 2, for: $* ($err)"
  grep -qF -- "$want" <<<"$err" || fail "message '$err' does not say '$want' for: $*"
  [ -z "$(ls -A "$tmp/out")" ] || fail "wrote $(ls -A "$tmp/out") for: $*"
}

printf '#####\n##x##\n#####\n' >"$tmp/bad-mask.txt"
printf '###\n##\n' >"$tmp/ragged-mask.txt"
printf 'SC | * | - | black rooms\n' >"$tmp/short-table.txt"
printf '* | 1-99 | - | too high\n' >"$tmp/bad-table.txt"

expect_error "--grid '0x0'" --grid 0x0
expect_error "--grid 8x8: 64 cards, but one deck holds 52" --grid 8x8
expect_error "--grid '5by5'" --grid 5by5
expect_error "--rooms 60: a level of up to 60 cards, but one deck holds 52" --sprawl --rooms 60
expect_error "--levels 1000: expected 1 to 400 levels of 2500 cards" --grid 50x50 --decks 50 --levels 1000
# more levels than the deck holds: a fresh deck is shuffled in, as a player would
"$CRAWLBOOK" --generator cards --seed 4 --levels 3 --explain -o "$tmp/fresh.json" >"$tmp/fresh.txt" || fail "--levels 3"
grep -q "a fresh deck of 52 cards is shuffled in" "$tmp/fresh.txt" || fail "--levels 3 logs no fresh deck"
expect_error "$tmp/bad-mask.txt:2: column 3" --shape "$tmp/bad-mask.txt"
expect_error "$tmp/ragged-mask.txt:2:" --shape "$tmp/ragged-mask.txt"
expect_error "--shape $tmp/none.txt: cannot open" --shape "$tmp/none.txt"
expect_error "--grid and --shape" --grid 3x3 --shape "$CB_SOURCE_DIR/templates/mask-cross.txt"
expect_error "--entrance 9,9: outside the 5x5 grid" --entrance 9,9
expect_error "--entrance 1,1: that cell holds no card" --shape oval --entrance 1,1
expect_error "--entrance 'side'" --entrance side
expect_error "--decks '2001'" --decks 2001
expect_error "--rediscovered 'maybe'" --rediscovered maybe
expect_error "--min-rooms '0'" --min-rooms 0
expect_error "--min-rooms 30" --min-rooms 30
expect_error "--length-unit '0'" --length-unit 0
expect_error "--rooms 10: cards deals a grid" --rooms 10
expect_error "--sprawl deals on an unbounded grid" --sprawl --grid 3x3
expect_error "(add --decks)" --sprawl --rooms 300
expect_error "--rooms 300: a printed page holds at most 200" --sprawl --rooms 300 --decks 8
expect_error "--rooms '100001'" --sprawl --rooms 100001 --decks 2000
expect_error "no row for the" --content "$tmp/short-table.txt"
expect_error "$tmp/bad-table.txt:1: ranks" --content "$tmp/bad-table.txt"
expect_error "$tmp/none.txt" --content "$tmp/none.txt"

# cards options belong to cards
rm -rf "$tmp/out" && mkdir "$tmp/out"
"$CRAWLBOOK" --generator dropdice --grid 3x3 -o "$tmp/out/x.pdf" 2>/dev/null
[ $? -eq 2 ] && [ -z "$(ls -A "$tmp/out")" ] || fail "--grid with dropdice"

# a good run: the map, the JSON, the same bytes from the JSON
"$CRAWLBOOK" --generator cards --seed 7 --jokers -o "$tmp/a.pdf" || fail "seed 7 PDF"
"$CRAWLBOOK" --generator cards --seed 7 --jokers -o "$tmp/a.json" || fail "seed 7 JSON"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/b.pdf" || fail "render"
cmp -s "$tmp/a.pdf" "$tmp/b.pdf" || fail "render of the JSON differs from the generated PDF"
"$CRAWLBOOK" render "$tmp/a.json" -o "$tmp/b.json" || fail "render to JSON"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "JSON round trip differs"
"$CRAWLBOOK" --generator cards --seed 7 --jokers -o "$tmp/c.pdf" || fail "seed 7 again"
cmp -s "$tmp/a.pdf" "$tmp/c.pdf" || fail "same seed, different bytes"
grep -q '"generator": "cards"' "$tmp/a.json" || fail "JSON generator"
grep -q '"turns":\[{"room":1' "$tmp/a.json" || fail "JSON turns"

# every shape, entrance, level and sprawl option makes a dungeon
for args in "--shape oval --grid 7x5" "--shape mask-cross" "--shape $CB_SOURCE_DIR/templates/mask-tower.txt" \
  "--entrance top" "--entrance centre" "--entrance 2,3" "--rediscovered one-way" "--rediscovered concealed" \
  "--rediscovered ignore" "--no-doubles-obstructed" "--faithful" "--levels 3 --decks 2" "--sprawl --rooms 30" \
  "--sprawl --levels 2 --rooms 20 --entrance centre" "--lengths --length-unit 5" "--content cards-contents" "--content cards-burial-caves --jokers"; do
  # shellcheck disable=SC2086
  "$CRAWLBOOK" --generator cards --seed 11 $args -o "$tmp/x.json" || fail "cards $args"
  # shellcheck disable=SC2086
  "$CRAWLBOOK" render "$tmp/x.json" -o "$tmp/x.svg" || fail "render cards $args"
done

# --explain reads like a game master at the table
"$CRAWLBOOK" --generator cards --seed 7 --explain >"$tmp/log.txt" || fail "--explain"
grep -q '^Room 1 (.* of .*) at column 3, row 5, the entrance with the way out below it: rolled [1-6] [1-6] [1-6]' \
  "$tmp/log.txt" || fail "--explain first turn: $(head -3 "$tmp/log.txt")"
grep -q 'entered from room 1' "$tmp/log.txt" || fail "--explain narrates entering"

if command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null && command -v pdffonts >/dev/null; then
  pdfinfo "$tmp/a.pdf" | grep -q 'Page size: *595.276 x 841.89' || fail "page size"
  pdffonts "$tmp/a.pdf" | awk 'NR > 2 && ($(NF-4) != "yes" || $(NF-3) != "yes") { bad = 1 } END { exit bad }' ||
    fail "fonts not embedded and subset"
  text=$(pdftotext "$tmp/a.pdf" -)
  grep -q 'Cardtography' <<<"$text" || fail "no Cardtography on the sheet"
  grep -q 'Room key' <<<"$text" || fail "no room key"
  grep -q -- '--generator cards --seed 7' <<<"$text" || fail "no regeneration line"
fi
echo "cards e2e: ok"
