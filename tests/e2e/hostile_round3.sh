#!/usr/bin/env bash
# Hostile input, round 3 (issue 25, items 8-13 and 15-20): each finding
# replayed. A refusal is exit 2 with one line on standard error that says
# what; what we write we read back.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need python3
cd "$WORK"

# refused WHAT PATTERN ARGS...: exit 2, one line matching PATTERN, nothing on standard output.
refused() {
  local what=$1 pattern=$2
  shift 2
  local rc=0
  timeout 60 "$CRAWLBOOK" "$@" >stdout 2>stderr || rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 ($(head -c 300 stderr))"
  [ "$(wc -l <stderr)" -eq 1 ] || fail "$what: not one line on stderr: $(head -c 600 stderr)"
  grep -q -- "$pattern" stderr || fail "$what: the message does not say '$pattern': $(cat stderr)"
  [ ! -s stdout ] || fail "$what: $(wc -c <stdout) bytes on standard output"
}

# 11: --explain with the document on standard output: the log goes to standard error
"$CRAWLBOOK" --seed 1 -f json --explain -o - >doc.json 2>log.txt || fail "11: --explain -o - failed"
python3 -c "import json; json.load(open('doc.json'))" || fail "11: --explain -o - wrote invalid JSON"
"$CRAWLBOOK" --seed 1 -f json --explain -o x.json >want.txt || fail "11: --explain -o x.json failed"
cmp -s doc.json x.json || fail "11: the document on standard output differs from the file"
[ -s want.txt ] && cmp -s log.txt want.txt || fail "11: the log on standard error is not the procedure's log"
"$CRAWLBOOK" --seed 1 -f pdf --explain -o /dev/stdout >doc.pdf 2>/dev/null || fail "11: --explain -o /dev/stdout failed"
[ "$(tail -c 6 doc.pdf | tr -d '\n')" = '%%EOF' ] || fail "11: the PDF on /dev/stdout does not end at %%EOF"

# 13: the documented minimum page: the sheet says what does not fit (exit 2, not "out of memory");
# the booklet lays it out
long=$(python3 -c "print('A Very Long Title ' * 8)")
for g in dropdice cards leximorph battleships preconnect; do
  refused "13: $g 90x90mm" 'too small for the one-page sheet' -g $g --seed 1 --page-size 90x90mm -f pdf -o -
  refused "13: $g 110x110mm, long title" 'leave [0-9]* mm for the map and the key' -g $g --seed 2 \
    --page-size 110x110mm --title "$long" -f pdf -o -
  "$CRAWLBOOK" -g $g --seed 1 --page-size 90x90mm --template booklet -o b.pdf || fail "13: $g booklet 90x90mm"
done
refused "13: cards 3 levels 100x100mm" 'too small' -g cards --seed 3 --levels 3 --page-size 100x100mm -f pdf -o -
refused "13: a wide page 120x90mm with a long title" 'leave [0-9]* mm for the map,' -g leximorph --seed 1 \
  --page-size 120x90mm --title "$long" -f pdf -o -
"$CRAWLBOOK" -g dropdice --seed 2 --page-size 200x90mm -o w.pdf 2>/dev/null || fail "13: a wide 200x90mm sheet"

# 10: JSON past render's limits is refused before its first byte, on standard output too
refused "10: battleships JSON past the value limit on -o -" 'more than 8,000,000 values' \
  -g battleships --seed 1 --grid 100 --levels 250 --extra 5000 -f json -o -

finish
