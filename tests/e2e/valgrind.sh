#!/usr/bin/env bash
# valgrind memcheck over one page of every generator, template and backend
# (and SVG, PNG, JSON and render): no errors and no leaks of ours. It needs a
# build without the sanitizers, so it makes one beside this build directory,
# at -O0 -g: where Memcheck is surest, as Valgrind's manual says (-O2, and
# sometimes -O1, can fool it about uninitialised values either way: -O1 made
# one up in preconnect's try_shapes), and half the compiling of -O2 for a
# little more running. What stays is only what tests/valgrind.supp proves
# to be the libraries'.
set -euo pipefail
: "${CB_BUILD_DIR:?}"
command -v valgrind > /dev/null || { echo "valgrind missing (.ci/deps installs it)"; exit 1; }
vg=$CB_BUILD_DIR/valgrind-build
cmake -S "$CB_SOURCE_DIR" -B "$vg" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g -DNDEBUG" \
  -DBUILD_TESTING=OFF > "$vg.log" 2>&1 || { cat "$vg.log"; exit 1; }
cmake --build "$vg" -j2 --target crawlbook >> "$vg.log" 2>&1 || { cat "$vg.log"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0
check() { # output args...
  local out=$1
  shift
  runs=$((runs + 1))
  if ! valgrind -q --num-callers=40 --leak-check=full --show-leak-kinds=definite,indirect,possible \
      --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
      --suppressions="$CB_SOURCE_DIR/tests/valgrind.supp" "$vg/crawlbook" "$@" -o "$tmp/$out" 2> "$tmp/vg.txt"; then
    echo "FAIL: valgrind on crawlbook $*"
    head -40 "$tmp/vg.txt"
    fails=$((fails + 1))
  fi
}
for gen in dropdice cards battleships leximorph preconnect; do check "$gen.pdf" --generator "$gen" --seed 3; done
check booklet.pdf --generator leximorph --seed 3 --template booklet --impose saddle
check zine.pdf --generator dropdice --seed 3 --template zine8
check colour.pdf --generator cards --seed 3 --style colour --player-map
check haru.pdf --generator battleships --seed 3 --backend haru --template booklet
check page.svg --generator preconnect --seed 3
check page.png --generator dropdice --seed 3 --dpi 60
check book.pdf --generator dropdice --seeds 1..3
check dungeon.json --generator leximorph --seed 3
check again.pdf render "$tmp/dungeon.json"
echo "valgrind: $runs runs, $fails failure(s)"
[ "$fails" -eq 0 ]
