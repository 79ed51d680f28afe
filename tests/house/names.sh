#!/usr/bin/env bash
# No procedure's name outside its own folder and the registry: the names are
# the folders of src/proc/, and neither a string ("cards") nor an identifier
# (cb_gen_cards, cb_cards_map) may name one elsewhere in src/. Comments may.
# proc/proc.h, the procedures' interface beside the registry, holds
# cb_gen_options: the one options record the command line fills.
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR/src"
python3 - <<'PY'
import os, re, sys
procs = sorted(d for d in os.listdir("proc") if os.path.isdir(os.path.join("proc", d)))
if len(procs) < 5:
    sys.exit(f"FAIL: only {len(procs)} procedures under src/proc")
home = {"registry/registry.c", "registry/registry.h", "proc/proc.h"}
fails = 0
for root, _, files in os.walk("."):
    for f in sorted(files):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.normpath(os.path.join(root, f))
        if path in home:
            continue
        text = open(path, encoding="utf-8").read()
        code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
        code = re.sub(r"//[^\n]*", "", code)
        for name in procs:
            if path.startswith(f"proc/{name}/"):
                continue
            pat = re.compile(r'"[^"\n]*\b%s\b[^"\n]*"|\bcb_(?:\w+_)?%s\w*' % (name, name))
            for i, line in enumerate(code.split("\n"), 1):
                if pat.search(line):
                    print(f"FAIL: {path}:{i} names {name}: {line.strip()[:100]}", file=sys.stderr)
                    fails += 1
if fails:
    sys.exit(1)
print(f"{len(procs)} procedures, each named only in its folder and the registry")
PY
