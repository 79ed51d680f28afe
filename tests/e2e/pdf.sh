#!/usr/bin/env bash
# The PDF checked with tools we did not write: qpdf finds no damage, pdfinfo
# says every page is exactly A4, pdffonts says every font is embedded and
# subset, and pdftotext shows every room's key entry and every key of the
# JSON of the same seed.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need qpdf
need pdfinfo
need pdffonts
need pdftotext

check() { # check NAME ARGS...: one dungeon as PDF and JSON, compared
  local name=$1
  shift
  local pdf="$WORK/$name.pdf" json="$WORK/$name.json"
  "$CRAWLBOOK" "$@" -o "$pdf" || die "$name: crawlbook failed"
  "$CRAWLBOOK" "$@" -o "$json" || die "$name: crawlbook failed (json)"

  qpdf --check "$pdf" >"$WORK/qpdf.txt" 2>&1 || fail "$name: qpdf --check: $(cat "$WORK/qpdf.txt")"
  grep -q "No syntax or stream encoding errors found" "$WORK/qpdf.txt" || fail "$name: qpdf: $(cat "$WORK/qpdf.txt")"
  if grep -qi "warning" "$WORK/qpdf.txt"; then fail "$name: qpdf warns: $(cat "$WORK/qpdf.txt")"; fi

  local pages
  pages=$(pdfinfo "$pdf" | sed -n 's/^Pages: *//p')
  [ -n "$pages" ] && [ "$pages" -ge 1 ] || fail "$name: pdfinfo gives no page count"
  local sizes
  sizes=$(pdfinfo -f 1 -l "$pages" "$pdf" | grep -c '^Page *[0-9]* size: *595.276 x 841.89 pts (A4)$' || true)
  [ "$sizes" = "$pages" ] || fail "$name: $sizes of $pages pages are 595.276 x 841.89 pts"

  local fonts
  pdffonts "$pdf" >"$WORK/fonts.txt" || fail "$name: pdffonts failed"
  fonts=$(tail -n +3 "$WORK/fonts.txt" | wc -l)
  [ "$fonts" -ge 1 ] || fail "$name: no fonts"
  tail -n +3 "$WORK/fonts.txt" | awk '$(NF-4) != "yes" || $(NF-3) != "yes" { bad = 1; print } END { exit bad }' \
    >"$WORK/badfonts.txt" || fail "$name: fonts not embedded and subset: $(cat "$WORK/badfonts.txt")"

  pdftotext "$pdf" - | tr '\n' ' ' | tr -s ' ' >"$WORK/text.txt"
  local rooms=0
  # rooms: one JSON line each: {"id":N,"level":1,...,"value":V,...,"contents":{"name":"..."...}}
  while IFS='|' read -r id value rname; do
    rooms=$((rooms + 1))
    # the entry: number, the room's marks as short symbols ("?", "St", "K1"), the name in bold
    # (the die's value is the procedure's, not the table's: the sheet leaves it out)
    local ere
    ere=$(printf '%s' "$rname" | sed 's/[][\\.*^$+?(){}|/]/\\&/g')
    grep -qE -- "(^| )$id( [^ ()]{1,3}){0,8} $ere\. " "$WORK/text.txt" ||
      fail "$name: no key entry for room $id ($rname, value $value)"
  done < <(sed -n 's/^  {"id":\([0-9]*\),"level":.*"value":\([0-9]*\),.*"contents":{"name":"\([^"]*\)".*$/\1|\2|\3/p' "$json")
  local want
  want=$(grep -c '^  {"id":[0-9]*,"level":' "$json")
  [ "$rooms" = "$want" ] && [ "$rooms" -ge 1 ] || fail "$name: read $rooms of $want rooms from the JSON"
  # keys: every lock's key entry says what it opens; every lock names its key
  while IFS='|' read -r from to key; do
    grep -qE -- "$key( \([^)]*\))? opens ([0-9]+–[0-9]+, )*$from–$to" "$WORK/text.txt" ||
      fail "$name: the key entry of $key ($from–$to) is not in the PDF"
    grep -qF -- "locked, $key" "$WORK/text.txt" || fail "$name: the lock $key is not in the PDF"
  done < <(sed -n 's/^  {"id":[0-9]*,"from":\([0-9]*\),"to":\([0-9]*\),.*"lock":"\([^"]*\)".*$/\1|\2|\3/p' "$json")
  grep -qF -- "To make it again: crawlbook --generator dropdice" "$WORK/text.txt" || fail "$name: no footer"
  echo "$name: $pages page(s), $fonts font(s), $rooms rooms checked"
}

check seed42 --seed 42
check seed49-keys --seed 49
grep -q '"lock":"K1"' "$WORK/seed49-keys.json" || fail "seed 49 no longer has a key: pick another seed with locks"
check rooms60 --seed 7 --rooms 60 --extra-by length
check rooms200 --seed 3 --rooms 200
[ "$(pdfinfo "$WORK/rooms200.pdf" | sed -n 's/^Pages: *//p')" -gt 1 ] || fail "200 rooms fit one page?"
check title --seed 5 --rooms 3 --title "Caf\xc3\xa9 of the 'Dice' & <Bones>"
finish
