#!/usr/bin/env bash
# No procedure's name outside its own folder and the registry: the names are
# the folders of src/proc/, and neither a string ("cards") nor an identifier
# (cb_gen_cards, cb_cards_map) may name one elsewhere in src/. Comments may.
# proc/proc.h, the procedures' interface beside the registry, holds
# cb_gen_options: the one options record the command line fills.
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR/src"
mapfile -t procs < <(find proc -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
[ ${#procs[@]} -ge 5 ] || { echo "FAIL: only ${#procs[@]} procedures under src/proc" >&2; exit 1; }
fails=0
for name in "${procs[@]}"; do
  # code only: block and line comments blanked first
  hits=$(find . -name '*.[ch]' ! -path "./proc/$name/*" ! -path './proc/registry.[ch]' ! -path ./proc/proc.h | sort | while read -r f; do
    python3 - "$f" "$name" <<'PY'
import re, sys
path, name = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
code = re.sub(r"//[^\n]*", "", code)
pat = re.compile(r'"[^"\n]*\b%s\b[^"\n]*"|\bcb_(?:\w+_)?%s\w*' % (name, name))
for i, line in enumerate(code.split("\n"), 1):
    if pat.search(line):
        print(f"{path}:{i}: {line.strip()[:100]}")
PY
  done)
  if [ -n "$hits" ]; then
    echo "FAIL: '$name' named outside src/proc/$name and the registry:" >&2
    echo "$hits" >&2
    fails=$((fails + 1))
  fi
done
[ "$fails" = 0 ] && echo "${#procs[@]} procedures, each named only in its folder and the registry"
[ "$fails" = 0 ]
