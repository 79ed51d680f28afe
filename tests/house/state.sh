#!/usr/bin/env bash
# No mutable state lives in a static below main (architecture.md): caches and
# scratch belong to the run that uses them. A static variable in src/ that is
# not const fails, at file scope or in a function, unless it is one of the few
# below that cannot be otherwise, each with its reason.
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
cd "$CB_SOURCE_DIR/src"
python3 - <<'PY'
import os, re, sys

# file: names of the statics it may keep, and why
ALLOWED = {
    # a signal handler may reach nothing else: the temporary file it removes
    "io/output.c": {"sig_tmp", "sig_armed"},
    # found once a process from the executable's path, then only read
    "base/datadir.c": {"found", "looked"},
    # tests' fault injection, counted a thread
    "base/alloc.c": {"fail_after", "fail_once", "count"},
    # jansson's allocation hooks take no context: a failure is told a thread
    "io/json.c": {"jansson_oom"},
}

def code_of(path):
    text = open(path, encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    code = re.sub(r"//[^\n]*", "", code)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', code)

# a declaration that starts with static: a variable when its name is followed
# by '=', '[', ';' or ',' rather than by '(' (a function)
DECL = re.compile(r"\bstatic\s+((?:[A-Za-z_][A-Za-z0-9_]*\s+|\*\s*)*?)"
                  r"(?:struct\s*\{[^{}]*\}\s*)?\**\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=|\[|;|,)")
bad = []
for root, _, names in os.walk("."):
    for f in sorted(names):
        if not f.endswith((".c", ".h")):
            continue
        path = os.path.normpath(os.path.join(root, f))
        code = code_of(path)
        for m in DECL.finditer(code):
            words = m.group(1).split()
            if "const" in words or "inline" in words:
                continue
            name = m.group(2)
            if name in ALLOWED.get(path, ()):
                continue
            line = code.count("\n", 0, m.start()) + 1
            bad.append(f"src/{path}:{line}: static '{name}' is mutable state below main")
if bad:
    sys.exit("FAIL:\n" + "\n".join(bad))
print("no mutable statics in src/ beyond the", sum(map(len, ALLOWED.values())), "allowed")
PY
