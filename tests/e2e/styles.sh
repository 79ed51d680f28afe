#!/usr/bin/env bash
# Styles: `ink` (the default) is black and white only; `colour` really puts
# colour on the page (read back from poppler's rendering, pixel by pixel);
# an unknown style is refused.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
coloured() { # pdf -> how many clearly coloured pixels on page 1 at 30 dpi
  pdftoppm -r 30 -f 1 -l 1 -singlefile "$1" "$tmp/page"
  python3 - "$tmp/page.ppm" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
# P6 header: magic, width, height, maxval, each followed by whitespace
fields, pos = [], 0
while len(fields) < 4:
    while data[pos:pos + 1].isspace(): pos += 1
    start = pos
    while not data[pos:pos + 1].isspace(): pos += 1
    fields.append(data[start:pos])
pix = data[pos + 1:]
print(sum(1 for i in range(0, len(pix) - 2, 3) if max(pix[i:i + 3]) - min(pix[i:i + 3]) > 40))
PY
}
for gen in dropdice cards battleships leximorph preconnect; do
  "$CRAWLBOOK" --generator "$gen" --seed 11 -o "$tmp/ink.pdf"
  "$CRAWLBOOK" --generator "$gen" --seed 11 --style colour -o "$tmp/colour.pdf"
  ink=$(coloured "$tmp/ink.pdf")
  col=$(coloured "$tmp/colour.pdf")
  [ "$ink" -eq 0 ] || { echo "FAIL: $gen: the ink style has $ink coloured pixels"; fails=$((fails + 1)); }
  [ "$col" -gt 50 ] || { echo "FAIL: $gen: the colour style has only $col coloured pixels"; fails=$((fails + 1)); }
  pdftotext "$tmp/colour.pdf" - | tr '\n' ' ' | grep -q -- "--style colour" || { echo "FAIL: $gen: footer lacks --style colour"; fails=$((fails + 1)); }
done
if "$CRAWLBOOK" --style sepia -o "$tmp/x.pdf" 2> "$tmp/err"; then echo "FAIL: --style sepia accepted"; fails=$((fails + 1)); fi
grep -q -- "--style" "$tmp/err" || { echo "FAIL: the refusal does not name --style"; fails=$((fails + 1)); }
echo "styles: $fails failure(s)"
[ "$fails" -eq 0 ]
