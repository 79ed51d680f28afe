#!/usr/bin/env bash
# Page templates (templates/*.cfg, libconfig): the booklet has its sections in
# order with a bookmark each, pages padded to a multiple of four, exact page
# size; both backends give the same text; a user's template works, and a broken
# one is refused with file:line, exit 2 and nothing written.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pages() { pdfinfo "$1" | sed -n 's/^Pages: *//p'; }

for gen in dropdice cards battleships leximorph preconnect; do
  "$CRAWLBOOK" --generator "$gen" --seed 3 --template booklet -o "$tmp/$gen.pdf"
  n=$(pages "$tmp/$gen.pdf")
  [ $((n % 4)) -eq 0 ] || fail "$gen booklet has $n pages, not a multiple of 4"
  pdfinfo "$tmp/$gen.pdf" | grep -q "419.528 x 595.276" || fail "$gen booklet is not A5"
  qpdf --check "$tmp/$gen.pdf" > /dev/null || fail "$gen booklet fails qpdf --check"
  marks=$(qpdf --json --json-key=outlines "$tmp/$gen.pdf" |
    python3 -c 'import json,sys; print("|".join(o["title"] for o in json.load(sys.stdin)["outlines"]))')
  for want in Map "Room key" "Players' map"; do # the procedure only with --appendix
    case "|$marks|" in *"|$want|"*) ;; *) fail "$gen booklet has no bookmark '$want' ($marks)" ;; esac
  done
  "$CRAWLBOOK" --generator "$gen" --seed 3 --template booklet --backend haru -o "$tmp/$gen-haru.pdf"
  [ "$(pages "$tmp/$gen-haru.pdf")" -eq "$n" ] || fail "$gen booklet: haru has $(pages "$tmp/$gen-haru.pdf") pages, cairo $n"
  pdftotext "$tmp/$gen.pdf" - | tr -s ' \n' '\n\n' | grep -c . > "$tmp/cw"
  pdftotext "$tmp/$gen-haru.pdf" - 2>&1 | grep -q "Syntax Warning" && fail "$gen: poppler warns about haru's text"
  # the same words on both (a run of words now ends where it is really drawn, so poppler no longer joins
  # a bold and an italic word cairo set close)
  pdftotext "$tmp/$gen.pdf" - | tr -s ' \n' '\n\n' | grep . | sort > "$tmp/c.words"
  pdftotext "$tmp/$gen-haru.pdf" - | tr -s ' \n' '\n\n' | grep . | sort > "$tmp/h.words"
  cmp -s "$tmp/c.words" "$tmp/h.words" || fail "$gen booklet: cairo and haru pages hold other words"
done

"$CRAWLBOOK" --seed 5 --template colour -o "$tmp/c.pdf"
pdftotext "$tmp/c.pdf" - | tr '\n' ' ' | grep -q -- "--template colour" || fail "footer lacks --template colour"
"$CRAWLBOOK" --seed 5 --template one-page -o "$tmp/one.pdf"
"$CRAWLBOOK" --seed 5 -o "$tmp/default.pdf"
[ "$(pages "$tmp/one.pdf")" -eq "$(pages "$tmp/default.pdf")" ] || fail "one-page is not the default layout"

"$CRAWLBOOK" --generator cards --seed 4 --template burial-caves -f json -o "$tmp/bc.json"
grep -q '"content":"cards-burial-caves"' "$tmp/bc.json" || fail "the burial-caves template did not choose its card table"
"$CRAWLBOOK" --generator cards --seed 4 --template burial-caves --content cards-contents -f json -o "$tmp/bc2.json"
grep -q '"content":"cards-contents"' "$tmp/bc2.json" || fail "--content did not override the template's table"

cat > "$tmp/mine.cfg" <<'CFG'
layout = "booklet";
page = { width_mm = 120; height_mm = 180; margin_mm = 8; };
sections = ["maps", "key"];
pad_to = 2;
CFG
"$CRAWLBOOK" --seed 5 --template "$tmp/mine.cfg" -o "$tmp/mine.pdf"
pdfinfo "$tmp/mine.pdf" | grep -q "340.157 x 510.236" || fail "a user's page size was not used"
[ $(($(pages "$tmp/mine.pdf") % 2)) -eq 0 ] || fail "pad_to = 2 was not kept"

refuse() { # file-content what-to-find
  printf '%s\n' "$1" > "$tmp/bad.cfg"
  if "$CRAWLBOOK" --seed 5 --template "$tmp/bad.cfg" -o "$tmp/bad.pdf" 2> "$tmp/err"; then fail "accepted: $1"; return; fi
  grep -q "bad.cfg:$2" "$tmp/err" || fail "'$1' said '$(cat "$tmp/err")', not bad.cfg:$2"
  [ ! -e "$tmp/bad.pdf" ] || fail "a refused template wrote a file"
}
refuse 'layout = "poster";' "1: layout"
refuse $'style = "ink";\npage = { size = "a3"; };' "2: page.size"
refuse $'page = {\n  margin_mm = 100.0; };' "2: page.margin_mm"
refuse 'sections = ["cover", "index"];' "1: sections"
refuse 'colour = true;' "1: unknown setting colour"
refuse 'layout = ;' "1: "
refuse 'pad_to = 3;' "1: pad_to"
refuse 'tables = { monsters = "x"; };' "1: tables may name"
if "$CRAWLBOOK" --template nosuch -o "$tmp/x.pdf" 2> "$tmp/err"; then fail "a missing template was accepted"; fi
grep -q "nosuch" "$tmp/err" || fail "a missing template's message does not name it"
printf 'goal | Why you came.\nencounter dragon | Roar.\n- | Nothing.\n' > "$tmp/dd.txt"
if "$CRAWLBOOK" --seed 3 --content "$tmp/dd.txt" -o "$tmp/dd.pdf" 2> "$tmp/err"; then fail "a content table with an unknown tag was accepted"; fi
grep -q "dd.txt:2: unknown tag 'dragon'" "$tmp/err" || fail "the content table's error said '$(cat "$tmp/err")'"
printf 'goal | Why you came.\n- | Nothing here.\n' > "$tmp/dd.txt"
# a stocked key prints the room's contents; the table's line stays each room's "text" in the JSON
"$CRAWLBOOK" --seed 3 --content "$tmp/dd.txt" -o "$tmp/dd.json"
grep -q '"text":"Nothing here."' "$tmp/dd.json" || fail "dropdice did not use its --content table"
echo "templates: $fails failure(s)"
[ "$fails" -eq 0 ]
