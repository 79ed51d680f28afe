#!/usr/bin/env bash
# Messages and metadata (issue 15, items 14, 19 and 20): the footer's command
# is never cut; PDF dates carry the
# "D:" prefix of ISO 32000 from both backends; no fontconfig complaint
# without HOME; a byte-order mark is named; number ranges print as plain
# numbers; --help into a full disk fails with a message.
source "${CB_SOURCE_DIR:?}/tests/support/e2e.sh" || exit 1
cd "${WORK:?}" || exit 1
need qpdf

# /CreationDate (D:...) and /ModDate (D:...), byte for byte, and a file qpdf accepts
for backend in cairo haru; do
  for args in "--seed 1" "--seeds 1..2"; do
    # shellcheck disable=SC2086
    "$CRAWLBOOK" $args --backend $backend -o d.pdf 2> /dev/null || fail "$backend $args failed"
    for key in CreationDate ModDate; do
      grep -aq "/$key (D:20000101000000Z" d.pdf || fail "$backend $args: /$key lacks D: ($(grep -ao "/$key ([^)]*)" d.pdf))"
    done
    qpdf --check d.pdf > /dev/null || fail "$backend $args: qpdf --check fails"
  done
done

# no HOME: nothing on standard error, the same PDF as with one
"$CRAWLBOOK" --seed 1 -o home.pdf 2> /dev/null || fail "a run with HOME failed"
env -u HOME -u XDG_CACHE_HOME "$CRAWLBOOK" --seed 1 -o nohome.pdf 2> err || fail "a run without HOME failed"
[ ! -s err ] || fail "a run without HOME said: $(cat err)"
cmp -s home.pdf nohome.pdf || fail "a run without HOME wrote a different PDF"
env -u HOME -u XDG_CACHE_HOME "$CRAWLBOOK" --seed 1 --dpi 40 -o nohome.png 2> err || fail "a PNG without HOME failed"
[ ! -s err ] || fail "a PNG without HOME said: $(cat err)"

# a byte-order mark is named, for a JSON file and a template
"$CRAWLBOOK" --seed 1 -f json -o plain.json 2> /dev/null
printf '\xef\xbb\xbf' | cat - plain.json > bom.json
printf '\xef\xbb\xbflayout = "sheet";\n' > bom.cfg
for run in "render bom.json -o x.pdf" "--template ./bom.cfg -o x.pdf"; do
  rc=0
  # shellcheck disable=SC2086
  "$CRAWLBOOK" $run 2> err || rc=$?
  [ $rc -eq 2 ] || fail "$run: exit $rc, want 2"
  grep -q "byte-order mark" err || fail "$run said: $(cat err)"
done

# a coordinate out of range: the bounds as plain numbers
python3 - plain.json far.json << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["rooms"][0]["x"] = 1e9
json.dump(d, open(sys.argv[2], "w"))
EOF
rc=0
"$CRAWLBOOK" render far.json -o x.pdf 2> err || rc=$?
[ $rc -eq 2 ] || fail "a room at x = 1e9: exit $rc, want 2"
grep -q "is 1000000000; it must be -100000000 to 100000000" err || fail "a room at x = 1e9 said: $(cat err)"
grep -q "e+" err && fail "a number in exponent form: $(cat err)"

# the footer's command is never cut: a 200-byte title of quotes (800 bytes
# quoted) with the page size after it, whole on every page that has one
need pdftotext
title=$(printf "'%.0s" $(seq 200))
"$CRAWLBOOK" --seed 1 --title "$title" --page-size a5 -o long.pdf 2> /dev/null || fail "a long title failed"
"$CRAWLBOOK" --seeds 1..2 --title "$title" --page-size a5 -o longb.pdf 2> /dev/null || fail "a long title, batch, failed"
python3 - long.pdf 1 longb.pdf 1 longb.pdf 2 << 'EOF' || fail "the footer's command was cut"
import subprocess, sys
want = "--title'" + "'\\''" * 200 + "'--"
args = sys.argv[1:]
bad = 0
for pdf, page in zip(args[::2], args[1::2]):
    text = subprocess.run(["pdftotext", "-f", page, "-l", page, pdf, "-"], capture_output=True, text=True).stdout
    joined = "".join(text.split())
    if want not in joined or "--page-sizea5" not in joined[joined.find(want):]:
        print(f"{pdf} page {page}: the command is not whole")
        bad = 1
sys.exit(bad)
EOF

# --help and --version into a full disk
for opt in --help --version; do
  rc=0
  "$CRAWLBOOK" $opt > /dev/full 2> err || rc=$?
  [ $rc -eq 1 ] || fail "$opt > /dev/full: exit $rc, want 1"
  grep -q "No space left on device" err || fail "$opt > /dev/full said: $(cat err)"
done
finish
