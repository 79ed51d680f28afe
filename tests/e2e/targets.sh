#!/usr/bin/env bash
# What -o does with odd targets (issue 15, items 1-4 and 15): a symbolic link
# is followed and its target replaced; a FIFO or a character device is written
# as a stream; an existing file keeps its mode; a hard-linked file is refused;
# /dev/stdout is standard output. A batch checks every name before it writes
# one; a signal removes the temporary file; closed standard descriptors do not
# let library warnings into the output; a full disk is named with its reason.
source "${CB_SOURCE_DIR:?}/tests/support/e2e.sh" || exit 1
cd "${WORK:?}" || exit 1
cb() { "$CRAWLBOOK" --generator leximorph --seed 9 --dpi 40 "$@"; }
cb -f json -o good.json || die "a plain run failed"

# a symlink: the link stays, its target gets the output
echo OLD > real.json
ln -s real.json link.json
cb -f json -o link.json || fail "writing through a symlink failed"
[ -L link.json ] || fail "the symlink was replaced"
cmp -s real.json good.json || fail "the symlink's target did not get the output"
# a dangling symlink into another directory: its target is created there
mkdir sub
ln -s sub/new.json dangling.json
cb -f json -o dangling.json || fail "writing through a dangling symlink failed"
[ -L dangling.json ] && cmp -s sub/new.json good.json || fail "a dangling symlink's target was not written"
[ -z "$(find . -name '.*.XXXXXX' -o -name '.real.json.*' -o -name '.new.json.*')" ] || fail "temporary file left"

# an existing file keeps its mode
echo OLD > private.json
chmod 0600 private.json
cb -f json -o private.json || fail "overwriting a 0600 file failed"
[ "$(stat -c %a private.json)" = 600 ] || fail "a 0600 file came back $(stat -c %a private.json)"
cmp -s private.json good.json || fail "the 0600 file did not get the output"

# a hard-linked file is refused, both names left as they were
echo OLD > hard1.json
ln hard1.json hard2.json
rc=0
cb -f json -o hard1.json 2> err || rc=$?
[ $rc -eq 2 ] || fail "a hard-linked target: exit $rc, want 2"
grep -q "hard link" err || fail "a hard-linked target: the message does not say why: $(cat err)"
[ "$(cat hard2.json)" = OLD ] && [ "$(stat -c %h hard1.json)" = 2 ] || fail "a hard-linked target was changed"

# a FIFO is written as a stream: its reader gets the whole output
mkfifo pipe
timeout 60 cat pipe > from_pipe &
reader=$!
timeout 60 "$CRAWLBOOK" --generator leximorph --seed 9 -f json -o pipe || fail "writing into a FIFO failed"
wait $reader || fail "the FIFO's reader got nothing"
[ -p pipe ] || fail "the FIFO was replaced"
cmp -s from_pipe good.json || fail "the FIFO's reader did not get the output"

# character devices are written as streams. Our own copies of /dev/null and
# /dev/full first (mknod, as root): a build that renamed over a device must
# not get to do it to the system's.
safe=yes
null=/dev/null full=/dev/full
if mknod mynull c 1 3 2> /dev/null && mknod myfull c 1 7 2> /dev/null; then
  null=$WORK/mynull full=$WORK/myfull
  cb -f json -o mynull || fail "-o (a copy of /dev/null) failed"
  [ -c mynull ] || { fail "a character device was replaced"; safe=no; }
  rc=0
  cb -f json -o myfull 2> /dev/null || rc=$?
  [ -c myfull ] || { fail "a character device was replaced"; safe=no; }
elif [ "$(id -u)" = 0 ]; then
  safe=no # root that cannot make a device: do not risk the system's
  echo "skipped: -o /dev/null (cannot mknod a private copy first)"
fi
if [ $safe = yes ]; then
  cb -f json -o /dev/null || fail "-o /dev/null failed"
  [ -c /dev/null ] || die "/dev/null is no longer a character device"
