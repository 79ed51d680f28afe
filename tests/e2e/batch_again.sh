#!/usr/bin/env bash
# A batch's contents (booklet.md, "Pages"): each dungeon listed with its
# title, theme, rooms and hook line; the contents' "To make it again" line,
# run, makes exactly the dungeons printed (a theme picked for each seed is
# not seed 1's for all), and so does each dungeon's own line.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext
export SOURCE_DATE_EPOCH=0

again() { # pdf page -> the command its footer prints
  pdftotext -f "$2" -l "$2" "$1" - | tr '\n' ' ' | sed -n 's/.*To make it again: \(crawlbook [^ ].*\)/\1/p' |
    sed 's/  .*//'
}
titles() { pdftotext "$1" - | grep -A2 '^[0-9]*$' | head -40; }

"$CRAWLBOOK" -g dropdice --seeds 1..4 -o "$WORK/b.pdf" 2>/dev/null
pdftotext -l 1 "$WORK/b.pdf" "$WORK/contents.txt"
themes=$(grep -c ' · seed ' "$WORK/contents.txt" || true)
[ "$themes" -eq 4 ] || fail "the contents list $themes dungeons with a theme, not 4"
[ "$(grep ' · seed ' "$WORK/contents.txt" | cut -d' ' -f1 | sort -u | wc -l)" -gt 1 ] ||
  fail "the four dungeons share one theme: the test needs seeds of different themes"
grep -q "rooms · page" "$WORK/contents.txt" || fail "the contents do not give the rooms"
cmd=$(again "$WORK/b.pdf" 1)
case "$cmd" in *--theme*) fail "the batch's line names one theme for all: $cmd" ;; esac
# shellcheck disable=SC2086 # the line is run as printed
${cmd/crawlbook/$CRAWLBOOK} -o "$WORK/again.pdf" 2>/dev/null
cmp -s <(pdftotext "$WORK/b.pdf" - | grep -v 'crawlbook') <(pdftotext "$WORK/again.pdf" - | grep -v 'crawlbook') ||
  fail "the batch's line makes other dungeons: $cmd"
# each dungeon's own line makes its dungeon (page 2: the first dungeon's sheet)
one=$(again "$WORK/b.pdf" 3)
${one/crawlbook/$CRAWLBOOK} -o "$WORK/one.pdf" 2>/dev/null
t1=$(pdftotext -f 3 -l 3 "$WORK/b.pdf" - | head -1)
t2=$(pdftotext -l 1 "$WORK/one.pdf" - | head -1)
[ "$t1" = "$t2" ] || fail "the second dungeon's line makes '$t2', not '$t1'"
finish
