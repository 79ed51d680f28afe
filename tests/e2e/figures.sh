#!/usr/bin/env bash
# Both backends print lining figures: a title of digits inks as tall as one of
# capitals (old-style 1, 0 and 2 stand only x-high, about two thirds of it), and
# the two backends' figures are the same height.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftoppm
need python3

# ink TITLE BACKEND: the height in pixels of the page's first band of ink (the title)
ink() {
  "$CRAWLBOOK" --seed 1 --title "$1" --backend "$2" -o "$WORK/t.pdf" || die "crawlbook failed ($2)"
  pdftoppm -r 200 -gray -f 1 -l 1 -y 0 -H 400 -W 1654 -x 0 "$WORK/t.pdf" "$WORK/t" || die "pdftoppm failed"
  python3 - "$WORK"/t*.pgm <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
parts = data.split(maxsplit=4)
w, h = int(parts[1]), int(parts[2])
pix = parts[4]
rows = [any(pix[y * w + x] < 128 for x in range(w)) for y in range(h)]
top = rows.index(True)
bottom = top
while bottom < h and rows[bottom]:
    bottom += 1
print(bottom - top)
PY
  rm -f "$WORK"/t*.pgm
}

for backend in cairo haru; do
  caps=$(ink "HHHH" $backend)
  figs=$(ink "1020" $backend)
  eval "figs_$backend=$figs"
  # lining figures stand within a tenth of the cap height; old-style ones at about 0.65
  [ $((figs * 10)) -ge $((caps * 9)) ] || fail "$backend: figures ink $figs px against capitals' $caps px (old-style?)"
done
d=$((figs_cairo - figs_haru))
[ "${d#-}" -le 1 ] || fail "figures differ between backends: cairo $figs_cairo px, haru $figs_haru px"
finish
