#!/usr/bin/env bash
# The fuzzers' short run: each libFuzzer harness for $CB_FUZZ_SECONDS (default
# 60) seconds from its seed corpus, built with clang, ASan and UBSan beside this
# build (tests/fuzz/run.sh). Any crash fails the suite; its input is kept in
# the fuzz build directory, to become a regression file in tests/fuzz/regress/.
set -euo pipefail
command -v clang > /dev/null || { echo "clang missing (.ci/deps installs it)"; exit 1; }
export CB_FUZZ_BUILD=${CB_BUILD_DIR:?}/fuzz-build
export CB_FUZZ_SEED=${CB_FUZZ_SEED:-1} # the same exploration every run: CI stays repeatable
bash "$CB_SOURCE_DIR/tests/fuzz/run.sh" "${CB_FUZZ_SECONDS:-60}"
