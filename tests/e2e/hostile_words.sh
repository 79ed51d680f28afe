#!/usr/bin/env bash
# Hostile input, round 3 (issue 25, items 1-7 and 14): long words and many
# ways, read back from the page. Every text that reaches the page is whole
# and valid UTF-8 (no buffer cuts a character in two, no entry drops text),
# a log line comes back from a round trip as it went in, and inputs that
# once hung finish or are refused at once.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
need python3
need pdftotext
cd "$WORK"
"$CRAWLBOOK" --seed 1 --theme crypt -o base.json || die "cannot make base.json"

# quiet WHAT ARGS...: exit 0 and nothing on standard error (no Pango warning, no refusal).
quiet() {
  local what=$1
  shift
  local rc=0
  "$CRAWLBOOK" "$@" >stdout 2>stderr || rc=$?
  [ "$rc" -eq 0 ] || fail "$what: exit status $rc ($(head -c 300 stderr))"
  [ ! -s stderr ] || fail "$what: said something: $(head -c 300 stderr)"
}

# edit OUT PYTHON: base.json loaded as d, changed by PYTHON, written to OUT.
edit() {
  python3 -c "import json,sys
d = json.load(open('base.json'))
$2
json.dump(d, open('$1', 'w'))" || die "edit $1"
}

# refused WHAT PATTERN ARGS...: exit 2, one line on standard error matching PATTERN, no out.*.
refused() {
  local what=$1 pattern=$2
  shift 2
  rm -f out.*
  local rc=0
  "$CRAWLBOOK" "$@" >stdout 2>stderr || rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 ($(head -c 300 stderr))"
  [ "$(wc -l <stderr)" -eq 1 ] || fail "$what: not one line on stderr: $(head -c 600 stderr)"
  grep -q -- "$pattern" stderr || fail "$what: the message does not say '$pattern': $(cat stderr)"
  ! ls out.* >/dev/null 2>&1 || fail "$what: wrote $(ls out.*)"
}

# printed PDF WORD...: every WORD is in the PDF's text.
printed() {
  local pdf=$1
  shift
  pdftotext "$pdf" text.txt 2>/dev/null || { fail "$pdf: no text"; return; }
  for w in "$@"; do
    grep -q -- "$w" text.txt || fail "$pdf: '$w' is not on the page"
  done
}

# 4: a monster's name of 200 bytes and a doing of 1,000 (the reader's limits), accented, each
# ending in a word of its own: a key entry of 1,024 bytes once cut them mid-character.
edit monster.json "r = [r for r in d['rooms'] if r.get('contents', {}).get('monsters')][0]
m = r['contents']['monsters'][0]
m['count'] = 1
m['name'] = 'namestart ' + '\u00e9\u00e9 ' * 36 + 'nameendabc'
m['doing'] = 'doingstart ' + ('\u00fc' * 9 + ' ') * 51 + 'doingend'
assert len(m['name'].encode()) == 200 and len(m['doing'].encode()) <= 1000, (len(m['name'].encode()), len(m['doing'].encode()))"
quiet "4 long monster" render monster.json --template booklet -o monster.pdf
printed monster.pdf Namestart nameend doingstart doingend

# 4: a theme's door-trap rows long and accented: the passages' notes (2,048 bytes once) keep every
# trap whole in the JSON, and the booklet prints them.
python3 - "$CB_SOURCE_DIR/templates/themes/crypt.txt" >traps.txt <<'EOF'
import sys
k = 0
for line in open(sys.argv[1]):
    if line.startswith('door-trap |'):
        k += 1
        words = lambda tag: ' '.join(['\u00e7\u00e0' * 4] * 55) + ' ' + tag
        line = 'door-trap | %s ~ trig | %s ~ eff | %s\n' % (words('trig%dend' % k), words('eff%dend' % k),
                                                            words('tell%dend' % k))
    sys.stdout.write(line)
EOF
quiet "4 trap rows" --seed 1 --theme traps.txt -o traps.json
python3 - <<'EOF' >tells.txt || fail "4 trap rows: the notes are cut: $(head -c 300 tells.txt)"
import json, re, sys
d = json.load(open('traps.json'))
notes = [p['note'] for p in d['passages'] if 'trapped' in p.get('flags', [])]
assert notes, 'no trapped passage'
for n in notes:
    assert '\ufffd' not in n and re.search(r'Tell: .* tell\d+end\.$', n), n[-80:]
    print(re.search(r'tell\d+end', n).group(0))
EOF
quiet "4 trap rows booklet" render traps.json --template booklet -o traps.pdf
printed traps.pdf $(sort -u tells.txt)

# 5: a room of 40 ways with notes of 4 KB each (a key entry of 160 KB): every note is printed
# (an entry once stopped at 64 KB, 16 notes of 40, exit 0).
edit notes.json "n = len(d['passages'])
for i in range(40):
    d['passages'].append({'id': n + i + 1, 'from': 2, 'to': 3, 'kind': 'door', 'flags': ['trapped'],
                          'note': 'note%dstart ' % i + 'word ' * 790 + 'note%dend.' % i})"
quiet "5 long notes" render notes.json --template booklet -o notes.pdf
printed notes.pdf $(for i in $(seq 0 39); do echo "Note${i}start note${i}end"; done)

