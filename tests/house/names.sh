#!/usr/bin/env bash
# No procedure's name outside its own folder and the registry: the names are
# the folders of src/proc/, and neither a string ("cards"), an identifier
# (cb_gen_cards, cb_cards_map, CB_CARDS_MAX_DECKS) nor a field may name one
# elsewhere in src/. A field names a procedure when it is called after it
# (o.cards.grid) or when it is a member only that procedure's headers
# declare (sector_cols, grid_w; no struct outside the folder has one of that
# name): reading it elsewhere reaches into the procedure. Comments may name them. src/proc/proc.h, the interface every
# procedure implements, is held to the same rule.
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR/src"
python3 - <<'PY'
import os, re, sys
procs = sorted(d for d in os.listdir("proc") if os.path.isdir(os.path.join("proc", d)))
if len(procs) < 5:
    sys.exit(f"FAIL: only {len(procs)} procedures under src/proc")

def code_of(path):
    text = open(path, encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", code)

files = []
for root, _, names in os.walk("."):
    for f in sorted(names):
        if f.endswith((".c", ".h")):
            files.append(os.path.normpath(os.path.join(root, f)))

def bodies(code):
    """The bodies of its struct definitions, nested ones apart."""
    for m in re.finditer(r"\bstruct\s*\w*\s*\{", code):
        depth, i = 1, m.end()
        while depth and i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        yield re.sub(r"\{[^{}]*\}", "", code[m.end():i - 1])


def members(path):
    """The members the structs of a file declare."""
    out = set()
    for body in bodies(code_of(path)):
        body = re.sub(r"\([^()]*\)\s*;", ";", body)  # a function pointer's parameters
        for decl in body.split(";"):
            decl = re.sub(r"\[[^]]*\]", "", decl)
            for part in decl.split(","):
                m = re.search(r"(\w+)\s*\)?\s*$", part.strip())
                if m and not re.fullmatch(r"\d+", m.group(1)):
                    out.add(m.group(1))
    return out


declared = {p: set() for p in procs}  # in its headers
anywhere = {p: set() for p in procs}  # in any of its files
elsewhere = set()
for f in files:
    owner = next((p for p in procs if f.startswith(f"proc/{p}/")), None)
    found = members(f)
    if owner:
        anywhere[owner].update(found)
        if f.endswith(".h"):
            declared[owner].update(found)
    else:
        elsewhere.update(found)
own_fields = {p: sorted(declared[p] - elsewhere - set().union(*(anywhere[q] for q in procs if q != p)))
              for p in procs}

fails = 0
for path in files:
    if path.startswith("registry/"):
        continue
    lines = code_of(path).split("\n")
    for name in procs:
        if path.startswith(f"proc/{name}/"):
            continue
        fields = "|".join([re.escape(name)] + [re.escape(f) for f in own_fields[name]])
        pat = re.compile(r'"[^"\n]*\b%s\b[^"\n]*"|\bcb_(?:\w+_)?%s\w*|\bCB_(?:\w+_)?%s(?:_\w+)?\b|(?:\.|->)\s*(?:%s)\b'
                         % (name, name, name.upper(), fields))
        for i, line in enumerate(lines, 1):
            if pat.search(line):
                print(f"FAIL: {path}:{i} names {name}: {line.strip()[:100]}", file=sys.stderr)
                fails += 1
if fails:
    sys.exit(1)
n = sum(len(v) for v in own_fields.values())
print(f"{len(procs)} procedures ({n} fields of their own), each named only in its folder and the registry")
PY
