#!/usr/bin/env bash
# battleships end to end: every bad option exits 2 with a message and writes
# nothing; the PDF has the grid page, embeds its fonts and passes qpdf; a
# saved JSON renders to the same bytes; 1,000 levels generate quickly.
set -euo pipefail
: "${CRAWLBOOK:?set CRAWLBOOK to the binary}"
for tool in pdfinfo pdffonts pdftotext qpdf; do
  command -v "$tool" >/dev/null || { echo "skip: $tool missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
fail() { echo "FAIL: $*" >&2; exit 1; }

refuse() { # refuse "what the message says" args...
  local says=$1
  shift
  local out="$tmp/refused.pdf" rc=0
  "$CRAWLBOOK" --generator battleships --seed 1 "$@" -o "$out" 2>"$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "$* exited $rc, not 2"
  [ ! -e "$out" ] || fail "$* wrote $out"
  grep -q -- "$says" "$tmp/err" || fail "$*: '$(cat "$tmp/err")' does not say '$says'"
}
refuse "--grid '0'" --grid 0
refuse "--grid 1" --grid 1
refuse "--grid '101'" --grid 101
refuse "--grid '99999999999'" --grid 99999999999
refuse "--extra 1000" --extra 1000
refuse "--extra 70" --extra 70
refuse "--extra '-1'" --extra -1
refuse "a ship of 11" --fleet 11
refuse "--fleet '5,,3'" --fleet 5,,3
refuse "--fleet 'x'" --fleet x
refuse "ship cells" --grid 4 --extra 0 --fleet 4,4,4,4
refuse "does not fit" --grid 3 --levels 1 --extra 0 --fleet 3,3
refuse "--extra-stairs" --levels 1 --extra-stairs 1
refuse "--matching-stairs" --levels 1 --matching-stairs
refuse "--extra 3 (the default)" --grid 3
refuse "red pegs" --grid 4 --levels 3 --extra 0 --extra-stairs 1
refuse "--rooms" --rooms 12
refuse "too many for a printed page" --levels 21

# the grids belong to the booklet and the appendix, not the one-page sheet
"$CRAWLBOOK" --generator battleships --seed 3 -o "$tmp/sheet.pdf"
pdftotext "$tmp/sheet.pdf" "$tmp/sheet.txt"
grep -q "The grids" "$tmp/sheet.txt" && fail "the one-page sheet carries the grids"
"$CRAWLBOOK" --generator battleships --seed 3 --template booklet -o "$tmp/a.pdf"
pages=$(pdfinfo "$tmp/a.pdf" | awk '/^Pages:/ {print $2}')
[ "$pages" -ge 2 ] || fail "expected the grid page, got $pages pages"
pdftotext "$tmp/a.pdf" "$tmp/a.txt"
grep -q "The grids" "$tmp/a.txt" || fail "no grid page"
grep -q "Level 2 · 1" "$tmp/a.txt" || fail "the key does not name level 2"
grep -q "Stairs: level 1 room" "$tmp/a.txt" || fail "the stairs are not spelled out"
qpdf --check "$tmp/a.pdf" >/dev/null || fail "qpdf --check"
if pdffonts "$tmp/a.pdf" | tail -n +3 | awk '{print $(NF-4), $(NF-3)}' | grep -q no; then fail "a font is not embedded and subset"; fi

# same seed, same bytes; JSON renders to the same PDF
"$CRAWLBOOK" --generator battleships --seed 3 --template booklet -o "$tmp/b.pdf"
cmp -s "$tmp/a.pdf" "$tmp/b.pdf" || fail "two runs differ"
"$CRAWLBOOK" --generator battleships --seed 3 -o "$tmp/a.json"
"$CRAWLBOOK" render "$tmp/a.json" --template booklet -o "$tmp/c.pdf"
cmp -s "$tmp/a.pdf" "$tmp/c.pdf" || fail "render from JSON differs from generating"
"$CRAWLBOOK" --generator battleships --seed 4 --levels 3 --secret-rows --matching-stairs --extra-stairs 1 \
  --faithful -o "$tmp/d.json"
"$CRAWLBOOK" --generator battleships --seed 4 --levels 3 --secret-rows --matching-stairs --extra-stairs 1 \
  --faithful -o "$tmp/d.pdf"
"$CRAWLBOOK" render "$tmp/d.json" -o "$tmp/e.pdf"
cmp -s "$tmp/d.pdf" "$tmp/e.pdf" || fail "render from JSON differs (options)"

# a hand-broken grid is refused
sed 's/"rows":\["[.#]/"rows":["W/' "$tmp/a.json" >"$tmp/bad.json"
rc=0
"$CRAWLBOOK" render "$tmp/bad.json" -o "$tmp/bad.pdf" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$tmp/bad.pdf" ] || fail "a broken grid was accepted ($rc)"
grep -q "1;1 takes no peg" "$tmp/err" || fail "broken grid: $(cat "$tmp/err")"

# the game master's narration
"$CRAWLBOOK" --generator battleships --seed 3 --secret-rows --explain >"$tmp/log"
grep -q "has no white peg: a secret passage from room" "$tmp/log" || fail "no row narration"
grep -q "stairs from room" "$tmp/log" || fail "no stairs narration"

# the zine's map panel shows every level (level 2 holds the boss)
"$CRAWLBOOK" --generator battleships --seed 2 --levels 3 --template zine8 -o "$tmp/zine.pdf"
pdftotext "$tmp/zine.pdf" "$tmp/zine.txt"
for l in 1 2 3; do
  grep -q "^Level $l\$" "$tmp/zine.txt" || fail "the zine's map leaves out level $l"
done

# 1,000 levels of 10 rooms, to JSON, whole (its speed is the benchmark's row
# "battleships: 1000 levels"; the timeout only catches a hang)
timeout 300 "$CRAWLBOOK" --generator battleships --seed 5 --levels 1000 -o "$tmp/big.json" ||
  fail "1,000 levels did not finish"
grep -q '"id":10000,' "$tmp/big.json" || fail "1,000 levels: room 10000 missing"
echo ok
