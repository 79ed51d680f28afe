#!/usr/bin/env bash
# Every C file of ours is as .clang-format writes it (clang-format 14, as
# Debian 12 ships it; .ci/deps installs it).
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR"
command -v clang-format >/dev/null || { echo "FAIL: clang-format is missing (.ci/deps installs it)" >&2; exit 1; }
mapfile -t files < <(find src tests -name '*.[ch]' | sort)
[ ${#files[@]} -gt 50 ] || { echo "FAIL: only ${#files[@]} C files found" >&2; exit 1; }
clang-format --dry-run -Werror "${files[@]}"
echo "${#files[@]} files formatted"
