#!/usr/bin/env bash
# `study slurm` writes scripts that run only what they mean to (issue 40, item 2): a study name, a
# --partition, an --out folder and a --cli path holding newlines, quotes, $( ), backticks and spaces
# are quoted or refused, never run. The generated scripts are run with a fake sbatch (which runs each
# job's script for shard 0) and a fake carbon3d-cli that records its arguments; nothing else may run.
# Usage: slurm_scripts_are_data_safe.sh CLI SOURCE_DIR
set -euo pipefail
cli="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"

# The name tries to leave its comment line, substitute a command and close a quote.
cat >study.json <<JSON
{
  "schema": 1,
  "name": "x\ntouch PWNED_NAME\n# \$(touch PWNED_SUBST) \`touch PWNED_TICK\` ' \" ;touch PWNED_SEMI",
  "base": "$src/sample_data/scenarios/learn-clean-hydro-sweden.json",
  "axes": {"policy": ["static-max"]}
}
JSON

# A fake carbon3d-cli in a folder whose name holds a space, a quote and a command substitution.
bindir="$tmp/bin dir 'q' \$(touch PWNED_CLI)"
mkdir -p "$bindir" "$tmp/fake"
cat >"$bindir/fake-cli" <<'SH'
#!/usr/bin/env bash
printf '%s|' "$@" >>"$CALLS"
printf '\n' >>"$CALLS"
# A shard's run leaves its database, as the real one does: the merge merges the databases that exist.
for ((i = 1; i < $#; i++)); do
    if [ "${!i}" = --db ]; then next=$((i + 1)); : >"${!next}"; fi
done
SH
chmod +x "$bindir/fake-cli"
cat >"$tmp/fake/sbatch" <<'SH'
#!/usr/bin/env bash
# Runs the job's script (the last argument) for shard 0 with 3 CPUs, as a one-node Slurm would, and answers
# a job id.
SLURM_ARRAY_TASK_ID=0 SLURM_CPUS_PER_TASK=3 bash "${@: -1}" >/dev/null
echo 4242
SH
chmod +x "$tmp/fake/sbatch"

expect_refused() {
    local what="$1"; shift
    if "$cli" study slurm study.json --shards 2 "$@" >out.txt 2>err.txt; then fail "$what was accepted"; fi
    grep -q "cannot go on an #SBATCH line" err.txt || fail "$what: $(cat err.txt)"
}
expect_refused "an --out folder with a space and \$( )" --out "$tmp/o \$(touch PWNED_OUT)" --cli "$bindir/fake-cli"
expect_refused "an --out folder with \$( )" --out "$tmp/o_\$(touch PWNED_OUT2)" --cli "$bindir/fake-cli"
expect_refused "a --partition with a newline" --out "$tmp/run" --partition $'gpu\ntouch PWNED_PART' \
    --cli "$bindir/fake-cli"
[ ! -e "$tmp/o_\$(touch PWNED_OUT2)" ] || fail "a refused --out folder was created"

if "$cli" study slurm study.json --shards 2 --out "$tmp/run" --sbatch-line $'--gres=gpu:0\ntouch PWNED_LINE' \
    --cli "$bindir/fake-cli" >out.txt 2>err.txt; then fail "an --sbatch-line with a newline was accepted"; fi
grep -q "is not one sbatch option" err.txt || fail "--sbatch-line with a newline: $(cat err.txt)"
# A scratch folder is a path on the task's command line: one quoted word, whatever it holds.
scratch="$tmp/scratch \$(touch PWNED_SCRATCH) \`touch PWNED_TICK\` 'x'"
"$cli" study slurm study.json --shards 2 --out "$tmp/run" --partition gpu --cli "$bindir/fake-cli" \
    --scratch "$scratch" >/dev/null
export CALLS="$tmp/calls"
PATH="$tmp/fake:$PATH" bash "$tmp/run/submit.sh" >submit.txt

found="$(find "$tmp" -name 'PWNED*' | head -n 1)"
[ -z "$found" ] || fail "a command from the input ran: $found"
# The merge merges the one shard that ran (the fake runs shard 0 only), and the task runs the CPUs it has.
expected="study|run|$tmp/study.json|--shard|0/2|--db|$tmp/run/shard-0.sqlite|--scratch|$scratch|--jobs|3|
runs|merge|$tmp/run/shard-0.sqlite|--into|$tmp/run/study.sqlite|--scratch|$scratch|"
[ "$(cat "$CALLS")" = "$expected" ] || fail "the jobs ran $(cat "$CALLS") instead of $expected"
grep -q "^# x\\\\ntouch PWNED_NAME" "$tmp/run/study-array.sbatch" || fail "the name is not one escaped comment"
grep -q "^#SBATCH --partition=gpu$" "$tmp/run/study-array.sbatch" || fail "the partition line is missing"
echo "slurm_scripts_are_data_safe: hostile names, folders and options quoted or refused; only the jobs ran"
