#!/usr/bin/env bash
# Builds the fuzzers with clang and runs each for $1 seconds (default 60). See tests/fuzz/README.
set -euo pipefail
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
# what the libraries are proven to keep (see the file); a hang of 10 s is a bug
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
out=${CB_FUZZ_BUILD:-$root/build-fuzz}
cmake -S "$root" -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$out" -j2 --target fuzz_json fuzz_table fuzz_cli fuzz_template fuzz_mask fuzz_letters >/dev/null
for name in ${CB_FUZZERS:-json table cli template mask letters theme}; do
  corpus=$out/corpus-$name
  mkdir -p "$corpus"
  case $name in
    json) seeds=("$root"/samples/*.json "$root"/tests/catalog/*.json "$root"/tests/fuzz/corpus/json/*) ;;
    table) seeds=("$root"/templates/*.txt "$root"/tests/fuzz/corpus/table/*) ;;
    cli) seeds=("$root"/tests/fuzz/corpus/cli/*) ;;
    template) seeds=("$root"/templates/*.cfg) ;;
    mask) seeds=("$root"/templates/mask-*.txt) ;;
    letters) seeds=("$root"/templates/leximorph-letters.txt) ;;
  esac
  for f in "${seeds[@]}"; do [ -f "$f" ] && cp "$f" "$corpus/" ; done
  echo "== fuzz_$name for ${secs}s"
  (cd "$out" && ./fuzz_$name -max_total_time="$secs" -seed="${CB_FUZZ_SEED:-0}" -timeout=10 -max_len=65536 -print_final_stats=1 "$corpus" 2>&1 |
    grep -E "^(#[0-9]+ +DONE|stat::|==[0-9]+==ERROR|SUMMARY)" || true)
  found=$(find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))
  if [ -n "$found" ]; then
    echo "found: $found"
    exit 1
  fi
done
