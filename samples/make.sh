#!/usr/bin/env bash
# Regenerates the samples from a built crawlbook: bash samples/make.sh [path/to/crawlbook]
# Each sample's command is listed in samples/README.md; this script runs exactly those.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cb=$(readlink -f "${1:-$here/../build/crawlbook}") # resolved before the cd: a relative path works
cd "$here"
export SOURCE_DATE_EPOCH=1767225600 # 2026-01-01: fixed, so the samples are reproducible
grep '^crawlbook ' README.md | while read -r cmd; do
  echo "+ $cmd"
  eval "\"$cb\" ${cmd#crawlbook }"
done
for pdf in *.pdf; do pdftoppm -r 60 -png -f 1 -l 1 -singlefile "$pdf" "${pdf%.pdf}-page1"; done
