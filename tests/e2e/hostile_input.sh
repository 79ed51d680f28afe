#!/usr/bin/env bash
# Hostile input (issue 15, items 5-13 and 16-18): each finding of the red-team
# pass, replayed. A refusal is exit 2 with one line on standard error that
# says what (checked with a pattern), no control byte on the terminal and no
# file written.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need python3
need pdftotext
cd "$WORK"
"$CRAWLBOOK" --seed 1 -o base.json || die "cannot make base.json"

# refused WHAT PATTERN ARGS...: exit 2, one line matching PATTERN, nothing written to out.*.
refused() {
  local what=$1 pattern=$2
  shift 2
  rm -f out.*
  local rc=0
  timeout 60 "$CRAWLBOOK" "$@" >stdout 2>stderr || rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 ($(head -c 300 stderr))"
  [ "$(wc -l <stderr)" -eq 1 ] || fail "$what: not one line on stderr: $(head -c 600 stderr)"
  grep -q -- "$pattern" stderr || fail "$what: the message does not say '$pattern': $(cat stderr)"
  ! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" stderr stdout || fail "$what: control bytes printed"
  ! ls out.* >/dev/null 2>&1 || fail "$what: wrote $(ls out.*)"
}

# edit OUT PYTHON: base.json loaded as d, changed by PYTHON, written to OUT.
edit() {
  python3 -c "import json,sys
d = json.load(open('base.json'))
$2
json.dump(d, open('$1', 'w'))" || die "edit $1"
}

# 5: an option key from a JSON file cannot reach the footer's command.
edit inject.json "d['options']['x;touch\${IFS}PWNED;#'] = True"
refused "5 unknown option key" "'x;touch\${IFS}PWNED;#' is not an option of dropdice" render inject.json -o out.pdf
edit unknown.json "d['options']['rooms2'] = 3"
refused "5 unknown option key" "'rooms2' is not an option" render unknown.json -o out.pdf
# every word of the footer's command is quoted: paste it and nothing but crawlbook runs
mkdir -p 'tpl $(touch PWNED) ;x'
cp "$CB_SOURCE_DIR/templates/one-page.cfg" 'tpl $(touch PWNED) ;x/t.cfg'
"$CRAWLBOOK" --seed 2 --template 'tpl $(touch PWNED) ;x/t.cfg' --title "it's \$(touch PWNED)" -o q.pdf ||
  fail "5: the quoted run failed"
pdftotext q.pdf - | tr '\n' ' ' | sed 's/.*To make it again: //; s/ *\f.*//; s/  */ /g' >cmd.txt
grep -q "^crawlbook --generator" cmd.txt || fail "5: no command in the footer: $(cat cmd.txt)"
bash -n cmd.txt || fail "5: the footer's command is not shell syntax: $(cat cmd.txt)"
mkdir -p bin run && printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done\n' >bin/crawlbook && chmod +x bin/crawlbook
(cd run && PATH="$WORK/bin:$PATH" bash ../cmd.txt >words.txt) || fail "5: running the footer's command failed"
[ ! -e PWNED ] && [ ! -e run/PWNED ] || fail "5: the footer's command ran an injected command: $(cat cmd.txt)"
grep -qx 'tpl $(touch PWNED) ;x/t.cfg' run/words.txt || fail "5: the template path did not come back as one word"

# 6: nothing printed from input carries a control byte.
edit escape.json "d['log'][0] = '\x1b]0;pwned\x07\x1b[2J\x9b31m \x7f end'"
"$CRAWLBOOK" render escape.json --explain >explain.txt 2>&1 || fail "6: render --explain failed"
! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" explain.txt || fail "6: --explain printed control bytes"
grep -q 'x1b]0;pwned' explain.txt || fail "6: the escaped line is missing: $(head -1 explain.txt)"
edit kind.json "d['passages'][0]['kind'] = '\x1b[2Jdoor'"
refused "6 kind" "unknown kind '\\\\x1b\[2Jdoor'" render kind.json -o out.pdf
edit key.json "d['options']['\x1b]0;x\x07'] = 1"
refused "6 option key" "is not an option" render key.json -o out.pdf
refused "6 --generator" 'no such generator' --generator "$(printf '\033[2J\302\233x')" -o out.pdf
refused "6 --extra-by" '--extra-by' --extra-by "$(printf '\033[2J\377')" -o out.pdf

