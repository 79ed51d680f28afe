#!/usr/bin/env bash
# Batches: --count/--seeds into one PDF (a contents cover, every dungeon's
# pages, a bookmark each) or one file each with a name pattern; the same bytes
# every time; clear refusals for what cannot be done.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$CRAWLBOOK" --seeds 3..7 -o "$tmp/book.pdf"
qpdf --check "$tmp/book.pdf" > /dev/null || fail "qpdf --check on the book"
pages=$(pdfinfo "$tmp/book.pdf" | sed -n 's/^Pages: *//p')
sum=1
for s in 3 4 5 6 7; do
  "$CRAWLBOOK" --seed "$s" -o "$tmp/one-$s.pdf"
  n=$(pdfinfo "$tmp/one-$s.pdf" | sed -n 's/^Pages: *//p')
  sum=$((sum + n))
  title=$("$CRAWLBOOK" --seed "$s" -f json -o - | python3 -c 'import json,sys; print(json.load(sys.stdin)["title"])')
  pdftotext -f 1 -l 1 "$tmp/book.pdf" - | grep -qF "$title" || fail "the contents lack '$title'"
  grep -c "seed $s" <(pdftotext "$tmp/book.pdf" -) > /dev/null || fail "no page says seed $s"
done
[ "$pages" -eq "$sum" ] || fail "the book has $pages pages, the cover and the five dungeons $sum"
bookmarks=$(qpdf --json --json-key=outlines "$tmp/book.pdf" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["outlines"]))')
[ "$bookmarks" -eq 6 ] || fail "$bookmarks bookmarks, want 6 (contents and five dungeons)"
"$CRAWLBOOK" --seeds 3..7 -o "$tmp/again.pdf"
cmp -s "$tmp/book.pdf" "$tmp/again.pdf" || fail "the same batch twice differs"
"$CRAWLBOOK" --seed 3 --count 5 -o "$tmp/count.pdf"
cmp -s "$tmp/book.pdf" "$tmp/count.pdf" || fail "--seed 3 --count 5 differs from --seeds 3..7"
"$CRAWLBOOK" --backend haru --seeds 3..7 -o "$tmp/hbook.pdf"
[ "$(pdfinfo "$tmp/hbook.pdf" | sed -n 's/^Pages: *//p')" -eq "$pages" ] || fail "haru's book has another page count"

"$CRAWLBOOK" --generator cards --seeds 1..3 -o "$tmp/cards-%02d.json"
for i in 01 02 03; do [ -s "$tmp/cards-$i.json" ] || fail "no cards-$i.json"; done
"$CRAWLBOOK" --generator cards --seed 2 -o "$tmp/c2.json"
cmp -s "$tmp/cards-02.json" "$tmp/c2.json" || fail "the second file of --seeds 1..3 is not seed 2"

refuse() { # what-the-message-says args...
  local want=$1
  shift
  if "$CRAWLBOOK" "$@" 2> "$tmp/err"; then fail "accepted: $*"; return; fi
  grep -q -- "$want" "$tmp/err" || fail "'$*' said '$(cat "$tmp/err")', not '$want'"
}
refuse "--count" --count 0 -o "$tmp/x.pdf"
refuse "--count" --count 10001 -o "$tmp/x.pdf"
refuse "--seeds" --seeds 5..3 -o "$tmp/x.pdf"
refuse "--seeds" --seeds 1..x -o "$tmp/x.pdf"
refuse "drop --count" --seeds 1..3 --count 3 -o "$tmp/x.pdf"
refuse "name pattern" --count 3 -o "$tmp/x.json"
refuse "name pattern" --count 3 -o "$tmp/x.png"
refuse "pattern" --count 3 -o "$tmp/x-%s.pdf"
refuse "pattern" --count 3 -o "$tmp/x-%d-%d.pdf"
refuse "--explain" --count 3 --explain
ls "$tmp"/x* > /dev/null 2>&1 && fail "a refused batch wrote a file"
echo "batch: $fails failure(s)"
[ "$fails" -eq 0 ]
