#!/usr/bin/env bash
# `cmake --install` puts the binary, fonts, templates and man page where a
# packager expects them, and the installed binary finds its fonts and
# templates beside itself (run far from the source tree).
set -euo pipefail
: "${CB_BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$CB_BUILD_DIR" --prefix "$tmp/usr" > "$tmp/install.log"
fails=0
for f in bin/crawlbook share/crawlbook/fonts/Vollkorn-Regular.ttf share/crawlbook/fonts/OFL.txt \
         share/crawlbook/templates/cards-contents.txt share/crawlbook/templates/leximorph-letters.txt \
         share/man/man1/crawlbook.1; do
  [ -e "$tmp/usr/$f" ] || { echo "FAIL: $f not installed"; fails=$((fails + 1)); }
done
# the installed binary, from an empty directory (a leximorph dungeon reads templates/ too)
(cd "$tmp" && env -u CRAWLBOOK_DATADIR "$tmp/usr/bin/crawlbook" --generator leximorph --seed 4 -o "$tmp/out.pdf")
pdffonts "$tmp/out.pdf" | grep -q Vollkorn || { echo "FAIL: the installed binary's PDF lacks our fonts"; fails=$((fails + 1)); }
groff -man -Tascii -P-bcu "$tmp/usr/share/man/man1/crawlbook.1" 2>/dev/null | grep -q -- "page-size" ||
  { echo "FAIL: the man page lacks --page-size"; fails=$((fails + 1)); }
echo "install: $fails failure(s)"
[ "$fails" -eq 0 ]