# 7: a stroke without length; 8: a table asking for too much work.
letters() { # FILE ROW2: the shipped table with row 2 replaced
  sed "s/^2 *|.*/$2/" "$CB_SOURCE_DIR/templates/leximorph-letters.txt" >"$1"
}
letters zero.txt '2 | B | L 0.5,0.5 0.5,0.5'
refused "7 zero-length L" 'zero.txt:[0-9]*: stroke 1 of letter .B. has no length' -g leximorph --letters ./zero.txt -o out.json
letters zeroo.txt '2 | B | L 0,0 1,1 ; O 0.3,0.3 0.3,0.3 0.3,0.3'
refused "7 degenerate O" 'zeroo.txt:[0-9]*: stroke 2 of letter .B. has no length' -g leximorph --letters ./zeroo.txt -o out.json
letters ellipses.txt "2 | B | $(python3 -c "print(' ; '.join(['E 0.5,0.5 0.4,0.4'] * 150))")"
refused "8 many ellipses" 'more than 100 segments' -g leximorph --letters ./ellipses.txt -o out.json
letters dense.txt "2 | B | $(python3 -c "print(' ; '.join('L 0,%g 1,%g ; L %g,0 %g,1' % (i / 13, i / 13, i / 13, i / 13) for i in range(1, 13)))")"
refused "8 dense crossings" 'at most 100' -g leximorph --letters ./dense.txt -o out.json

# 10: --title and --author must be UTF-8 text, for every backend and format.
for fmt in pdf svg png json; do
  refused "10 --title .$fmt" '--title: byte 3 is not UTF-8' --title "$(printf 'ab\377cd')" -o out.$fmt
  refused "10 --author .$fmt" '--author: byte 1 is not UTF-8' --author "$(printf '\300\200')" -o out.$fmt
done
refused "10 haru" '--title: byte 1 is a control character' --backend haru --title "$(printf '\033[2J')" -o out.pdf

# 13: --seeds says which seeds; --seed as well is a conflict.
refused "13 --seeds with --seed" '--seeds A..B already says which seeds' --seeds 1..3 --seed 7 -o out.pdf
refused "13 --seed with --seeds" '--seeds A..B already says which seeds' --seed 7 --seeds 1..3 -o out.pdf

# 12: a template that makes no pages, or margins that leave no room (alone or with the command line's page).
printf 'layout = "booklet";\nsections = [];\n' >nosections.cfg
refused "12 sections = []" 'nosections.cfg:2: sections must name at least one' --template ./nosections.cfg -o out.pdf
printf 'layout = "booklet";\nsections = ["extras"];\n' >extras.cfg
refused "12 no pages" 'give this dropdice dungeon no pages' --template ./extras.cfg -o out.svg
printf 'layout = "sheet";\npage = {\n  width_mm = 90; height_mm = 90;\n  margin_mm = 40; };\n' >tight.cfg
for b in cairo haru; do
  refused "12 margins ($b)" 'tight.cfg:4: margins of 40 mm on a 90 x 90 mm page leave 10 x 10 mm' --backend $b \
    --template ./tight.cfg -o out.pdf
done
printf 'layout = "booklet";\npage = { margin_mm = 40; };\n' >wide.cfg
"$CRAWLBOOK" --seed 1 --template ./wide.cfg -o out.pdf || fail "12: 40 mm margins on A4 refused"
refused "12 margins with --page-size" 'wide.cfg:2: margins of 40 mm on a 139.7 x 215.9 mm page' \
  --template ./wide.cfg --page-size half-letter -o out.pdf
