#!/usr/bin/env bash
# Every page of each reference dungeon (tests/reference/<name>.args), rendered
# to PNG at 40 dpi with our fonts only, matches tests/reference/<name>.png
# within pngdiff's tolerance. A mismatch keeps the new rendering for a look.
set -euo pipefail
: "${CB_PNGDIFF:?built by tests/CMakeLists.txt}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 n=0
for args in "$CB_SOURCE_DIR"/tests/reference/*.args; do
  name=$(basename "$args" .args)
  read -r -a a < "$args"
  "$CRAWLBOOK" "${a[@]}" --dpi 40 -o "$tmp/$name.png"
  n=$((n + 1))
  if ! "$CB_PNGDIFF" "$tmp/$name.png" "${args%.args}.png"; then
    keep=${CB_BUILD_DIR:-$tmp}/reference-$name.png
    cp "$tmp/$name.png" "$keep"
    echo "FAIL: $name differs from its reference; the new rendering is $keep"
    fails=$((fails + 1))
  fi
done
echo "reference pages: $n compared, $fails failure(s)"
[ "$n" -gt 0 ] && [ "$fails" -eq 0 ]
