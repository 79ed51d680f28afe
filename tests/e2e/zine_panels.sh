#!/usr/bin/env bash
# The mini-zine (booklet.md, "Pages"): every word keeps 6 mm or more from
# the sheet's edge (many printers print no closer), and the hook, the roster
# and the wandering table are on it, before any "Notes" panel (once three
# Notes panels stood where they were missing: dropdice seed 204).
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdftotext

for args in "-g dropdice --seed 204" "-g cards --seed 23" "-g preconnect --seed 3" "-g battleships --seed 2"; do
  # shellcheck disable=SC2086
  "$CRAWLBOOK" --template zine8 $args -o "$WORK/z.pdf" 2>/dev/null
  pdftotext -bbox "$WORK/z.pdf" "$WORK/z.html"
  # 6 mm is 17.01 points; the page's size is on its <page> line
  near=$(awk -F'"' '/<page /{w=$2; h=$4} /<word /{if ($2 < 17 || $4 < 17 || w - $6 < 17 || h - $8 < 17) n++} END{print n+0}' "$WORK/z.html")
  [ "$near" -eq 0 ] || fail "$args: $near words nearer the sheet's edge than 6 mm"
  pdftotext "$WORK/z.pdf" "$WORK/z.txt"
  for what in "hook." "Roster." "Wandering"; do
    grep -q "$what" "$WORK/z.txt" || fail "$args: the zine leaves off '$what'"
  done
done
finish
