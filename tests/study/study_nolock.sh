#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Studies on a shared folder whose file locks do not work, as a cluster's network filesystem may be (issue
# 44; docs/STUDIES.md "On your cluster"). carbon3d-cli runs with NoLockFilesystem preloaded: every lock on a
# file under "$shared" fails with ENOLCK, as on NFS without its lock daemon. SQLite cannot write there in
# place (checked first, so that the emulation is known to bite); with --scratch the shards, the merge and
# `study status` work, the merged study equals an unsharded local run cell by cell, and a shard stopped by
# SIGTERM publishes what it saved and resumes from it.
source "$(dirname "$0")/StudyScriptSupport.sh"
shim="$3"
study="$source_dir/tests/data/studies/small.json"
shared="$work/shared"
local_disk="$work/node-local"
mkdir -p "$shared" "$local_disk"
# The sanitizers' runtime wants to be the first library loaded; the shim must come before it to interpose.
nolock_cli() {
    CARBON3D_NOLOCK_DIR="$shared" LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
        "$cli" "$@"
}

if nolock_cli study run "$study" --db "$shared/in-place.sqlite" >/dev/null 2>"$work/in-place.err"; then
    fail "SQLite wrote in the folder without locks: the emulation does not bite"
fi
grep -q "in-place.sqlite.*locks do not work" "$work/in-place.err" ||
    fail "the failure does not name the database and the likely cause: $(cat "$work/in-place.err")"
echo "in place, on a folder without locks: refused naming the file and the likely cause"

# The Slurm scripts, run by hand as a node would run them: each shard in the node's scratch ($TMPDIR).
"$cli" study slurm "$study" --shards 2 --out "$shared/run" --cli "$cli" >/dev/null
export CARBON3D_NOLOCK_DIR="$shared" LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
for shard in 0 1; do
    TMPDIR="$local_disk" SLURM_ARRAY_TASK_ID=$shard bash "$shared/run/study-array.sbatch" ||
        { cat "$shared/run/logs/shard-$shard.log" >&2; fail "shard $shard failed on the folder without locks"; }
done
TMPDIR="$local_disk" bash "$shared/run/study-merge.sbatch" >"$work/merge.log" 2>&1 ||
    { cat "$work/merge.log" >&2; fail "the merge failed on the folder without locks"; }
"$cli" study status "$shared/run" >"$work/status.txt" || fail "study status failed: $(cat "$work/status.txt")"
unset CARBON3D_NOLOCK_DIR LD_PRELOAD
grep -q "holds 24 of 24 cells (complete)" "$work/status.txt" || fail "status: $(cat "$work/status.txt")"
[ -z "$(ls -A "$local_disk")" ] || fail "scratch was not cleaned: $(ls "$local_disk")"
[ -z "$(find "$shared" -name '*-wal' -o -name '*-shm' -o -name '*-journal' -o -name '.*incoming*')" ] ||
    fail "SQLite companions left in the shared folder: $(find "$shared" -name '*-*')"
"$cli" study run "$study" --db "$work/whole.sqlite" >/dev/null
same_cells "$work/whole.sqlite" "$shared/run/study.sqlite"
echo "shards and merge through node-local scratch equal the unsharded study; status:"
cat "$work/status.txt"

# SIGTERM (scancel, a time limit) stops a shard within a decision; what it saved is published, and the next
# attempt resumes from it. A study long enough not to finish before the signal.
long="$source_dir/sample_data/studies/when-dynamic-3d-pays.json"
# Stops the run once its progress line says some cells were computed (not by a timer: a slow build may
# still be loading traces), and prints how many cells it said were saved.
stop_once_computing() {
    # env execs the CLI: the signal goes to it, not to a subshell.
    env CARBON3D_NOLOCK_DIR="$shared" LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
        CARBON3D_PROGRESS_SECONDS=0.2 \
        "$cli" study run "$long" --db "$shared/long.sqlite" --scratch "$local_disk" --jobs 1 \
        >/dev/null 2>"$work/term.err" &
    local pid=$!
    for _ in $(seq 1 600); do
        grep -q "study: [1-9][0-9]* cells computed" "$work/term.err" && break
        sleep 0.1
    done
    kill -TERM "$pid"
    local code=0
    wait "$pid" || code=$?
    [ "$code" = 143 ] || fail "a study stopped by SIGTERM exited $code: $(cat "$work/term.err")"
    grep -o "[0-9]* of [0-9]* cells are saved" "$work/term.err" | cut -d' ' -f1
}
first=$(stop_once_computing)
second=$(stop_once_computing)
[ "$first" -gt 0 ] || fail "nothing was published before SIGTERM"
[ "$second" -gt "$first" ] || fail "the second attempt did not resume from the first's $first cells ($second)"
[ "$(sqlite3 "$shared/long.sqlite" 'SELECT count(*) FROM study_cells')" = "$second" ] ||
    fail "the published database does not hold the $second cells the run reported"
echo "SIGTERM: $first cells published, the next attempt resumed and had $second when stopped again"
