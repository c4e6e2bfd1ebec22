#!/bin/sh
# The study's cluster path on a real scheduler: a single-machine Slurm from Debian's packages (slurmctld,
# slurmd, munge for authentication), started here with its configuration, state and spool in a temporary
# directory and stopped at the end (no daemon left), runs the project's own study/slurm.sbatch, unchanged
# (only the sizes, as sbatch options), on the 48 runs of tests/slurm/campaign.json:
#   1. a job of 1 minute: its budget (time left - the spec's 52 s timeout - margin) stops it after a few
#      seconds, cleanly: exit 0, "settings left", whole rows, a summary;
#   2. a second job, cancelled (scancel) once it has added rows: whole rows, none twice, the summary of
#      job 1 left whole, no process left;
#   3. a third job completes the file: every row once, the same cells as a local `hetlb campaign` of the
#      spec (wall time aside), the same summary and ranking;
#   4. a job shorter than the per-run timeout plus the margin is refused before any run.
# Skipped (exit 77) when Slurm cannot start here: not root, a package missing, a daemon that does not come up.
# Usage: slurm_campaign_test.sh SOURCE_DIR BIN_DIR WORK_DIR   (BIN_DIR holds hetlb and hetlb-campaign;
# WORK_DIR is emptied, and kept for inspection)
set -u
src=$1 bin=$2 w=$3
d="" munged_pid="" ctld_pid="" slurmd_pid="" local_pid=""

skip() { echo "SKIP: $*"; exit 77; }
logs() {
  for f in "$w"/hetlb-study-*.log; do [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }; done
  for f in "$d"/munged.out "$d"/slurmctld.out "$d"/slurmd.out; do [ -s "$f" ] && { echo "== $f"; tail -15 "$f"; }; done
}
fail() { echo "FAIL: $*"; logs; exit 1; }

