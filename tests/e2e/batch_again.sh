#!/usr/bin/env bash
# A batch's contents (booklet.md, "Pages"): each dungeon listed with its
# title, theme, rooms and hook line; the contents' "To make it again" line,
# run, makes exactly the dungeons printed (a theme picked for each seed is
# not seed 1's for all), and so does each dungeon's own line.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v pdftotext >/dev/null || exit 77
export SOURCE_DATE_EPOCH=0

again() { # pdf page -> the command its footer prints
  pdftotext -f "$2" -l "$2" "$1" - | tr '\n' ' ' | sed -n 's/.*To make it again: \(crawlbook [^ ].*\)/\1/p' |
    sed 's/  .*//'
}
titles() { pdftotext "$1" - | grep -A2 '^[0-9]*$' | head -40; }

"$CRAWLBOOK" -g dropdice --seeds 1..4 -o "$tmp/b.pdf" 2>/dev/null
pdftotext -l 1 "$tmp/b.pdf" "$tmp/contents.txt"
themes=$(grep -c ' · seed ' "$tmp/contents.txt" || true)
[ "$themes" -eq 4 ] || fail "the contents list $themes dungeons with a theme, not 4"
[ "$(grep ' · seed ' "$tmp/contents.txt" | cut -d' ' -f1 | sort -u | wc -l)" -gt 1 ] ||
  fail "the four dungeons share one theme: the test needs seeds of different themes"
grep -q "rooms · page" "$tmp/contents.txt" || fail "the contents do not give the rooms"
cmd=$(again "$tmp/b.pdf" 1)
case "$cmd" in *--theme*) fail "the batch's line names one theme for all: $cmd" ;; esac
# shellcheck disable=SC2086 # the line is run as printed
${cmd/crawlbook/$CRAWLBOOK} -o "$tmp/again.pdf" 2>/dev/null
cmp -s <(pdftotext "$tmp/b.pdf" - | grep -v 'crawlbook') <(pdftotext "$tmp/again.pdf" - | grep -v 'crawlbook') ||
  fail "the batch's line makes other dungeons: $cmd"
# each dungeon's own line makes its dungeon (page 2: the first dungeon's sheet)
one=$(again "$tmp/b.pdf" 3)
${one/crawlbook/$CRAWLBOOK} -o "$tmp/one.pdf" 2>/dev/null
t1=$(pdftotext -f 3 -l 3 "$tmp/b.pdf" - | head -1)
t2=$(pdftotext -l 1 "$tmp/one.pdf" - | head -1)
[ "$t1" = "$t2" ] || fail "the second dungeon's line makes '$t2', not '$t1'"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
