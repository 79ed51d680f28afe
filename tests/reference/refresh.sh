#!/usr/bin/env bash
# Re-renders the reference pages on purpose, after a change to what lands on
# paper that you have looked at: bash tests/reference/refresh.sh [path/to/crawlbook]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# the binary is resolved before the cd, so a relative path given from anywhere works
cb=$(readlink -f "${1:-$here/../../build/crawlbook}")
cd "$here"
for args in *.args; do
  read -r -a a < "$args"
  "$cb" "${a[@]}" --dpi 40 -o "${args%.args}.png"
  echo "refreshed ${args%.args}.png"
done
