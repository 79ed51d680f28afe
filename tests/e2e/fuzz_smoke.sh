#!/usr/bin/env bash
# The fuzzers' short run: each libFuzzer harness for $CB_FUZZ_SECONDS (default
# 8) seconds from its seed corpus, built with clang, ASan and UBSan beside this
# build (tests/fuzz/run.sh). Any crash fails the suite; its input is kept in
# the fuzz build directory, to become a regression file in tests/fuzz/regress/.
# Every harness tests/fuzz/CMakeLists.txt builds must have run to its end.
set -euo pipefail
command -v clang > /dev/null || { echo "clang missing (.ci/deps installs it)"; exit 1; }
export CB_FUZZ_BUILD=${CB_BUILD_DIR:?}/fuzz-build
export CB_FUZZ_SEED=${CB_FUZZ_SEED:-1} # the same exploration every run: CI stays repeatable
unset CB_FUZZERS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
bash "$CB_SOURCE_DIR/tests/fuzz/run.sh" "${CB_FUZZ_SECONDS:-8}" | tee "$log"
fails=0
for name in $(sed -n 's/^foreach(name \(.*\))$/\1/p' "$CB_SOURCE_DIR/tests/fuzz/CMakeLists.txt"); do
  # the harness's heading, then its DONE line before the next heading
  if ! awk -v h="== fuzz_$name for" 'index($0, h) == 1 { on = 1; next } /^== fuzz_/ { on = 0 }
      on && /^#[0-9]+[[:space:]]+DONE/ { done = 1 } END { exit !done }' "$log"; then
    echo "FAIL: fuzz_$name did not run to its end"
    fails=$((fails + 1))
  fi
done
[ "$fails" -eq 0 ]
