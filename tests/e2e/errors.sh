#!/usr/bin/env bash
# Bad input (issue 2, item 8): one line on standard error, exit status 2,
# nothing on standard output, no file left behind, and an existing target
# left byte-identical.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"

# bad DESCRIPTION ARGS...: runs crawlbook in a fresh directory holding
# keep.pdf, keep.json, keep.svg and keep.png, then checks the rules.
bad() {
  local what=$1 ext
  shift
  local dir="$WORK/case"
  rm -rf "$dir"
  mkdir -p "$dir"
  for ext in pdf json svg png; do printf 'precious %s\n' "$ext" >"$dir/keep.$ext"; done
  local rc=0
  (cd "$dir" && "$CRAWLBOOK" "$@" >"$WORK/stdout" 2>"$WORK/stderr") || rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2 (stderr: $(head -c 300 "$WORK/stderr"))"
  local lines
  lines=$(wc -l <"$WORK/stderr")
  [ "$lines" -eq 1 ] || fail "$what: $lines lines on stderr, want 1: $(cat "$WORK/stderr")"
  grep -q '^crawlbook: ' "$WORK/stderr" || fail "$what: stderr does not start with 'crawlbook: '"
  [ ! -s "$WORK/stdout" ] || fail "$what: wrote to stdout"
  local left
  left=$(cd "$dir" && ls -A | tr '\n' ' ')
  [ "$left" = "keep.json keep.pdf keep.png keep.svg " ] || fail "$what: the directory now holds: $left"
  for ext in pdf json svg png; do
    [ "$(cat "$dir/keep.$ext")" = "precious $ext" ] || fail "$what: keep.$ext changed"
  done
}

# options
bad "an unknown option" --bogus -o keep.pdf
bad "an unknown short option" -x -o keep.pdf
bad "a value for a flag" --faithful=yes -o keep.pdf
bad "a missing value" -o keep.pdf --seed
bad "a stray argument" stray -o keep.pdf
for seed in abc -1 1.5 '' 0x10 18446744073709551616 99999999999999999999999; do
  bad "--seed '$seed'" --seed "$seed" -o keep.pdf
done
for rooms in abc -1 0 100001 1e3 '' 12x; do
  bad "--rooms '$rooms'" --seed 1 --rooms "$rooms" -o keep.json
  bad "--rooms '$rooms' without a seed" --rooms "$rooms" -o keep.pdf
done
for dpi in 35 601 abc; do bad "--dpi $dpi" --seed 1 --dpi "$dpi" -o keep.png; done
bad "--extra-by nonsense" --seed 1 --extra-by nonsense -o keep.pdf
bad "an unknown format" --seed 1 --format docx -o keep.pdf
bad "an unknown extension" --seed 1 -o keep.docx
bad "no extension" --seed 1 -o keep
bad "an unknown generator" --generator nonesuch --seed 1 -o keep.pdf
bad "a 201-byte title" --seed 1 --title "$(printf 't%.0s' $(seq 201))" -o keep.pdf
SOURCE_DATE_EPOCH=soon bad "SOURCE_DATE_EPOCH=soon" --seed 1 -o keep.pdf
SOURCE_DATE_EPOCH=-5 bad "SOURCE_DATE_EPOCH=-5" --seed 1 -o keep.pdf

# too many rooms for a page, in every printed format, onto existing files
for ext in pdf svg png; do
  bad "--rooms 201 for $ext" --seed 1 --rooms 201 -o "keep.$ext"
  bad "--rooms 201 for $ext without a seed" --rooms 201 -o "keep.$ext"
done
bad "--rooms 100001 for json" --seed 1 --rooms 100001 -o keep.json

# output paths
bad "a missing directory" --seed 1 -o no/such/dir/x.pdf
bad "a missing directory, no seed" -o no/such/dir/x.pdf
bad "a missing directory for json" --seed 1 -o /nonexistent-crawlbook/x.json
bad "a directory as target" --seed 1 -o . --format pdf
mkdir -p "$WORK/adir.pdf"
bad "a directory named like a PDF" --seed 1 -o "$WORK/adir.pdf"
bad "a directory nobody may write (/proc)" --seed 1 -o /proc/crawlbook-test.pdf
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$WORK/ro" && chmod 555 "$WORK/ro"
  bad "an unwritable directory" --seed 1 -o "$WORK/ro/x.pdf"
  chmod 755 "$WORK/ro"
fi

# render: a missing file, generator options, malformed and hostile JSON
bad "render of a missing file" render "$WORK/absent.json" -o keep.pdf
bad "render of a directory" render "$WORK" -o keep.pdf
printf '{}' >"$WORK/empty.json"
bad "render with --seed" render "$WORK/empty.json" --seed 1 -o keep.pdf
bad "render with --rooms" render "$WORK/empty.json" --rooms 3 -o keep.pdf
"$CRAWLBOOK" --seed 9 --rooms 6 -o "$WORK/good.json" 2>/dev/null || die "cannot write good.json"
good=$(cat "$WORK/good.json")
hostile() { # hostile NAME TEXT: render TEXT (written to NAME.json) must be refused
  printf '%s' "$2" >"$WORK/$1.json"
  bad "render of $1" render "$WORK/$1.json" -o keep.pdf
  [ "$1" = too-many-rooms-for-a-page ] || bad "render of $1 to json" render "$WORK/$1.json" -o keep.json
}
hostile empty ''
hostile truncated "${good:0:300}"
hostile truncated-late "${good:0:$((${#good} - 5))}"
hostile not-json 'dungeon, please'
hostile array '[1, 2, 3]'
hostile wrong-format "${good/crawlbook\/3/crawlbook\/9}"
hostile unknown-generator "${good/\"dropdice\"/\"dungeonomicon\"}"
hostile seed-negative "${good/\"seed\": 9/\"seed\": -9}"
hostile seed-too-big "${good/\"seed\": 9/\"seed\": \"18446744073709551616\"}"
hostile id-a-string "${good/\{\"id\":1,/\{\"id\":\"1\",}"
hostile duplicate-room "${good/\{\"id\":2,\"level\"/\{\"id\":1,\"level\"}"
hostile passage-to-nowhere "${good/\"from\":1,\"to\":/\"from\":1,\"to\":77,\"was\":}"
hostile unknown-tag "${good/\"tags\":\[/\"tags\":\[\"gaol\"\],\"was\":\[}"
hostile unknown-flag "${good/\"flags\":\[/\"flags\":\[\"sekret\"\],\"was\":\[}"
hostile unknown-kind "${good/\"kind\":\"corridor\"/\"kind\":\"hallway\"}"
hostile lock-without-key "${good/\"flags\":\[\]/\"flags\":\[\"locked\"\],\"lock\":\"K99\"}"
hostile nul-in-text "${good/\"text\":\"/\"text\":\"\\u0000}"
hostile huge-x "${good/\"x\":/\"x\":1e999,\"was\":}"
hostile deep "$(printf '[%.0s' $(seq 5000))"
hostile too-many-rooms-for-a-page "$("$CRAWLBOOK" --seed 3 --rooms 250 -o - --format json)"
finish
