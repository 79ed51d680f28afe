#!/usr/bin/env bash
# Builds the fuzzers with clang and runs each for $1 seconds (default 60). See tests/fuzz/README.
# Every harness tests/fuzz/CMakeLists.txt builds runs (CB_FUZZERS names fewer); one that is not
# built, does not run to its end or finds anything fails the step.
set -euo pipefail
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
# what the libraries are proven to keep (see the file); a hang of 10 s is a bug
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
out=${CB_FUZZ_BUILD:-$root/build-fuzz}
all=$(sed -n 's/^foreach(name \(.*\))$/\1/p' "$root/tests/fuzz/CMakeLists.txt")
[ -n "$all" ] || { echo "run.sh: no harness list in tests/fuzz/CMakeLists.txt" >&2; exit 1; }
fuzzers=${CB_FUZZERS:-$all}
targets=()
for name in $fuzzers; do targets+=("fuzz_$name"); done
cmake -S "$root" -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$out" -j2 --target "${targets[@]}" >/dev/null
for name in $fuzzers; do
  [ -x "$out/fuzz_$name" ] || { echo "run.sh: fuzz_$name was not built" >&2; exit 1; }
  corpus=$out/corpus-$name
  mkdir -p "$corpus"
  seeds=("$root"/tests/fuzz/corpus/"$name"/*)
  case $name in
    json) seeds+=("$root"/samples/*.json "$root"/tests/catalog/*.json) ;;
    table) seeds+=("$root"/templates/*.txt) ;;
    template) seeds+=("$root"/templates/*.cfg) ;;
    mask) seeds+=("$root"/templates/mask-*.txt) ;;
    letters) seeds+=("$root"/templates/leximorph-letters.txt) ;;
    theme) seeds+=("$root"/templates/themes/*.txt) ;;
  esac
  for f in "${seeds[@]}"; do [ -f "$f" ] && cp "$f" "$corpus/" ; done
  echo "== fuzz_$name for ${secs}s"
  log=$out/fuzz_$name.log
  rc=0
  (cd "$out" && ./fuzz_$name -max_total_time="$secs" -seed="${CB_FUZZ_SEED:-0}" -timeout=10 -max_len=65536 -print_final_stats=1 "$corpus" >"$log" 2>&1) || rc=$?
  grep -E "^(#[0-9]+[[:space:]]+DONE|stat::|==[0-9]+==ERROR|SUMMARY)" "$log" || true
  found=$(find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))
  if [ -n "$found" ]; then
    echo "found: $found"
    exit 1
  fi
  if [ "$rc" -ne 0 ] || ! grep -qE "^#[0-9]+[[:space:]]+DONE" "$log"; then
    echo "run.sh: fuzz_$name did not run to its end (exit status $rc):" >&2
    tail -5 "$log" >&2
    exit 1
  fi
done