# Stops the jobs, then the daemons this test started (by their process ids), and removes their directory.
stop_pid() {
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null || return 0
  i=0
  while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  return 0
}
cleanup() {
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    scancel --quiet --user="$(id -un)" 2>/dev/null
    i=0
    while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
  fi
  stop_pid "$local_pid"
  stop_pid "$slurmd_pid"
  stop_pid "$ctld_pid"
  stop_pid "$munged_pid"
  [ -n "$d" ] && rm -rf "$d"
  return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

[ "$(id -u)" -eq 0 ] || skip "Slurm's slurmd must run as root here (it starts the jobs as their user)"
for c in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo mpirun python3; do
  command -v "$c" > /dev/null 2>&1 ||
    skip "$c not found (Debian: slurmctld slurmd slurm-client munge openmpi-bin python3; make deps installs them)"
done
[ -x "$bin/hetlb" ] && [ -x "$bin/hetlb-campaign" ] || fail "no hetlb and hetlb-campaign in $bin"
script=$src/study/slurm.sbatch spec=$src/tests/slurm/campaign.json rows="python3 $src/tests/slurm/rows.py"

# The job's directory, laid out as the project's root: build/bin, study/, docs/study/.
rm -rf "$w" && mkdir -p "$w/build/bin" "$w/study" "$w/docs/study" || fail "cannot create $w"
# hetlb-campaign runs the hetlb beside it (its /proc/self/exe): a copy of it beside a hetlb that waits half
# a second before each run, so that no machine is fast enough to finish the 48 runs within the first job's
# few seconds of budget (the rows are the same: the wait is before the simulator starts).
cp "$bin/hetlb-campaign" "$w/build/bin/hetlb-campaign" &&
  printf '#!/bin/sh\nsleep 0.5\nexec "%s" "$@"\n' "$bin/hetlb" > "$w/build/bin/hetlb" && chmod +x "$w/build/bin/hetlb" &&
  cp "$spec" "$w/study/campaign.json" || fail "cannot fill $w"
csv=$w/docs/study/campaign.csv
total=48

# The reference, in the background while Slurm starts and runs: the same spec run here, without Slurm
# (in local/, so that no process of it has the jobs' directory as its working directory).
start=$(date +%s)
mkdir "$w/local" || fail "cannot create $w/local"
(cd "$w/local" && exec "$bin/hetlb" campaign ../study/campaign.json -j 2 --results local.csv --ranks local-ranks.csv \
  > local.md 2> local.log) &
local_pid=$!

# The daemons' directory: short (munge's socket path), readable by all on the way (munged checks it).
d=$(mktemp -d /tmp/hetlb-slurm.XXXXXX) || skip "no temporary directory"
chmod 755 "$d"
mkdir "$d/state" "$d/spool"
head -c 1024 /dev/urandom > "$d/munge.key" && chmod 600 "$d/munge.key"
munged --foreground --socket="$d/munge.sock" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
  --log-file="$d/munged.log" --seed-file="$d/munged.seed" > "$d/munged.out" 2>&1 &
munged_pid=$!
i=0
while [ ! -S "$d/munge.sock" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
[ -S "$d/munge.sock" ] || skip "munged did not start: $(tail -1 "$d/munged.out")"

# Two free ports for slurmctld and slurmd (another Slurm may run on this machine).
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*[x.getsockname()[1] for x in s])') || skip "no free port"
host=$(hostname -s)
# No cgroup, no accounting database, no systemd: process tracking by parent process, no task plug-in.
# 4 CPUs declared whatever the hardware (config_overrides): a job of 3 tasks fits on 2 cores.
cat > "$d/slurm.conf" << EOF
ClusterName=hetlbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports% *}
SlurmdPort=${ports#* }
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
NodeName=hetlbnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=hetlb Nodes=hetlbnode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$d/slurm.conf"
slurmctld -D -f "$SLURM_CONF" > "$d/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -f "$SLURM_CONF" -N hetlbnode > "$d/slurmd.out" 2>&1 &
slurmd_pid=$!
i=0
while [ "$(sinfo -h -n hetlbnode -o %t 2>/dev/null)" != idle ] && [ $i -lt 100 ]; do sleep 0.3; i=$((i + 1)); done
[ "$(sinfo -h -n hetlbnode -o %t 2>/dev/null)" = idle ] ||
  { logs; skip "Slurm did not start here (the daemons' logs above)"; }
# mpirun as root (the jobs inherit the environment).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "Slurm up in $d: slurmctld $ctld_pid, slurmd $slurmd_pid, munged $munged_pid"


# submit TIME TASKS [SPEC]: the job's id. Only sbatch's size options differ from a real submission.
submit() {
  sbatch --parsable --chdir="$w" --nodes=1 --ntasks-per-node="$2" --time="$1" "$script" "${3:-study/campaign.json}" ||
    fail "sbatch refused the job"
}
# finish ID SECONDS: waits until the job has left the queue.
finish() {
  i=0
  while [ -n "$(squeue -h -j "$1" -o %T 2>/dev/null)" ]; do
    [ $i -lt $(($2 * 5)) ] || fail "job $1 still in the queue after $2 s"
    sleep 0.2
    i=$((i + 1))
  done
}
# state ID: "STATE EXITCODE", e.g. "COMPLETED 0:0".
state() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n 's/^JobState=//p; s/^ExitCode=//p' | tr '\n' ' ' | sed 's/ $//'; }
# completed WHAT ID: job ID ended COMPLETED 0:0; log is its log file.
completed() {
  [ "$(state "$2")" = "COMPLETED 0:0" ] || fail "$1 job $2: $(state "$2"), expected COMPLETED 0:0"
  log=$w/hetlb-study-$2.log
}
# No process of the jobs left: none has the job's directory as its working directory.
no_process_left() {
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/cwd" 2>/dev/null)" = "$w" ] && fail "$1: process ${p#/proc/} left: $(tr '\0' ' ' < "$p/cmdline")"
  done
  return 0
}

