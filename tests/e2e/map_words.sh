#!/usr/bin/env bash
# The map as poppler reads it back: no two words on the map overlap and every
# room number appears on it exactly once, over seeds and sizes, for the game
# master's sheet and the players' handout (tests/tools/map_words.py).
set -euo pipefail
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # name rooms|json|json-no-numbers args...
  local name=$1 rooms=$2 extra=""
  shift 2
  "$CRAWLBOOK" "$@" -o "$tmp/$name.pdf"
  if [ "$rooms" = json ] || [ "$rooms" = json-no-numbers ]; then
    [ "$rooms" = json-no-numbers ] && extra=--no-numbers
    "$CRAWLBOOK" "$@" -o "$tmp/$name.json"
    rooms=$tmp/$name.json
  fi
  pdftotext -bbox-layout -f 1 -l 1 "$tmp/$name.pdf" "$tmp/$name.html"
  if ! python3 "$CB_SOURCE_DIR/tests/tools/map_words.py" "$tmp/$name.html" "$rooms" $extra; then
    echo "FAIL: crawlbook $*"
    fails=$((fails + 1))
  fi
}
for seed in 1 2 3 42 2024 31337; do
  for rooms in 5 12 30 60; do
    check "dd-$seed-$rooms" "$rooms" --generator dropdice --seed "$seed" --rooms "$rooms"
  done
  check "pm-$seed" 20 --generator dropdice --seed "$seed" --rooms 20 --player-map
  check "bs-$seed" json --generator battleships --seed "$seed"
  # leximorph's sheet map is its tunnel sketch: marks, badges and the sectors' captions ("d10 2, d4 3")
  check "lx-$seed" json --generator leximorph --seed "$seed"
  check "pc-$seed" json --generator preconnect --seed "$seed"
  check "cd-$seed" json-no-numbers --generator cards --seed "$seed"
done
echo "map words: $fails failure(s)"
[ "$fails" -eq 0 ]
