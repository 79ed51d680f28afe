#!/usr/bin/env bash
# I/O fault injection: make each of mkstemp, fdopen, fwrite, fflush, fsync,
# fclose and rename fail at each call in turn (tests/faults/io_shim.c). A run
# that fails must exit non-zero with one message and leave an existing target
# byte for byte as it was; a run that shrugs the failure off (a stream that is
# not the output, like qhull's /dev/null) must write the same file as a clean
# run. No run may leave a temporary file behind.
set -uo pipefail
: "${CB_IO_SHIM:?built by tests/CMakeLists.txt}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
fails=0 runs=0
for fmt in pdf json png; do
  "$CRAWLBOOK" --generator leximorph --seed 9 --dpi 40 -o "$tmp/good.$fmt"
  for fn in fopen mkstemp fdopen fwrite fflush fsync fclose rename; do
    n=1
    while :; do
      target=$tmp/out.$fmt
      printf 'keep me\n' > "$target"
      # a leximorph dungeon also reads its three tables with fopen
      CB_FAULT="$fn:$n" CB_FAULT_COUNT=$tmp/count LD_PRELOAD="$CB_IO_SHIM" \
        "$CRAWLBOOK" --generator leximorph --seed 9 --dpi 40 -o "$target" 2> "$tmp/err"
      rc=$?
      calls=$(tr -d '\0' < "$tmp/count" 2>/dev/null || echo 0)
      runs=$((runs + 1))
      if [ "$calls" -lt "$n" ]; then
        [ $rc -eq 0 ] || { echo "FAIL $fmt $fn: exit $rc with no fault injected"; fails=$((fails + 1)); }
        break
      fi
      if [ $rc -eq 0 ]; then
        cmp -s "$target" "$tmp/good.$fmt" || { echo "FAIL $fmt $fn:$n: exit 0 but the output differs"; fails=$((fails + 1)); }
      else
        [ "$(wc -l < "$tmp/err")" -eq 1 ] || { echo "FAIL $fmt $fn:$n: stderr is not one line:"; cat "$tmp/err"; fails=$((fails + 1)); }
        [ "$(cat "$target")" = "keep me" ] || { echo "FAIL $fmt $fn:$n: the existing target changed"; fails=$((fails + 1)); }
      fi
      left=$(find "$tmp" -name '.out.*' | wc -l)
      rm -f "$tmp/count"
      [ "$left" -eq 0 ] || { echo "FAIL $fmt $fn:$n: temporary file left"; fails=$((fails + 1)); rm -f "$tmp"/.out.*; }
      # every call site early on, then every 7th: fwrite is called hundreds of times for a PDF
      if [ $n -lt 20 ]; then n=$((n + 1)); else n=$((n + 7)); fi
    done
  done
done
# a pattern batch that fails part way (the disk fills during the second
# file): every file left is whole and the run names the file and the reason
"$CRAWLBOOK" --seeds 1..3 -f json -o "$tmp/clean-%d.json"
CB_FAULT="fwrite:999999" CB_FAULT_COUNT=$tmp/count LD_PRELOAD="$CB_IO_SHIM" \
  "$CRAWLBOOK" --seeds 1..3 -f json -o "$tmp/probe-%d.json"
total=$(tr -d '\0' < "$tmp/count")
rm -f "$tmp/count" "$tmp"/probe-*.json
CB_FAULT="fwrite:$((total / 2 + 1))" LD_PRELOAD="$CB_IO_SHIM" \
  "$CRAWLBOOK" --seeds 1..3 -f json -o "$tmp/batch-%d.json" 2> "$tmp/err"
rc=$?
runs=$((runs + 1))
[ $rc -eq 1 ] || { echo "FAIL batch: exit $rc after a failed write, want 1"; fails=$((fails + 1)); }
grep -q "cannot write '$tmp/batch-2.json': No space left on device" "$tmp/err" ||
  { echo "FAIL batch: the message does not name the file and the reason: $(cat "$tmp/err")"; fails=$((fails + 1)); }
for i in 1 2 3; do
  [ ! -e "$tmp/batch-$i.json" ] || cmp -s "$tmp/batch-$i.json" "$tmp/clean-$i.json" ||
    { echo "FAIL batch: batch-$i.json is not whole"; fails=$((fails + 1)); }
done
[ -z "$(find "$tmp" -name '.batch-*')" ] || { echo "FAIL batch: temporary file left"; fails=$((fails + 1)); }
# a book on two threads whose disk fills half way: exit 1, one line, the
# existing target as it was, no temporary file
CB_FAULT="fwrite:999999" CB_FAULT_COUNT=$tmp/count LD_PRELOAD="$CB_IO_SHIM" \
  "$CRAWLBOOK" --jobs 2 --seeds 1..12 -o "$tmp/probe.pdf"
total=$(tr -d '\0' < "$tmp/count")
rm -f "$tmp/count" "$tmp/probe.pdf"
printf 'keep me\n' > "$tmp/book.pdf"
CB_FAULT="fwrite:$((total / 2 + 1))" LD_PRELOAD="$CB_IO_SHIM" \
  "$CRAWLBOOK" --jobs 2 --seeds 1..12 -o "$tmp/book.pdf" 2> "$tmp/err"
rc=$?
runs=$((runs + 1))
[ $rc -eq 1 ] || { echo "FAIL book: exit $rc after a failed write on two threads, want 1"; fails=$((fails + 1)); }
[ "$(wc -l < "$tmp/err")" -eq 1 ] || { echo "FAIL book: stderr is not one line: $(cat "$tmp/err")"; fails=$((fails + 1)); }
[ "$(cat "$tmp/book.pdf")" = "keep me" ] || { echo "FAIL book: the existing target changed"; fails=$((fails + 1)); }
[ -z "$(find "$tmp" -name '.book*')" ] || { echo "FAIL book: temporary file left"; fails=$((fails + 1)); }
echo "io faults: $runs runs, $fails failure(s)"
[ $fails -eq 0 ]
