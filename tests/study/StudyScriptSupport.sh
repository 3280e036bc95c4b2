# SPDX-License-Identifier: MIT
# Shared by the study's process tests (sourced): the CLI under test, a temporary directory removed at exit,
# and a check that two databases hold the same study cells, byte for byte in the export.
set -euo pipefail
cli="$1"
source_dir="$2"
work="$(mktemp -d)"
cleanup_steps=()
on_exit() {
    local step
    for step in "${cleanup_steps[@]}"; do eval "$step" || true; done
    rm -rf "$work"
}
trap on_exit EXIT
export QT_QPA_PLATFORM=offscreen

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The study's export from database $1 (its only study) into file $2.
export_study() {
    "$cli" study export 1 --db "$1" --csv "$2" >/dev/null
}

# Same cells, same numbers: the exports of the two databases are identical.
same_cells() {
    export_study "$1" "$work/left.csv"
    export_study "$2" "$work/right.csv"
    cmp "$work/left.csv" "$work/right.csv" || fail "$1 and $2 differ: $(diff "$work/left.csv" "$work/right.csv" | head -5)"
    [ "$(wc -l < "$work/left.csv")" -gt 1 ] || fail "no cells in $1"
}