fi
# a name for our standard output: a private link to /proc first, as above
ln -s /proc/self/fd/1 mystdout
for out in "$WORK/mystdout" /dev/stdout; do
  [ $safe = yes ] || break
  cb -f json -o "$out" > via_stdout.json || fail "-o $out failed"
  cmp -s via_stdout.json good.json || fail "-o $out did not write standard output"
  cb -f json -o "$out" | cat > via_pipe.json
  cmp -s via_pipe.json good.json || fail "-o $out into a pipe did not write the output"
  [ -L "$out" ] || { fail "$out was replaced"; safe=no; }
done

# a full device: the message names the file and the reason, exit 1
for fmt in json pdf; do
  rc=0
  cb -f $fmt -o "$full" 2> err || rc=$?
  [ $rc -eq 1 ] || fail "-f $fmt -o $full: exit $rc, want 1"
  grep -q "cannot write '$full': No space left on device" err || fail "-f $fmt -o $full said: $(cat err)"
done

# a batch checks every name first: nothing is written when the third is a directory
echo OLD > d-01.json
mkdir d-03.json
rc=0
"$CRAWLBOOK" --seed 1 --count 5 -f json -o 'd-%02d.json' 2> err || rc=$?
[ $rc -eq 2 ] || fail "a batch with a directory as its third name: exit $rc, want 2"
[ "$(cat d-01.json)" = OLD ] || fail "the batch overwrote d-01 before failing"
[ ! -e d-02.json ] || fail "the batch wrote d-02 before failing"
grep -q "d-03.json" err || fail "the batch's message does not name d-03.json: $(cat err)"

# a signal removes the temporary file and the run dies of it, on one thread
# or on two (the workers leave the signals to the thread that writes)
for sig in INT TERM HUP INT/2 TERM/2 HUP/2; do
  jobs=${sig#*/}
  [ "$jobs" = "$sig" ] && jobs=1
  sig=${sig%/*}
  rm -rf sigdir && mkdir sigdir
  # (a shell starts background jobs with SIGINT ignored: restore it)
  env --default-signal=INT,TERM,HUP "$CRAWLBOOK" --jobs "$jobs" --seeds 1..400 -o sigdir/big.pdf 2> /dev/null &
  pid=$!
  for _ in $(seq 600); do
    [ -n "$(find sigdir -name '.big.pdf.*')" ] && break
    sleep 0.1
  done
  [ -n "$(find sigdir -name '.big.pdf.*')" ] || fail "SIG$sig: no temporary file appeared"
  kill -s $sig $pid
  rc=0
  wait $pid || rc=$?
  want=$((128 + $(kill -l $sig)))
  [ $rc -eq $want ] || fail "SIG$sig: exit $rc, want $want"
  [ -z "$(ls -A sigdir)" ] || fail "SIG$sig left $(ls -A sigdir)"
done

# closed standard descriptors are opened on /dev/null first: the output file
# must not become descriptor 2, where every library's warning would land
rm -rf fddir && mkdir fddir
"$CRAWLBOOK" --seeds 1..400 -o fddir/big.pdf 2>&- &
pid=$!
for _ in $(seq 600); do
  [ -n "$(find fddir -name '.big.pdf.*')" ] && break
  sleep 0.1
done
fd2=$(readlink "/proc/$pid/fd/2" || true)
kill -s TERM $pid
wait $pid || true
[ "$fd2" = /dev/null ] || fail "with standard error closed, descriptor 2 is $fd2, not /dev/null"
for fd in "2>&-" "0<&- 2>&-" "1>&- 2>&-"; do
  rm -f closed.png
  (eval "\"\$CRAWLBOOK\" --seed 1 --dpi 40 -o closed.png $fd") || fail "a run with $fd failed"
  [ "$(head -c 4 closed.png | od -An -c | tr -d ' ')" = '211PNG' ] || fail "with $fd the PNG does not start with its signature"
done
# the document asked of a closed standard output is lost: the run must say so
for fmt in pdf json png; do
  rc=0
  "$CRAWLBOOK" --seed 1 --dpi 40 -f $fmt -o - >&- 2>closed.err || rc=$?
  [ $rc -eq 1 ] || fail "-f $fmt -o - with standard output closed exits $rc, want 1"
  grep -q 'cannot write to standard output: it is closed' closed.err || fail "-f $fmt -o - closed: $(cat closed.err)"
done
"$CRAWLBOOK" --seed 1 -f pdf -o /dev/null >&- || fail "-o /dev/null with standard output closed failed"
finish