# 6: a room holding 64 keys (the reader's limit), each opening a way elsewhere: every bold key
# name and the "Exits:" after them are printed (128 spans once dropped them, words ran together).
edit keys.json "r = [r for r in d['rooms'] if r['id'] == 3][0]
r['keys'] = ['Q%d' % i for i in range(1, 65)]
r['tags'] = sorted(set(r['tags']) | {'key'})
n = len(d['passages'])
for i, k in enumerate(r['keys']):
    d['passages'].append({'id': n + i + 1, 'from': 4, 'to': 5, 'kind': 'door', 'flags': ['locked'], 'lock': k})"
quiet "6 64 keys" render keys.json --template booklet -o keys.pdf
pdftotext keys.pdf - | tr '\n' ' ' >keys.txt
for i in $(seq 1 64); do
  grep -q "Q$i opens 4.5\. " keys.txt || fail "6: the key Q$i is not printed with what it opens"
done
grep -q "Q64 opens 4.5\. Exits: " keys.txt || fail "6: no 'Exits:' after the last key"

# 7: log lines up to the reader's 4,096 bytes come back from a round trip as they went in (they
# were cut to 1,023 bytes, an e acute at the cut turned to U+FFFD).
edit log.json "d['log'][0] = 'a' * 1022 + '\u00e9' + 'b' * 2990 + '\u00fc' * 36 + 'end'
d['log'][1] = 'x' * 1021 + '\u00e9' * 10"
quiet "7 long log lines" render log.json -o log2.json
python3 -c "import json
a, b = json.load(open('log.json'))['log'], json.load(open('log2.json'))['log']
assert a == b, [len(x) for x in b[:2]]" || fail "7: the log did not come back whole"

# 2: 20,000 passages between two rooms (the sheet ran past 300 s) are refused at once: a room
# may have 10,000 ways. Up to that, the key groups a room's ways in one pass.
edit ways.json "n = len(d['passages'])
for i in range(20000):
    d['passages'].append({'id': n + i + 1, 'from': 1, 'to': 2, 'kind': 'door', 'flags': ['secret'] if i % 3 else []})"
refused "2 20,000 ways" "passages\[[0-9]*\]: room [12] has more than 10000 ways (passages); a room may have at most 10000" \
  render ways.json -o out.pdf
edit ways.json "n = len(d['passages'])
for i in range(2000):
    d['passages'].append({'id': n + i + 1, 'from': 1, 'to': 2, 'kind': 'door', 'flags': ['secret'] if i % 3 else []})"
quiet "2 2,000 ways" render ways.json --template booklet -o ways.pdf

# 3: --shape reads no more than other tables (1 MiB) from an endless stream, and refuses a NUL byte
# (read for ever before; a NUL ended its row silently).
refused "3 /dev/zero" "/dev/zero: larger than 1 MiB" -g cards --shape /dev/zero -o out.pdf
refused "3 endless blank lines" "larger than 1 MiB" -g cards --shape <(yes "") -o out.pdf
printf '##\n##\0 after a NUL\n' >nul.txt
refused "3 NUL" "nul.txt: holds a NUL byte" -g cards --shape nul.txt -o out.pdf

# 1: letters of strokes side by side, closer than the map tells apart. The table check counts
# their touches as the map does (20 strokes 0.24 ft apart: 300 pieces, refused with file:line; they
# passed as 20 and ran 60 s at 12x12), and the strokes that pass are joined a round of pieces at a
# time (11 strokes 0.48 ft apart at 12x12: 86 s before, 3 s now).
# strokes OUT N GAP: the shipped letter table with every letter made of N strokes GAP apart.
strokes() {
  python3 - "$CB_SOURCE_DIR/templates/leximorph-letters.txt" "$2" "$3" >"$1" <<'EOF'
import sys
n, gap = int(sys.argv[2]), float(sys.argv[3])
strokes = ' ; '.join('L 0.1,%.4f 0.9,%.4f' % (0.3 + i * gap, 0.3 + i * gap) for i in range(n))
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith('#'):
        f = line.split('|')
        line = '|'.join(f[:2] + [' ' + strokes + '\n'])
    sys.stdout.write(line)
EOF
}
strokes side20.txt 20 0.001
refused "1 20 strokes" "side20.txt:[0-9]*: letter 'A' makes 300 pieces" -g leximorph --letters side20.txt \
  --sectors 12x12 -o out.json
strokes side11.txt 11 0.002
quiet "1 11 strokes" -g leximorph --letters side11.txt --sectors 12x12 --seed 1 -o side11.json

# 14: a room named with one 51-letter hyphenated word is broken to fit its key column, here on
# every room so that one stands in the last column (it ran past the page's edge, exit 0).
edit wide.json "for r in d['rooms']:
    r['contents']['name'] = 'Abcdefgh-ijklmnop-qrstuvwx-yzabcdef-ghijklmn-opqrstu'"
quiet "14 wide word" render wide.json -o wide.pdf
pdftotext -bbox wide.pdf - | python3 -c "import re, sys
edge = None
for line in sys.stdin:
    m = re.search(r'<page width=\"([0-9.]+)\"', line)
    edge = float(m.group(1)) - 10 * 72 / 25.4 if m else edge
    m = re.search(r'xMax=\"([0-9.]+)\".*>(.*)</word>', line)
    assert not m or float(m.group(1)) <= edge + 0.5, m.group(2) + ' runs past the margin'" ||
  fail "14: a word runs past the page's margin"

finish
