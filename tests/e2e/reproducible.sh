#!/usr/bin/env bash
# Same seed, same bytes: PDF, SVG, PNG and JSON across two runs and under
# SOURCE_DATE_EPOCH (whose date the PDF carries); `render x.json` gives what
# generating directly gives; --explain prints the procedure's log.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need pdfinfo
cd "$WORK"
args=(--seed 1234 --rooms 14)

for ext in pdf svg png json; do
  env -u SOURCE_DATE_EPOCH "$CRAWLBOOK" "${args[@]}" -o "a.$ext" || die "crawlbook -o a.$ext failed"
  env -u SOURCE_DATE_EPOCH "$CRAWLBOOK" "${args[@]}" -o "b.$ext" || die "crawlbook -o b.$ext failed"
  cmp -s "a.$ext" "b.$ext" || fail "$ext differs between two runs"
  SOURCE_DATE_EPOCH=1700000000 "$CRAWLBOOK" "${args[@]}" -o "c.$ext" || die "crawlbook -o c.$ext failed"
  SOURCE_DATE_EPOCH=1700000000 "$CRAWLBOOK" "${args[@]}" -o "d.$ext" || die "crawlbook -o d.$ext failed"
  cmp -s "c.$ext" "d.$ext" || fail "$ext differs between two runs under SOURCE_DATE_EPOCH"
  # only the PDF carries a date
  if [ "$ext" != pdf ]; then cmp -s "a.$ext" "c.$ext" || fail "$ext depends on SOURCE_DATE_EPOCH"; fi
  [ -s "a.$ext" ] || fail "a.$ext is empty"
done
cmp -s a.pdf c.pdf && fail "the PDF ignores SOURCE_DATE_EPOCH"
head -c 8 a.png | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' || fail "a.png is not a PNG"
head -c 200 a.svg | grep -q '<svg' || fail "a.svg is not an SVG"

# the PDF's dates
date_of() { pdfinfo -isodates "$1" | sed -n "s/^$2: *//p"; }
[ "$(date_of a.pdf CreationDate)" = "2000-01-01T00:00:00Z" ] || fail "CreationDate without SOURCE_DATE_EPOCH: $(date_of a.pdf CreationDate)"
[ "$(date_of c.pdf CreationDate)" = "2023-11-14T22:13:20Z" ] || fail "CreationDate under SOURCE_DATE_EPOCH=1700000000: $(date_of c.pdf CreationDate)"
[ "$(date_of c.pdf ModDate)" = "2023-11-14T22:13:20Z" ] || fail "ModDate under SOURCE_DATE_EPOCH: $(date_of c.pdf ModDate)"
SOURCE_DATE_EPOCH=0 "$CRAWLBOOK" "${args[@]}" -o e.pdf || die "SOURCE_DATE_EPOCH=0 failed"
[ "$(date_of e.pdf CreationDate)" = "1970-01-01T00:00:00Z" ] || fail "CreationDate under SOURCE_DATE_EPOCH=0: $(date_of e.pdf CreationDate)"

# render x.json gives the same bytes as generating directly, in every format
for ext in pdf svg png json; do
  env -u SOURCE_DATE_EPOCH "$CRAWLBOOK" render a.json -o "r.$ext" || die "render -o r.$ext failed"
  cmp -s "a.$ext" "r.$ext" || fail "render a.json -o r.$ext differs from generating directly"
done
SOURCE_DATE_EPOCH=1700000000 "$CRAWLBOOK" render a.json -o rc.pdf || die "render under SOURCE_DATE_EPOCH failed"
cmp -s c.pdf rc.pdf || fail "render under SOURCE_DATE_EPOCH differs from generating directly"
for extra in "--extra-by length --rooms 40" "--faithful --rooms 25" "--title Hand-made --rooms 5"; do
  read -r -a more <<<"$extra"
  "$CRAWLBOOK" --seed 77 "${more[@]}" -o x.json && "$CRAWLBOOK" --seed 77 "${more[@]}" -o x.pdf &&
    "$CRAWLBOOK" render x.json -o y.pdf || die "crawlbook $extra failed"
  cmp -s x.pdf y.pdf || fail "render differs from generating directly with $extra"
done
# PNG at another resolution, twice
"$CRAWLBOOK" "${args[@]}" --dpi 72 -o p1.png && "$CRAWLBOOK" "${args[@]}" --dpi 72 -o p2.png || die "--dpi 72 failed"
cmp -s p1.png p2.png || fail "PNG at 72 dpi differs between runs"
cmp -s p1.png a.png && fail "--dpi changes nothing"

# --explain prints the log, line for line as the JSON keeps it, and writes no file
mkdir explain && cd explain
"$CRAWLBOOK" "${args[@]}" --explain >log.txt 2>err.txt || die "--explain failed"
[ ! -s err.txt ] || fail "--explain wrote to stderr: $(cat err.txt)"
[ "$(ls -A)" = "err.txt
log.txt" ] || fail "--explain without -o wrote a file: $(ls -A)"
sed -n '/^ "log": \[$/,/^ \]$/p' ../a.json | sed '1d;$d' | sed 's/^  "//; s/",\{0,1\}$//; s/\\"/"/g' >want.txt
[ -s want.txt ] || fail "no log in the JSON"
diff -u want.txt log.txt >diff.txt || fail "--explain differs from the JSON's log: $(head -20 diff.txt)"
grep -q "Dropped 14 dice" log.txt || fail "--explain does not narrate the dice"
"$CRAWLBOOK" "${args[@]}" --explain -o withfile.json >log2.txt || die "--explain -o failed"
cmp -s log.txt log2.txt || fail "--explain -o prints another log"
cmp -s withfile.json ../a.json || fail "--explain -o writes another file"
finish
