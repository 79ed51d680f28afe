#!/usr/bin/env bash
# The README's second command (the line after "run the whole test suite", in
# the ```sh block that follows) is exactly what CI runs: the last line of
# .ci/run.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
readme="$CB_SOURCE_DIR/README.md" run="$CB_SOURCE_DIR/.ci/run"
[ -f "$readme" ] || die "no README.md"
[ -f "$run" ] || die "no .ci/run"
documented=$(awk '
  /run the whole test suite/ { seen = 1; next }
  seen && /^```sh$/ { inblock = 1; next }
  inblock { print; exit }
' "$readme")
ci=$(grep -v '^[[:space:]]*$' "$run" | tail -n 1)
[ -n "$documented" ] || die "README.md: no \`\`\`sh block after \"run the whole test suite\""
[ "$(grep -c '^```sh$' "$readme")" -ge 2 ] || fail "README.md has fewer than two sh blocks"
second=$(awk '/^```sh$/ { n++; if (n == 2) { getline; print; exit } }' "$readme")
[ "$documented" = "$second" ] || fail "the command after \"run the whole test suite\" is not the second sh block's"
if [ "$documented" != "$ci" ]; then
  fail "README and .ci/run disagree:
  README: $documented
  CI:     $ci"
fi
finish
