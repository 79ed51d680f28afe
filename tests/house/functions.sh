#!/usr/bin/env bash
# No function in src/ over 120 lines (tests/house/funclen.py measures them).
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
python3 "$CB_SOURCE_DIR/tests/house/funclen.py" "$CB_SOURCE_DIR/src" 120