# 1. A job of 1 minute: the budget lets it start runs for a few seconds, then it stops, cleanly.
job=$(submit 1 2)
finish "$job" 90
completed budget "$job"
grep -q "slurm.sbatch: budget [0-9]* s: [0-9]* s left, minus the per-run timeout 52 s" "$log" ||
  fail "budget job $job: no budget line"
grep -q "piece done, [0-9]* settings left (run the same command again)" "$log" ||
  fail "budget job $job: not stopped by its budget"
first=$($rows count "$csv") || fail "budget job $job: the results file is not whole"
[ "$first" -lt $total ] || fail "budget job $job: $first rows, expected fewer than $total"
[ -s "$w/docs/study/campaign.md" ] || fail "budget job $job: no summary"
no_process_left "budget job $job"
echo "job $job (1 min, budget): $first of $total rows, $(sed -n 's/.*slurm.sbatch: \(budget [0-9]* s\).*/\1/p' "$log")"

# 2. A job cancelled once it has added two rows: it loses only its runs in progress.
cp "$w/docs/study/campaign.md" "$w/summary-1.md"
job=$(submit 2 3)
i=0
while [ $(($(wc -l < "$csv") - 1)) -lt $((first + 2)) ]; do
  [ $i -lt 300 ] || fail "job $job: no new row after 60 s"
  sleep 0.2
  i=$((i + 1))
done
scancel "$job"
finish "$job" 60
[ "$(state "$job" | cut -d' ' -f1)" = CANCELLED ] || fail "cancelled job $job: $(state "$job")"
second=$($rows count "$csv") || fail "cancelled job $job: the results file is not whole"
[ "$second" -gt "$first" ] && [ "$second" -lt $total ] ||
  fail "cancelled job $job: $second rows (job 1 left $first): expected more, and fewer than $total"
cmp -s "$w/docs/study/campaign.md" "$w/summary-1.md" || fail "cancelled job $job: the last summary was replaced"
[ -z "$(ls "$w/docs/study" | grep tmp)" ] || fail "cancelled job $job: a temporary file is left"
no_process_left "cancelled job $job"
echo "job $job (cancelled): $second of $total rows"

# 3. Resubmitted: the job completes the file, every row once, the local run's rows.
job=$(submit 2 3)
finish "$job" 110
completed resumed "$job"
grep -q "$total settings, $second done in docs/study/campaign.csv, $((total - second)) to run on 2 worker ranks" "$log" ||
  fail "resumed job $job: did not resume from the $second rows"
grep -q "settings left" "$log" && fail "resumed job $job: settings left"
[ "$($rows count "$csv")" = $total ] || fail "resumed job $job: $($rows count "$csv") rows, expected $total"
wait "$local_pid" || { cat "$w/local/local.log"; fail "the local campaign failed"; }
local_pid=""
[ "$($rows count "$w/local/local.csv")" = $total ] || fail "the local campaign wrote $($rows count "$w/local/local.csv") rows"
$rows same "$w/local/local.csv" "$csv" || fail "the rows differ from the local run's"
cmp "$w/local/local.md" "$w/docs/study/campaign.md" || fail "the summary differs from the local run's"
cmp "$w/local/local-ranks.csv" "$w/docs/study/campaign-ranks.csv" || fail "the ranking differs from the local run's"
no_process_left "resumed job $job"
echo "job $job (resumed): $total of $total rows, the local run's"

# 4. A job shorter than the spec's timeout plus the margin is refused before any run.
sed 's/"timeout_seconds": 52/"timeout_seconds": 90/; s/campaign.csv/long.csv/' "$spec" > "$w/study/long.json"
job=$(submit 1 2 study/long.json)
finish "$job" 60
[ "$(state "$job")" = "FAILED 2:0" ] || fail "short job $job: $(state "$job"), expected FAILED 2:0"
grep -q "cannot hold one run of 90 s (the per-run timeout)" "$w/hetlb-study-$job.log" || fail "short job $job: no reason"
[ ! -e "$w/docs/study/long.csv" ] || fail "short job $job: runs started"
echo "PASS in $(($(date +%s) - start)) s"
