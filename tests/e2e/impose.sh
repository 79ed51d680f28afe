#!/usr/bin/env bash
# Imposition: the zine8 template is one landscape sheet holding all eight
# panels (title, map numbers and every key entry readable by pdftotext, the
# top row upside down); --impose saddle puts a booklet's pages 2-up on sheets
# twice as wide, half as many, in folding order.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pages() { pdfinfo "$1" | sed -n 's/^Pages: *//p'; }

for gen in dropdice cards battleships; do
  "$CRAWLBOOK" --generator "$gen" --seed 2 --template zine8 -o "$tmp/z.pdf"
  [ "$(pages "$tmp/z.pdf")" -eq 1 ] || fail "$gen zine: $(pages "$tmp/z.pdf") pages"
  pdfinfo "$tmp/z.pdf" | grep -q "841.89 x 595.276" || fail "$gen zine is not landscape A4"
  qpdf --check "$tmp/z.pdf" > /dev/null || fail "$gen zine fails qpdf --check"
  title=$("$CRAWLBOOK" --generator "$gen" --seed 2 -f json -o - | python3 -c 'import json,sys; print(json.load(sys.stdin)["title"])')
  # through a file: grep -q stops reading early, and pipefail would count pdftotext's broken pipe
  pdftotext "$tmp/z.pdf" "$tmp/z.txt"
  tr '\n' ' ' <"$tmp/z.txt" | grep -qF "$title" || fail "$gen zine lacks its title"
  grep -q "Room key" "$tmp/z.txt" || fail "$gen zine lacks its key"
  "$CRAWLBOOK" --generator "$gen" --seed 2 --template zine8 --backend haru -o "$tmp/zh.pdf"
  cmp -s <(pdftotext "$tmp/z.pdf" - | tr -s ' \n' '\n' | sort) <(pdftotext "$tmp/zh.pdf" - | tr -s ' \n' '\n' | sort) ||
    fail "$gen zine: cairo and haru hold other words"
done
# the top row is upside down: the map panel's heading ("Map") sits in the top half, turned
pdftotext -bbox "$tmp/z.pdf" "$tmp/z.html"
python3 - "$tmp/z.html" <<'PY' || fail "the zine's 'Map' heading is not upside down in the top row"
import re, sys
w = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">Map</word>', open(sys.argv[1]).read())
sys.exit(0 if w and float(w[0][1]) < 297 else 1)
PY
if "$CRAWLBOOK" --generator leximorph --seed 2 --sectors 3x3 --template zine8 -o "$tmp/big.pdf" 2> "$tmp/err"; then
  fail "a key too long for the zine was accepted"
fi
grep -q "zine" "$tmp/err" || fail "the zine's refusal does not say why: $(cat "$tmp/err")"
[ ! -e "$tmp/big.pdf" ] || fail "a refused zine wrote a file"

"$CRAWLBOOK" --generator leximorph --seed 42 --template booklet -o "$tmp/b.pdf"
"$CRAWLBOOK" --generator leximorph --seed 42 --template booklet --impose saddle -o "$tmp/s.pdf"
n=$(pages "$tmp/b.pdf")
[ "$(pages "$tmp/s.pdf")" -eq $((n / 2)) ] || fail "saddle: $(pages "$tmp/s.pdf") sheets for $n pages"
pdfinfo "$tmp/s.pdf" | grep -q "839.055 x 595.276" || fail "saddle sheets are not two A5 pages wide"
# sheet 1's front: the last page (a notes page) on the left, page 1 (the cover) on the right
pdftotext -f 1 -l 1 -bbox "$tmp/s.pdf" "$tmp/s.html"
python3 - "$tmp/s.html" <<'PY' || fail "saddle: sheet 1 is not [last page | cover]"
import re, sys
words = re.findall(r'<word xMin="([\d.]+)"[^>]*>([^<]*)</word>', open(sys.argv[1]).read())
notes = [float(x) for x, t in words if t == "Notes"]     # the last page's heading
cover = [float(x) for x, t in words if t == "dungeon"]   # the cover's subtitle ("a ... dungeon of 32 rooms")
sys.exit(0 if notes and cover and max(notes) < 419 and min(cover) > 419 else 1)
PY
echo "impose: $fails failure(s)"
[ "$fails" -eq 0 ]
