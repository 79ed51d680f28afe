#!/usr/bin/env bash
# --jobs: a batch made on several threads writes the same bytes as one made
# on one, for every format and both backends, in one PDF and one file each;
# --jobs is checked (1 to 64, exit 2). (io_faults.sh fails a batch part way
# on two threads.)
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# one PDF: the contents, page numbers and bookmarks come from a first pass
same_book() { # name args...
  local name=$1
  shift
  "$CRAWLBOOK" --jobs 1 "$@" -o "$tmp/$name-1.pdf"
  for j in 2 3; do
    "$CRAWLBOOK" --jobs $j "$@" -o "$tmp/$name-$j.pdf"
    cmp -s "$tmp/$name-1.pdf" "$tmp/$name-$j.pdf" || fail "$name: --jobs $j differs from --jobs 1 ($*)"
  done
}
same_book dropdice --seeds 1..7
same_book haru --backend haru --seeds 1..7
same_book booklet --generator battleships --seeds 4..8 --template booklet
same_book zine --generator cards --seeds 2..5 --template zine8 --style colour
same_book players --generator preconnect --seeds 1..4 --player-map --page-size letter
same_book saddle --generator leximorph --seeds 1..3 --template booklet --impose saddle
same_book haru-cards --backend haru --generator cards --seeds 1..5 --template booklet

# one file each, in every format
same_files() { # name ext args...
  local name=$1 ext=$2
  shift 2
  mkdir -p "$tmp/$name-1" "$tmp/$name-2"
  "$CRAWLBOOK" --jobs 1 "$@" -o "$tmp/$name-1/d-%02d.$ext"
  "$CRAWLBOOK" --jobs 2 "$@" -o "$tmp/$name-2/d-%02d.$ext"
  [ "$(ls "$tmp/$name-1" | wc -l)" -eq 5 ] || fail "$name: $(ls "$tmp/$name-1" | wc -l) files, want 5"
  diff -r "$tmp/$name-1" "$tmp/$name-2" > /dev/null || fail "$name: --jobs 2 files differ from --jobs 1"
}
same_files pdf pdf --seeds 3..7
same_files haru-pdf pdf --backend haru --generator cards --seeds 3..7
same_files svg svg --generator leximorph --seeds 3..7
same_files png png --generator battleships --seeds 3..7 --dpi 40
same_files json json --generator preconnect --seeds 3..7
same_files dot dot --seeds 3..7

# the progress bar's count and the notices are the same too
"$CRAWLBOOK" --jobs 1 --seeds 1..40 --rooms 30 -o "$tmp/n1.pdf" 2> "$tmp/n1.err"
"$CRAWLBOOK" --jobs 2 --seeds 1..40 --rooms 30 -o "$tmp/n2.pdf" 2> "$tmp/n2.err"
cmp -s "$tmp/n1.err" "$tmp/n2.err" || fail "--jobs 2 says other things on standard error: $(diff "$tmp/n1.err" "$tmp/n2.err")"
cmp -s "$tmp/n1.pdf" "$tmp/n2.pdf" || fail "30-room batch: --jobs 2 differs from --jobs 1"

refuse() { # value
  local rc=0
  "$CRAWLBOOK" --jobs "$1" --seeds 1..3 -o "$tmp/x.pdf" 2> "$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "--jobs $1: exit $rc, want 2"
  grep -q -- "--jobs '$1': expected a whole number from 1 to 64" "$tmp/err" || fail "--jobs $1 said: $(cat "$tmp/err")"
}
for v in 0 65 -1 x 2x ""; do refuse "$v"; done
"$CRAWLBOOK" --help | grep -q -- '--jobs N' || fail "--help does not list --jobs"
"$CRAWLBOOK" -j 64 --seeds 1..2 -o "$tmp/j64.pdf" || fail "-j 64 refused"

echo "jobs: $fails failure(s)"
[ "$fails" -eq 0 ]
