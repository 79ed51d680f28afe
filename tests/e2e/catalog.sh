#!/usr/bin/env bash
# The seed catalogue: every tests/catalog/NAME.args (crawlbook's arguments on
# one line) must still give exactly tests/catalog/NAME.json. A difference is
# shown as a diff; tests/catalog/refresh.sh rewrites the JSON on purpose.
. "$CB_SOURCE_DIR/tests/support/e2e.sh"
catalog="$CB_SOURCE_DIR/tests/catalog"
count=0
for args_file in "$catalog"/*.args; do
  [ -e "$args_file" ] || die "the catalogue is empty"
  name=$(basename "$args_file" .args)
  want="$catalog/$name.json"
  if [ ! -f "$want" ]; then
    fail "$name: no $name.json (run tests/catalog/refresh.sh $name)"
    continue
  fi
  [ "$(grep -c . "$args_file")" = 1 ] || fail "$name.args must hold one line"
  mapfile -d '' args < <(xargs printf '%s\0' <"$args_file")
  if ! "$CRAWLBOOK" "${args[@]}" -o "$WORK/$name.json" 2>"$WORK/err"; then
    fail "$name: crawlbook ${args[*]} failed: $(cat "$WORK/err")"
    continue
  fi
  if ! diff -u "$want" "$WORK/$name.json" >"$WORK/diff"; then
    fail "$name: crawlbook ${args[*]} no longer gives $name.json (intended? tests/catalog/refresh.sh $name):"
    head -n 60 "$WORK/diff" >&2
  fi
  count=$((count + 1))
done
for json in "$catalog"/*.json; do
  [ -f "${json%.json}.args" ] || fail "$(basename "$json"): no .args beside it"
done
echo "$count catalogue entries compared"
finish
