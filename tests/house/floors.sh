#!/usr/bin/env bash
# The floors hold: the build gives each folder an include path of the floors
# below it (CMakeLists.txt, cb_floor), so an include that runs upward does not
# compile; an include through "../" would get round that, so none may; and a
# bare include names a file of the same folder.
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR/src"
fails=0
while IFS= read -r hit; do
  file=${hit%%:*} inc=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"${hit#*:}")
  case $inc in
  *..*) echo "FAIL: $file includes \"$inc\": write it from src/, as its floor" >&2; fails=$((fails + 1)) ;;
  */*) [ -f "$inc" ] || { echo "FAIL: $file includes \"$inc\", which is not under src/" >&2; fails=$((fails + 1)); } ;;
  *) [ -f "$(dirname "$file")/$inc" ] || [ "$inc" = crawlbook.h ] || { echo "FAIL: $file includes \"$inc\", not a file of its folder" >&2; fails=$((fails + 1)); } ;;
  esac
done < <(grep -rn --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' . | sed -E 's|^\./||; s|:[0-9]+:|:|')
# main.c sits in src/, where a quoted include would find any floor: it may
# include the public header alone
others=$(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' main.c | grep -v '"crawlbook.h"' || true)
[ -z "$others" ] || { echo "FAIL: main.c includes more than crawlbook.h: $others" >&2; fails=$((fails + 1)); }
n=$(grep -rc --include='*.[ch]' '#include "' . | awk -F: '{s += $2} END {print s}')
[ "$n" -gt 200 ] || { echo "FAIL: only $n includes read" >&2; exit 1; }
[ "$fails" = 0 ] && echo "$n includes, none running through ../"
[ "$fails" = 0 ]
