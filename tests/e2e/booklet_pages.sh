#!/usr/bin/env bash
# Booklet pages as a print shop folds them (booklet.md, issue 13): the cover
# carries no footer; page numbers sit on the outer edge (right on odd pages,
# left on even ones); an A5 key fills two balanced columns; in a batch every
# page's number counts within the whole document. Read with pdftotext -bbox.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext
need pdfinfo
need python3

# words FILE PAGE: "xMin yMin word" per word of one page
words() {
  pdftotext -f "$2" -l "$2" -bbox "$1" - |
    sed -n 's/.*xMin="\([0-9.]*\)" yMin="\([0-9.]*\)".*>\(.*\)<\/word>/\1 \2 \3/p'
}

for backend in cairo haru; do
  pdf="$WORK/b-$backend.pdf"
  "$CRAWLBOOK" --seed 3 --template booklet --page-size a5 --backend $backend -o "$pdf" || die "crawlbook failed"
  pages=$(pdfinfo "$pdf" | sed -n 's/^Pages: *//p')
  words "$pdf" 1 | grep -Eq ' (page|again:)$' && fail "$backend: the cover carries a footer"
  width=$(pdfinfo "$pdf" | sed -n 's/^Page size: *\([0-9.]*\) x.*/\1/p')
  for ((n = 2; n <= pages; n++)); do
    x=$(words "$pdf" $n | awk '$3 == "page" { x = $1 } END { print x }')
    [ -n "$x" ] || { fail "$backend: page $n has no page number"; continue; }
    if ((n % 2 == 0)); then
      python3 -c "import sys; sys.exit(not $x < $width / 4)" || fail "$backend: even page $n numbered at x=$x, not on the left edge"
    else
      python3 -c "import sys; sys.exit(not $x > $width * 3 / 4)" || fail "$backend: odd page $n numbered at x=$x, not on the right edge"
    fi
  done
  # the key's last page: entries in both halves (entries are never split, so the columns end where they may)
  last=3
  for ((n = 3; n <= pages; n++)); do
    pdftotext -f $n -l $n "$pdf" "$WORK/p.txt"
    grep -q "^Room key" "$WORK/p.txt" && last=$n
  done
  words "$pdf" $last | python3 -c "
import sys
w = $width
rows = [l.split(' ', 2) for l in sys.stdin.read().splitlines()]
rows = [(float(x), float(y)) for x, y, t in rows if float(y) < 500]
left = [y for x, y in rows if x < w / 2]
right = [y for x, y in rows if x >= w / 2]
if not right: sys.exit('$backend: the A5 key uses one column')
" || fail "$backend: A5 key columns"
done

# a batch: pages numbered 1..N through the whole document, N its page count
"$CRAWLBOOK" --seeds 1..4 --template booklet -o "$WORK/batch.pdf" || die "batch failed"
total=$(pdfinfo "$WORK/batch.pdf" | sed -n 's/^Pages: *//p')
pdftotext "$WORK/batch.pdf" - | grep -o 'page [0-9]* of [0-9]*' >"$WORK/numbers.txt"
awk -v t="$total" '$4 != t { print "page " $2 " says of " $4 " in a document of " t; bad = 1 } END { exit bad }' \
  "$WORK/numbers.txt" || fail "batch: page totals"
seq 1 "$total" | sort >"$WORK/expect.txt"
awk '{ print $2 }' "$WORK/numbers.txt" | sort >"$WORK/got.txt"
# every page numbered once but the dungeons' covers (no footer)
comm -13 "$WORK/expect.txt" "$WORK/got.txt" | grep -q . && fail "batch: numbers outside 1..$total"
[ "$(sort -u "$WORK/got.txt" | wc -l)" = "$(wc -l <"$WORK/got.txt")" ] || fail "batch: a page number repeats"
# a booklet lays the key over its pages by design: no note that it "does not fit one page"
"$CRAWLBOOK" -g leximorph --seed 7 --template booklet -o "$WORK/long.pdf" 2>"$WORK/long.err" || die "crawlbook failed"
[ "$(pdfinfo "$WORK/long.pdf" | sed -n 's/^Pages: *//p')" -gt 4 ] || fail "leximorph 7's booklet is no longer long: pick a longer one"
grep -q 'does not fit one page' "$WORK/long.err" && fail "booklet: the one-page note: $(cat "$WORK/long.err")"
# no page under a third full (booklet.md), but the cover and the Notes pages at the end: the
# key's and the procedure's last pages take their share. Fill is how far down the frame
# (10 mm margins, the footer's 30 pt above the bottom one) the lowest word of the page lies.
for g in dropdice cards leximorph preconnect battleships; do
  for s in 1 2 3; do
    for size in a4 letter; do
      pdf="$WORK/fill-$g-$s-$size.pdf"
      "$CRAWLBOOK" -g $g --seed $s --template booklet --appendix --page-size $size -o "$pdf" || die "crawlbook failed"
      pdftotext -bbox "$pdf" - | python3 -c "
import re, sys
pages = sys.stdin.read().split('<page ')[1:]
m = 28.35
for n, pg in enumerate(pages[1:], 2):
    h = float(re.search(r'height=\"([0-9.]+)\"', pg).group(1))
    words = re.findall(r'yMax=\"([0-9.]+)\">(.*?)</word>', pg)
    body = [(float(y), t) for y, t in words if float(y) < h - m - 30]
    if not body or body[0][1] == 'Notes': continue
    fill = (max(y for y, t in body) - m) / (h - 2 * m - 30)
    if fill < 1 / 3: print('page %d (%s...) is %.0f%% full' % (n, body[0][1], fill * 100))
" >"$WORK/fill.txt"
      [ -s "$WORK/fill.txt" ] && fail "$g seed $s $size booklet: $(cat "$WORK/fill.txt")"
    done
  done
done
finish
