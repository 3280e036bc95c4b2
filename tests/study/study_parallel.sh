#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GNU parallel recipe of docs/STUDIES.md: four shards as four processes, each its own database, merged;
# the merged study equals the unsharded one cell by cell, and merging again changes nothing (issue 16).
source "$(dirname "$0")/StudyScriptSupport.sh"
study="$source_dir/tests/data/studies/small.json"
command -v parallel >/dev/null || fail "GNU parallel is not installed (scripts/packages.txt lists it)"

"$cli" study run "$study" --db "$work/whole.sqlite" >/dev/null
parallel --will-cite --halt now,fail=1 "$cli" study run "$study" --shard {}/4 --db "$work/shard-{}.sqlite" --jobs 1 \
    ::: 0 1 2 3 >/dev/null
"$cli" runs merge "$work"/shard-{0,1,2,3}.sqlite --into "$work/merged.sqlite" >/dev/null
same_cells "$work/whole.sqlite" "$work/merged.sqlite"
"$cli" runs merge "$work"/shard-{0,1,2,3}.sqlite --into "$work/merged.sqlite" >/dev/null
same_cells "$work/whole.sqlite" "$work/merged.sqlite"
echo "4 shards under GNU parallel, merged twice: identical to the unsharded study"
