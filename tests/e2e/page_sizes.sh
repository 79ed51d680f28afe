#!/usr/bin/env bash
# Page sizes and orientation land exactly as asked (pdfinfo), the footer says
# how to ask again, and bad sizes are refused with exit 2 and nothing written.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
size() { # args... -> "W x H" from pdfinfo
  "$CRAWLBOOK" --seed 3 "$@" -o "$tmp/p.pdf"
  pdfinfo "$tmp/p.pdf" | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 x \2/p'
}
expect() { # want args...
  local want=$1 got
  shift
  got=$(size "$@")
  if [ "$got" != "$want" ]; then echo "FAIL: $* gave '$got', want '$want'"; fails=$((fails + 1)); fi
}
expect "595.276 x 841.89" --generator dropdice
expect "612 x 792" --page-size letter
expect "419.528 x 595.276" --page-size a5
expect "396 x 612" --page-size half-letter
expect "432 x 648" --page-size 6x9in
expect "841.89 x 595.276" --landscape
expect "792 x 612" --page-size letter --landscape
expect "283.465 x 425.197" --page-size 100x150mm
"$CRAWLBOOK" --seed 3 --page-size a5 --landscape -o "$tmp/f.pdf"
pdftotext "$tmp/f.pdf" - | tr '\n' ' ' | grep -q -- "--page-size a5 --landscape" || { echo "FAIL: footer lacks the page options"; fails=$((fails + 1)); }
for bad in a3 0x0mm 80x80mm 2000x100mm 10x10 6x9ft "" x; do
  if "$CRAWLBOOK" --seed 3 --page-size "$bad" -o "$tmp/bad.pdf" 2> "$tmp/err"; then
    echo "FAIL: --page-size '$bad' accepted"; fails=$((fails + 1))
  fi
  grep -q -- "--page-size" "$tmp/err" || { echo "FAIL: --page-size '$bad': message does not name the option"; fails=$((fails + 1)); }
  [ ! -e "$tmp/bad.pdf" ] || { echo "FAIL: --page-size '$bad' wrote a file"; fails=$((fails + 1)); }
done
echo "page sizes: $fails failure(s)"
[ "$fails" -eq 0 ]
