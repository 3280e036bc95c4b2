#!/usr/bin/env bash
# carbon3d-cli reads and writes numbers the same way in every locale: under a comma-decimal locale
# (de_DE.UTF-8, compiled by this test into its own temporary directory with localedef, so the machine's
# locales are untouched) it accepts 0.05 and 600.5, refuses 0,05, and prints byte-identical JSON and
# summaries. Usage: locale_independence.sh CARBON3D_CLI SOURCE_DIR
set -euo pipefail
cli="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/locales"
if ! localedef -i de_DE -f UTF-8 "$tmp/locales/de_DE.UTF-8" 2>"$tmp/localedef.log"; then
    echo "FAIL: cannot compile the de_DE.UTF-8 locale (Debian package 'locales'):" >&2
    cat "$tmp/localedef.log" >&2
    exit 1
fi
german=(env LOCPATH="$tmp/locales" LC_ALL=de_DE.UTF-8)
# The locale must really use a decimal comma, or this test would prove nothing.
if [ "$("${german[@]}" printf '%.1f' 0.5)" != "0,5" ]; then
    echo "FAIL: the compiled de_DE.UTF-8 locale does not format 0.5 as 0,5" >&2
    exit 1
fi

scenario="$src/sample_data/scenarios/default.json"
run() { # LOCALE-PREFIX... -- ARGS...: prints stdout, then the exit code
    local prefix=()
    while [ "$1" != "--" ]; do prefix+=("$1"); shift; done
    shift
    set +e
    "${prefix[@]}" "$cli" "$@" 2>"$tmp/stderr"
    echo "exit $?"
    set -e
}

fails=0
compare() { # NAME ARGS...: the same output in the C and the German locale
    local name="$1"; shift
    run env LC_ALL=C -- "$@" >"$tmp/c.out"
    run "${german[@]}" -- "$@" >"$tmp/de.out"
    if ! cmp -s "$tmp/c.out" "$tmp/de.out"; then
        echo "FAIL: $name differs between LC_ALL=C and de_DE.UTF-8:" >&2
        diff "$tmp/c.out" "$tmp/de.out" >&2 || true
        fails=$((fails + 1))
    elif ! grep -qx "exit 0" "$tmp/c.out"; then
        echo "FAIL: $name did not succeed:" >&2
        cat "$tmp/c.out" "$tmp/stderr" >&2
        fails=$((fails + 1))
    else
        echo "ok: $name"
    fi
}

compare "simulate --json with noisy:0.05:7 and reconfiguration_s=600.5" \
    simulate "$scenario" --policy static-max --policy suspend-resume --forecast noisy:0.05:7 \
    --option reconfiguration_s=600.5 --json
compare "validate of a trace, a cluster and a scenario" \
    validate "$src/sample_data/traces/DE_2022.csv" "$src/sample_data/clusters/dgx-a100-80gb.json" "$scenario"
compare "estimate" estimate --model gpt3-175b --cluster dgx-a100-80gb --gpus 1024 --tp 8 --pp 16

# A decimal comma is refused in every locale (it is not how numbers are written in files or flags).
for prefix in "env LC_ALL=C" "${german[*]}"; do
    # shellcheck disable=SC2086
    if run $prefix -- simulate "$scenario" --policy static-max --forecast noisy:0,05:7 --json \
        | grep -qx "exit 0"; then
        echo "FAIL: noisy:0,05:7 was accepted under $prefix" >&2
        fails=$((fails + 1))
    else
        echo "ok: noisy:0,05:7 refused under $prefix"
    fi
done

if [ "$fails" -ne 0 ]; then
    echo "$fails locale check(s) failed" >&2
    exit 1
fi
