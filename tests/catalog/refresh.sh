#!/usr/bin/env bash
# Rewrites the seed catalogue's expected JSON on purpose, after a change that
# is meant to change dungeons. Review the diff (git diff tests/catalog) before
# committing it.
#
# Usage: tests/catalog/refresh.sh [NAME...]
#   CRAWLBOOK=path/to/crawlbook (default: build/crawlbook, then build-asan/crawlbook)
#   With no NAME, every tests/catalog/*.args entry is refreshed; with names
#   (e.g. dropdice-42), only those. Each NAME.args holds crawlbook's
#   arguments on one line (quotes as in a shell, no expansions); its output
#   with `-o NAME.json` becomes NAME.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
crawlbook=${CRAWLBOOK:-}
if [ -z "$crawlbook" ]; then
  for c in "$root/build/crawlbook" "$root/build-asan/crawlbook"; do
    if [ -x "$c" ]; then crawlbook=$c && break; fi
  done
fi
[ -n "$crawlbook" ] && [ -x "$crawlbook" ] || { echo "refresh.sh: build crawlbook first or set CRAWLBOOK" >&2; exit 2; }

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/*.args; do names+=("$(basename "$f" .args)"); done
fi
for name in "${names[@]}"; do
  args_file="$here/$name.args"
  [ -f "$args_file" ] || { echo "refresh.sh: no $args_file" >&2; exit 2; }
  mapfile -d '' args < <(xargs printf '%s\0' <"$args_file")
  tmp="$here/.$name.tmp.json"
  "$crawlbook" "${args[@]}" -o "$tmp"
  mv "$tmp" "$here/$name.json"
  echo "refreshed $name"
done
