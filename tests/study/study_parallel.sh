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

# A shard that never ran (issue 44): the merge fails and names the command that runs only the missing cells,
# which completes the study.
if "$cli" runs merge "$work"/shard-{0,1,2}.sqlite --into "$work/partial.sqlite" >/dev/null 2>"$work/partial.err"; then
    fail "a merge of 3 of 4 shards exited 0"
fi
grep -q "the merge is partial" "$work/partial.err" || fail "the partial merge said: $(cat "$work/partial.err")"
"$cli" study run "$study" --db "$work/partial.sqlite" --jobs 1 >/dev/null
same_cells "$work/whole.sqlite" "$work/partial.sqlite"
echo "3 of 4 shards merged: refused, then completed by the command it named"

# With --series each feasible cell's series is a run of its own, linked from the cell; the merge carries
# the runs over under the target's ids, once each.
parallel --will-cite --halt now,fail=1 "$cli" study run "$study" --series --shard {}/4 \
    --db "$work/series-{}.sqlite" --jobs 1 ::: 0 1 2 3 >/dev/null
"$cli" runs merge "$work"/series-{0,1,2,3}.sqlite --into "$work/series.sqlite" >/dev/null
"$cli" runs merge "$work"/series-{0,1,2,3}.sqlite --into "$work/series.sqlite" >/dev/null
same_cells "$work/whole.sqlite" "$work/series.sqlite"
feasible=$(sqlite3 "$work/series.sqlite" "SELECT count(*) FROM study_cells WHERE feasible = 1")
linked=$(sqlite3 "$work/series.sqlite" "SELECT count(*) FROM study_cells c WHERE EXISTS
    (SELECT 1 FROM series s WHERE s.run_id = c.run_id)")
runs=$(sqlite3 "$work/series.sqlite" "SELECT count(*) FROM runs")
[ "$feasible" -gt 0 ] && [ "$linked" = "$feasible" ] && [ "$runs" = "$feasible" ] ||
    fail "--series: $feasible feasible cells, $linked linked to a run with series, $runs runs"
echo "--series: the 4 shards' $feasible cell runs merged twice: each linked once, with its series"
