#!/usr/bin/env bash
# The README's first command without a display: scripts/run-headless (what scripts/run runs then) writes a
# results database holding every policy of the default scenario and three PNG figures, and its last line
# says where. Usage: run_headless.sh CLI_DIR SOURCE_DIR
set -euo pipefail
bin="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"

if ! "$src/scripts/run-headless" "$bin" "$out" >"$tmp/stdout" 2>"$tmp/stderr"; then
    echo "FAIL: scripts/run-headless exited with an error" >&2
    cat "$tmp/stdout" "$tmp/stderr" >&2
    exit 1
fi
fail() { echo "FAIL: $*" >&2; cat "$tmp/stdout" >&2; exit 1; }

last="$(tail -n 1 "$tmp/stdout")"
case "$last" in
"run: output written to $out "*) ;;
*) fail "the last line does not say where the output is: $last" ;;
esac
for figure in timeline.png emissions-vs-completion.png configurations.png; do
    [ -s "$out/$figure" ] || fail "$figure is missing or empty"
    # The PNG signature's second to fourth bytes.
    [ "$(head -c 4 "$out/$figure" | tail -c 3)" = "PNG" ] || fail "$figure is not a PNG"
done
[ -s "$out/results.sqlite" ] || fail "results.sqlite is missing or empty"
# Every policy of the default scenario (as `validate` names them, the script's first step) was saved.
policies="$(sed -n 's/.*; policies \(.*\)$/\1/p' "$tmp/stdout" | tr -d ',')"
[ -n "$policies" ] || fail "validate named no policies"
"$bin/carbon3d-cli" runs list --db "$out/results.sqlite" >"$tmp/runs"
for policy in $policies; do
    grep -q -- " $policy " "$tmp/runs" || fail "the database has no run of $policy"
done
echo "run_headless: database and three figures written under the output directory"
