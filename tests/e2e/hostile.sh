#!/usr/bin/env bash
# Hostile sizes: every numeric option at 0, 1, its maximum, one past it,
# negative, huge and not a number. Each run either works (exit 0, a file
# written) or is refused (exit 2, one line naming the option, nothing written);
# nothing crashes, hangs (60 s each at most) or fails inside (exit 1).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 runs=0
try() { # want(ok|refuse|any) format args...
  local want=$1 fmt=$2
  shift 2
  local out=$tmp/out.$fmt
  rm -f "$out"
  timeout 60 "$CRAWLBOOK" "$@" -o "$out" > /dev/null 2> "$tmp/err"
  local rc=$?
  runs=$((runs + 1))
  case $rc in
    0) [ "$want" != refuse ] && [ -s "$out" ] || { echo "FAIL (exit 0): $*"; fails=$((fails + 1)); } ;;
    2) if [ "$want" = ok ]; then echo "FAIL (refused: $(cat "$tmp/err")): $*"; fails=$((fails + 1)); fi
       [ ! -e "$out" ] || { echo "FAIL (refused but wrote a file): $*"; fails=$((fails + 1)); }
       [ "$(wc -l < "$tmp/err")" -eq 1 ] || { echo "FAIL (not one line): $*"; fails=$((fails + 1)); } ;;
    124) echo "FAIL (hangs): $*"; fails=$((fails + 1)) ;;
    *) echo "FAIL (exit $rc: $(head -c 300 "$tmp/err")): $*"; fails=$((fails + 1)) ;;
  esac
}
nonsense=(-1 -99999999999999999999 99999999999999999999999 abc 1e3 0x10 "" " 5" 5x)
# option, generator, the smallest and largest accepted, a format that can hold the largest
check() { # option generator lo hi fmt [extra args...]
  local opt=$1 gen=$2 lo=$3 hi=$4 fmt=$5
  shift 5
  [ "$lo" -gt 0 ] && try refuse "$fmt" --generator "$gen" "$opt" $((lo - 1)) "$@"
  try ok "$fmt" --generator "$gen" "$opt" "$lo" "$@"
  try ok "$fmt" --generator "$gen" "$opt" "$hi" "$@"
  try refuse "$fmt" --generator "$gen" "$opt" $((hi + 1)) "$@"
  for v in "${nonsense[@]}"; do try refuse "$fmt" --generator "$gen" "$opt" "$v" "$@"; done
}
check --rooms dropdice 1 200 pdf
check --rooms dropdice 1 100000 json
check --rooms preconnect 1 200 pdf
check --levels battleships 1 1000 json
check --grid battleships 2 100 json --levels 1 --extra 0
check --decks cards 1 2000 json
check --rooms cards 1 100000 json --sprawl --decks 2000
check --rooms cards 1 200 pdf --sprawl --decks 4
# --extra: at most 63 on a 10 x 10 grid by count; how many of those are still free depends on the deal
try ok json --generator battleships --extra 0
try ok json --generator battleships --extra 40 --seed 1
try any json --generator battleships --extra 63 --seed 1
try refuse json --generator battleships --extra 64
for v in "${nonsense[@]}"; do try refuse json --generator battleships --extra "$v"; done
check --extra-stairs battleships 0 8 json
check --sector-ft leximorph 120 1200 json
check --min-rooms cards 1 25 json
check --length-unit cards 1 5280 json --lengths
check --dpi dropdice 36 600 png --rooms 3
try ok pdf --count 1
try ok pdf --count 3
try refuse pdf --count 0
try refuse pdf --count 10001
try refuse pdf --seed 18446744073709551615 --count 2
try ok pdf --seed 18446744073709551614 --count 2
for v in "${nonsense[@]}"; do try refuse pdf --count "$v"; done
try ok json --seed 0
try ok json --seed 18446744073709551615
try refuse json --seed 18446744073709551616
for v in "${nonsense[@]}"; do try refuse json --seed "$v"; done
for v in 0x3 3x0 13x1 1x13 x 3 -1x2 99999999999x2; do try refuse json --generator leximorph --sectors "$v"; done
try ok json --generator leximorph --sectors 12x12
for v in 0 0x0 101 5x101 -5 abc; do try refuse json --generator cards --grid "$v"; done
try refuse json --generator cards --grid 8x8
try ok json --generator cards --grid 7x7
try ok json --generator cards --grid 20x20 --decks 8 --min-rooms 1
try refuse json --generator cards --grid 64x64 --decks 8
for v in 0 5..3 3..x 1..10001 18446744073709551615..18446744073709551615; do try any pdf --seeds "$v"; done
echo "hostile sizes: $runs runs, $fails failure(s)"
[ "$fails" -eq 0 ]