refused "12 margins with --page-size WxH" '150 x 120 mm page leave 70 x 40 mm' --template ./wide.cfg --page-size 120x150mm --landscape -o out.pdf

# 16: templates may not @include (libconfig would read it unchecked: a directory ends the process, a FIFO hangs).
mkdir -p incdir && mkfifo incfifo
printf 'layout = "sheet";\n@include "incdir"\n' >incdir.cfg
printf 'layout = "sheet";\n  @include "incfifo"\n' >incfifo.cfg
refused "16 @include a directory" 'incdir.cfg:2: @include is not supported' --template ./incdir.cfg -o out.pdf
refused "16 @include a FIFO" 'incfifo.cfg:2: @include is not supported' --template ./incfifo.cfg -o out.pdf

# 17: a FIFO among the fonts is refused, not waited on, by both backends.
mkdir -p data/fonts && cp -r "$CB_SOURCE_DIR/templates" data/ && cp "$CB_SOURCE_DIR"/fonts/* data/fonts/
rm data/fonts/Vollkorn-Italic.ttf && mkfifo data/fonts/Vollkorn-Italic.ttf
for b in cairo haru; do
  CRAWLBOOK_DATADIR=$WORK/data refused "17 FIFO font ($b)" 'Vollkorn-Italic.ttf: not a regular file' --backend $b -o out.pdf
done

# 9: what crawlbook writes it reads back: past the reader's limits the writer refuses (nothing written).
refused "9 battleships 1.2M passages" '[0-9]* passages; a JSON file holds at most 1000000' \
  -g battleships --grid 100 --levels 250 --extra 8000 --seed 1 -o out.json
refused "9 the most of every option" 'a JSON file holds at most' \
  -g battleships --grid 100 --levels 1000 --extra 8000 --seed 1 -o out.json
"$CRAWLBOOK" -g battleships --grid 100 --levels 20 --extra 8000 --seed 1 -o big.json || fail "9: big.json refused"
"$CRAWLBOOK" render big.json -o again.json || fail "9: render refused what crawlbook wrote"
cmp -s big.json again.json || fail "9: the round trip changed the JSON"

# 18: what reading JSON may cost is bounded before jansson builds its tree.
python3 -c "print('{\"junk\": [' + ','.join(['{}'] * 3000001) + ']}')" >objects.json
refused "18 objects" 'objects.json: holds more than 3,000,000 objects and arrays' render objects.json -o out.pdf
python3 -c "print('{\"junk\": [' + ','.join(['0'] * 8000001) + ']}')" >values.json
refused "18 values" 'values.json: holds more than 8,000,000 values' render values.json -o out.pdf
truncate -s 129M huge.json
refused "18 size" 'huge.json: larger than 128 MiB' render huge.json -o out.pdf
python3 -c "import json
d = json.load(open('base.json'))
d['options'] = {'k%06d' % i: i for i in range(100000)}
json.dump(d, open('keys.json', 'w'))"
refused "18 100,000 option keys" "'k0000[0-9]*' is not an option" render keys.json -o out.pdf

# 11: characters the fonts cannot draw are refused by name, by every backend and format, wherever they come from.
for b in "cairo pdf" "haru pdf" "cairo svg" "cairo png"; do
  set -- $b
  refused "11 title ($1 $2)" 'cannot draw U+4E2D U+6587 U+05E9 U+05DC U+05D5 U+05DD U+1F409' \
    --backend "$1" --title "Der Drache 中文 שלום 🐉" -o out.$2
done
edit cjk.json "d['rooms'][2]['contents']['name'] = 'A shrine to 龍'"
refused "11 room text from JSON" 'cannot draw U+9F8D' render cjk.json -o out.pdf
"$CRAWLBOOK" --seed 1 --title "Ξένιος · Жар-птица · Ærøskøbing" -o greek.pdf || fail "11: Greek and Cyrillic refused"

finish
