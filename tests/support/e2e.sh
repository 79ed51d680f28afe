# Shared by the end-to-end scripts (tests/e2e/*.sh): source it first.
# Needs $CRAWLBOOK (the binary) and $CB_SOURCE_DIR (the source root); gives
# $WORK, a temporary directory removed on exit, and a few helpers.
set -euo pipefail
: "${CRAWLBOOK:?set CRAWLBOOK to the crawlbook binary}"
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
CRAWLBOOK=$(cd "$(dirname "$CRAWLBOOK")" && pwd)/$(basename "$CRAWLBOOK")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cbe2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILS=0

fail() {
  echo "FAIL: $*" >&2
  FAILS=$((FAILS + 1))
}

# Stops at once (for failures later steps depend on).
die() {
  echo "FAIL: $*" >&2
  exit 1
}

# A tool the checks need; .ci/deps installs it, so its absence is a failure.
need() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is missing (.ci/deps installs it)"
}

# Ends the script: 0 when nothing failed.
finish() {
  if [ "$FAILS" -gt 0 ]; then
    echo "$FAILS check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
