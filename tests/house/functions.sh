#!/usr/bin/env bash
# No function in src/ over 120 lines, none in src/layout/ over 80 (tests/house/funclen.py measures them).
set -euo pipefail
: "${CB_SOURCE_DIR:?set CB_SOURCE_DIR to the source tree}"
python3 "$CB_SOURCE_DIR/tests/house/funclen.py" "$CB_SOURCE_DIR/src" 120
python3 "$CB_SOURCE_DIR/tests/house/funclen.py" "$CB_SOURCE_DIR/src/layout" 80
