#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/STUDIES.md "On your cluster" on a real single-node Slurm: this test starts munged, slurmctld and
# slurmd as its own processes from a temporary slurm.conf and munge key, submits the study as a 4-task job
# array with its merge job (`study slurm`, then submit.sh), waits for both, and checks the merged database
# equals the unsharded study cell by cell. The daemons are stopped by PID at exit. If they cannot start,
# the test fails with their logs: it never skips.
source "$(dirname "$0")/StudyScriptSupport.sh"
study="$source_dir/tests/data/studies/small.json"
for daemon in munged slurmctld slurmd sbatch squeue; do
    command -v "$daemon" >/dev/null || fail "$daemon is not installed (scripts/packages.txt lists slurm-wlm and munge)"
done

state="$work/slurm"
mkdir -p "$state/spool" "$state/save"
chmod 755 "$work" "$state"
show_logs() {
    local log
    for log in "$state"/*.log "$state"/*.out; do
        [ -f "$log" ] && { echo "--- $log"; tail -20 "$log"; } >&2
    done
}

# munge: a fresh key and socket of our own (as root munged needs --force to run).
dd if=/dev/urandom bs=1 count=1024 of="$state/munge.key" 2>/dev/null
chmod 600 "$state/munge.key"
munged --foreground --force --key-file="$state/munge.key" --socket="$state/munge.sock" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" --seed-file="$state/munged.seed" \
    >"$state/munged.out" 2>&1 &
munged_pid=$!
cleanup_steps+=("kill $munged_pid 2>/dev/null; wait $munged_pid 2>/dev/null")
for _ in $(seq 1 50); do [ -S "$state/munge.sock" ] && break; sleep 0.1; done
[ -S "$state/munge.sock" ] || { show_logs; fail "munged did not start"; }

# Two free ports: the kernel picks them.
read -r ctld_port slurmd_port < <(python3 -c 'import socket
ports = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); s.close()
print(*ports)')
node="$(hostname -s)"
cat >"$state/slurm.conf" <<CONF
ClusterName=carbon3dtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$state/munge.sock
CredType=cred/munge
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$state/save
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
# Below the 4 shards the tests submit, so that submit.sh splits them into two arrays as it must on a site
# whose limit is below a study's shards (sbatch refuses a task index past MaxArraySize - 1).
MaxArraySize=3
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=carbon3d Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$state/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >"$state/slurmctld.out" 2>&1 &
ctld_pid=$!
cleanup_steps+=("kill $ctld_pid 2>/dev/null; wait $ctld_pid 2>/dev/null")
slurmd -D -f "$SLURM_CONF" >"$state/slurmd.out" 2>&1 &
slurmd_pid=$!
cleanup_steps+=("kill $slurmd_pid 2>/dev/null; wait $slurmd_pid 2>/dev/null")
idle=""
for _ in $(seq 1 100); do
    idle=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$idle" = "idle" ] && break
    sleep 0.2
done
[ "$idle" = "idle" ] || { show_logs; fail "the Slurm node did not come up (state '$idle')"; }

"$cli" study slurm "$study" --shards 4 --out "$work/run" --cli "$cli" >/dev/null
submitted=$(bash "$work/run/submit.sh") || { show_logs; fail "sbatch refused the jobs"; }
for _ in $(seq 1 1500); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h)" ] || { squeue >&2; show_logs; fail "the jobs did not finish"; }
[ -f "$work/run/study.sqlite" ] || { cat "$work"/run/logs/*.log >&2; show_logs; fail "the merge job wrote nothing"; }

"$cli" study run "$study" --db "$work/whole.sqlite" >/dev/null
same_cells "$work/whole.sqlite" "$work/run/study.sqlite"
[ "$(grep -o 'array job(s) [0-9 ]*' <<<"$submitted" | wc -w)" = 4 ] ||
    fail "4 shards under a MaxArraySize of 3 were not split into two arrays: $submitted"
echo "Slurm ($submitted): 4 shards in two arrays (MaxArraySize 3) and the merge job give the unsharded study, cell for cell"

# A task cancelled with scancel while it runs (issue 44): the merge still runs (afterany), merges the shards
# that exist, fails naming the study's missing cells and the command that runs them; study status shows which
# shard is short; that command completes the study. Task 1's carbon3d-cli is held in a sleep, so that it is
# surely running when cancelled and publishes nothing.
held="$work/held-cli"
printf '#!/bin/bash\n[ "${SLURM_ARRAY_TASK_ID:-}" = 1 ] && exec sleep 600\nexec %q "$@"\n' "$cli" >"$held"
chmod +x "$held"
"$cli" study slurm "$study" --shards 4 --out "$work/failed" --cli "$held" --time 10:00 --cpus-per-task 1 \
    --sbatch-line '--comment="carbon3d test"' --sbatch-line '--nice=10' >/dev/null
for line in '#SBATCH --time=10:00' '#SBATCH --cpus-per-task=1' '#SBATCH --open-mode=append' \
    '#SBATCH --comment="carbon3d test"' '#SBATCH --nice=10'; do
    grep -qx -- "$line" "$work/failed/study-array.sbatch" || fail "the array script lacks '$line'"
    grep -qx -- "$line" "$work/failed/study-merge.sbatch" || fail "the merge script lacks '$line'"
done
submitted=$(bash "$work/failed/submit.sh") || { show_logs; fail "sbatch refused the jobs"; }
first_array=$(grep -o 'array job(s) [0-9]*' <<<"$submitted" | awk '{print $3}')
for _ in $(seq 1 300); do # running, and past its log's first line (Slurm says RUNNING a little before)
    grep -q "^== .* shard 1:" "$work/failed/logs/shard-1.log" 2>/dev/null && break
    sleep 0.2
done
[ "$(squeue -h -j "${first_array}_1" -o %T)" = RUNNING ] || { squeue >&2; show_logs; fail "task 1 never ran"; }
[ "$(scontrol show job "${first_array}_1" | grep -o 'TimeLimit=[^ ]*')" = "TimeLimit=00:10:00" ] ||
    fail "--time did not reach the job: $(scontrol show job "${first_array}_1" | grep -o 'TimeLimit=[^ ]*')"
[ "$(squeue -h -j "${first_array}_1" -o %y)" = 10 ] || fail "--sbatch-line '--nice=10' did not reach the job"
scancel "${first_array}_1"
for _ in $(seq 1 1500); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h)" ] || { squeue >&2; show_logs; fail "the merge stayed queued after a cancelled task"; }
grep -q "the merge is partial" "$work/failed/logs/merge.log" ||
    { cat "$work"/failed/logs/*.log >&2; fail "the merge did not say the study is partial"; }
grep -q "^shard 1 published no database (its task failed or was cancelled): see .*/logs/shard-1.log" \
    "$work/failed/logs/merge.log" || { cat "$work/failed/logs/merge.log" >&2; fail "the merge did not name shard 1"; }
"$cli" study status "$work/failed" >"$work/status.txt"
grep -qx "1  6  0  1  no database published" "$work/status.txt" &&
    grep -q "holds 18 of 24 cells (partial)" "$work/status.txt" ||
    fail "study status does not show the cancelled shard: $(cat "$work/status.txt")"
recovery=$(grep -o "carbon3d-cli study run .*" "$work/failed/logs/merge.log" | head -1)
eval "\"\$cli\" ${recovery#carbon3d-cli }" >/dev/null
same_cells "$work/whole.sqlite" "$work/failed/study.sqlite"
"$cli" study status "$work/failed" | grep -q "holds 24 of 24 cells (complete)" || fail "status after the recovery"
grep -q "^== .* task 0 of job " "$work/failed/logs/shard-0.log" || fail "a task's log does not say which attempt it is"
echo "Slurm with a task cancelled by scancel: the merge ran, named the missing cells, study status showed the"
echo "shard, and the merge log's command completed the study:"
sed 's/^/    /' "$work/status.txt"

# The array script runs by hand for one shard (the task's id from the environment, threads from the machine),
# and --db, which study slurm does not use, is refused.
rm -f "$work/failed/shard-2.sqlite"* # the task's own, so that the run by hand computes its cells again
SLURM_ARRAY_TASK_ID=2 bash "$work/failed/study-array.sbatch" >"$work/by-hand.log" 2>&1 ||
    { cat "$work/by-hand.log" >&2; fail "the array script failed when run by hand"; }
[ "$(sqlite3 "$work/failed/shard-2.sqlite" "SELECT count(*) FROM study_cells")" = 6 ] ||
    fail "the shard run by hand did not save its 6 cells"
if "$cli" study slurm "$study" --shards 4 --out "$work/unused" --db "$work/unused.sqlite" 2>/dev/null; then
    fail "study slurm accepted --db, which it does not use"
fi
echo "study slurm: resources on the #SBATCH lines, a shard run by hand, --db refused"
