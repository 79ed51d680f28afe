#!/usr/bin/env bash
# Print-ready, for every template and both backends: the page size the
# template asks for, every font embedded and subset, qpdf --check clean, vector
# art only (no images), the same bytes twice under SOURCE_DATE_EPOCH, the date
# taken from it, and the same words from cairo and libharu.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export SOURCE_DATE_EPOCH=1767225600
for tpl in one-page colour booklet zine8; do
  case $tpl in
    booklet) size="419.528 x 595.276" margin=10 ;;
    zine8) size="841.89 x 595.276" margin=4.5 ;;
    *) size="595.276 x 841.89" margin=10 ;;
  esac
  for backend in cairo haru; do
    out=$tmp/$tpl-$backend.pdf
    "$CRAWLBOOK" --generator cards --seed 9 --template "$tpl" --backend "$backend" -o "$out"
    "$CRAWLBOOK" --generator cards --seed 9 --template "$tpl" --backend "$backend" -o "$tmp/again.pdf"
    cmp -s "$out" "$tmp/again.pdf" || fail "$tpl/$backend: two runs differ"
    pdfinfo "$out" | grep -q "Page size: *$size" || fail "$tpl/$backend: not $size"
    pdfinfo "$out" | grep -q "CreationDate:.*2026" || fail "$tpl/$backend: the date does not follow SOURCE_DATE_EPOCH"
    qpdf --check "$out" > /dev/null || fail "$tpl/$backend: qpdf --check"
    tail -n +3 <(pdffonts "$out") | awk '$(NF-4) != "yes" || $(NF-3) != "yes" { bad = 1 } END { exit bad }' ||
      fail "$tpl/$backend: a font is not embedded and subset"
    [ "$(pdfimages -list "$out" | tail -n +3 | wc -l)" -eq 0 ] || fail "$tpl/$backend: raster images in the PDF"
    pdftotext "$out" - 2>&1 | grep -q "Syntax Warning" && fail "$tpl/$backend: poppler warns reading the text"
    pdftotext "$out" - | tr -s ' \n' '\n' | sort > "$tmp/$tpl-$backend.words"
    # nothing inside the margins: every word's box (the font's full height) stays within them
    pdftotext -bbox "$out" "$tmp/bbox.html"
    python3 - "$tmp/bbox.html" "$margin" <<'PY' || fail "$tpl/$backend: text inside the ${margin} mm margins"
import re, sys
html = open(sys.argv[1]).read()
m = float(sys.argv[2]) * 72 / 25.4 - 0.5
bad = 0
for page in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S):
    w, h = float(page[0]), float(page[1])
    for x0, y0, x1, y1, t in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)', page[2]):
        if float(x0) < m or float(y0) < m or float(x1) > w - m or float(y1) > h - m:
            print(f"  {t!r} at ({float(x0):.1f}, {float(y0):.1f})-({float(x1):.1f}, {float(y1):.1f}) on a {w:.0f} x {h:.0f} page")
            bad += 1
sys.exit(1 if bad else 0)
PY
  done
  cmp -s "$tmp/$tpl-cairo.words" "$tmp/$tpl-haru.words" || fail "$tpl: cairo and haru pages hold other words"
  [ "$(pdfinfo "$tmp/$tpl-cairo.pdf" | sed -n 's/^Pages: *//p')" = "$(pdfinfo "$tmp/$tpl-haru.pdf" | sed -n 's/^Pages: *//p')" ] ||
    fail "$tpl: cairo and haru page counts differ"
done
echo "print ready: $fails failure(s)"
[ "$fails" -eq 0 ]
