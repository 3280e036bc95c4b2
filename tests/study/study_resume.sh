#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A study killed with SIGKILL part-way resumes where it stopped: the cells saved before the kill are
# skipped, the others run, and the result equals an uninterrupted run cell by cell (issue 16).
source "$(dirname "$0")/StudyScriptSupport.sh"
study="$source_dir/tests/data/studies/resume.json"

"$cli" study run "$study" --db "$work/whole.sqlite" --jobs 2 >/dev/null

"$cli" study run "$study" --db "$work/killed.sqlite" --jobs 1 >/dev/null 2>&1 &
pid=$!
cleanup_steps+=("kill -9 $pid 2>/dev/null")
saved=0
for _ in $(seq 1 600); do
    if [ -f "$work/killed.sqlite" ]; then
        saved=$(sqlite3 "$work/killed.sqlite" "SELECT COUNT(*) FROM study_cells" 2>/dev/null || echo 0)
        [ "$saved" -gt 0 ] && break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -9 "$pid" 2>/dev/null || fail "the study finished before it could be killed"
wait "$pid" 2>/dev/null || true
saved=$(sqlite3 "$work/killed.sqlite" "SELECT COUNT(*) FROM study_cells")
total=$(sqlite3 "$work/whole.sqlite" "SELECT COUNT(*) FROM study_cells")
[ "$saved" -gt 0 ] && [ "$saved" -lt "$total" ] || fail "expected part of $total cells saved at the kill, found $saved"

resumed=$("$cli" study run "$study" --db "$work/killed.sqlite" --json)
echo "$resumed" | grep -q "\"skipped\": $saved," || fail "the resumed run did not skip the $saved saved cells: $resumed"
echo "$resumed" | grep -q "\"ran\": $((total - saved))," || fail "the resumed run did not run the rest: $resumed"
same_cells "$work/whole.sqlite" "$work/killed.sqlite"
echo "resumed after kill -9 with $saved of $total cells saved: identical to an uninterrupted run"
