#!/bin/sh
# The soak of issue 65, item 7: the diffusion runtime under 2 busy cores for 10,000 iterations in both modes,
# and a rank killed at a random (seeded) date: nothing lost before the kill, every other rank ends within
# seconds (docs/runtime.md, "Perturbed runs and the soak").
#
#   tests/perturb/soak.sh BUILD [SEED]      (make bench; SEED 1 by default)
#
# Two busy loops (sh while loops, one per core of a 2-core machine) run for the whole soak; a trap kills
# them, and only them, whatever ends the script. Then, 4 ranks each (oversubscribed):
#  1. and 2. asynchronous, with a progress thread, then with progress() calls: hetlb-diffuse to convergence
#     over 10,000 consecutive iterations in the band on every rank (random start, ring): converged
#     everywhere, every item held once and intact (items_checked);
#  3. bulk-synchronous: hetlb-diffuse --work 10000: exactly 10,000 iterations, every item processed exactly
#     10,000 times and held once;
#  4. and 5. bulk-synchronous (progress() calls), then asynchronous (progress thread): hetlb-soak-rank
#     (soak_rank.cpp) for 10,000 calls, a rank drawn from SEED killed (SIGKILL) at a date drawn from SEED
#     (1 to 6 s after every rank started). The logs say what every rank held after each call: in the
#     bulk-synchronous run every call logged by every rank before the kill must show the items held exactly
#     once (counts and id sums), in both runs every item intact; the job (mpirun and every other rank) must
#     end within KILL_BOUND (10) s of the kill.
# SOAK_PARTS=runs or kill (environment): runs 1 to 3 only, or 4 and 5 only.
# KILL_MPIRUN_OPTIONS (environment): more mpirun options for the kill runs; with Open MPI's --enable-recovery
# the job is not aborted when a rank dies, and the runtime alone decides what the other ranks do.
# Prints one line per check; exit 1 when one fails. 2 to 5 minutes on a 2-core machine, most of it the
# bulk-synchronous run (its ranks wait for each other in MPI_Allgather every iteration: 95 s to 231 s).
set -u
usage() { echo "usage: $0 BUILD [SEED]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || usage
SEED=${2:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
D=$BUILD/bin/hetlb-diffuse
K=$BUILD/tests/hetlb-soak-rank
for f in "$D" "$K"; do [ -x "$f" ] || { echo "soak: $f: not built (ninja hetlb-diffuse hetlb-soak-rank)" >&2; exit 2; }; done
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
CHECK="$PY $HERE/soak_check.py"
MR="mpirun --allow-run-as-root --oversubscribe"
ITERATIONS=10000
KILL_BOUND=10
KILL_MPIRUN_OPTIONS=${KILL_MPIRUN_OPTIONS:-}
PARTS=${SOAK_PARTS:-all}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/hetlb-soak.XXXXXX")

BUSY="" JOB=""
cleanup() {
  for p in $BUSY; do kill "$p" 2> /dev/null; done
  [ -n "$JOB" ] && kill "$JOB" 2> /dev/null  # a kill run's mpirun still going (a failure)
  wait 2> /dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for core in 1 2; do
  sh -c 'while :; do :; done' &
  BUSY="$BUSY $!"
done
echo "soak: seed $SEED, busy loops (pids$BUSY) on the 2 cores"
FAILED=0
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

# 1. to 3.: hetlb-diffuse, 10,000 iterations in each mode. Open MPI yields the core at every MPI call that
# finds nothing to do when the node is oversubscribed (mpi_yield_when_idle), and a busy loop then keeps it for
# its whole time slice: the asynchronous run with progress() calls makes several MPI calls per iteration and
# took 390 s for its 10,000 iterations (2,000 in 144 s, against 1.2 s without the yield); it runs without the
# yield, the others with Open MPI's settings.
diffuse_run() {  # NAME CHECK ITERATIONS MPIRUN-OPTIONS -- HETLB-DIFFUSE-OPTIONS
  name=$1 check=$2 count=$3
  shift 3
  mpi=""
  while [ "$1" != -- ]; do mpi="$mpi $1"; shift; done
  shift
  from=$(now)
  if timeout 900 $MR $mpi -np 4 "$D" --topology ring --initial random --seed "$SEED" --load-per-node 50 \
      --min-lb-iter 0.002 --time-limit 600 --format json --balance load "$@" > "$WORK/$name.json" 2> "$WORK/$name.err"; then
    $CHECK "$check" "$WORK/$name.json" "$count" "$name" || FAILED=1
  else
    echo "soak: FAIL: $name: exit status $? after $(since "$from") s: $(tail -3 "$WORK/$name.err" | tr '\n' ' ')"
    FAILED=1
  fi
}
if [ "$PARTS" != kill ]; then
  diffuse_run async-thread async $ITERATIONS -- --iterations $ITERATIONS --min-comp-iter 0 --progress thread
  diffuse_run async-calls async $ITERATIONS --mca mpi_yield_when_idle 0 -- --iterations $ITERATIONS --min-comp-iter 0
  diffuse_run bsp-work work $ITERATIONS -- --work $ITERATIONS --ratio 0.001
fi

# 3. and 4.: a rank killed.
set -- $($CHECK draw "$SEED" 4)
DELAY=$1 VICTIM=$2
for mode in bsp async; do
  [ "$PARTS" = runs ] && break
  logs=$WORK/kill-$mode
  mkdir -p "$logs"
  progress=calls
  [ $mode = async ] && progress=thread
  $MR $KILL_MPIRUN_OPTIONS -np 4 "$K" --mode $mode --calls $ITERATIONS --log "$logs" --seed "$SEED" --progress $progress \
    > "$logs/out" 2> "$logs/err" &
  JOB=$!
  pids="" waited=0
  while [ -z "$pids" ] && [ $waited -lt 600 ]; do  # every rank started (60 s at most)
    sleep 0.1
    waited=$((waited + 1))
    pids=$($CHECK pids "$logs" 4)
  done
  if [ -z "$pids" ]; then
    echo "soak: FAIL: $mode kill run: the ranks did not all start within 60 s"
    FAILED=1
    continue
  fi
  sleep "$DELAY"
  victim_pid=$(echo $pids | cut -d' ' -f$((VICTIM + 1)))
  killed_at=$(now)
  kill -KILL "$victim_pid"
  # The job has ended when mpirun has exited and every rank process is gone (or a zombie: dead, not reaped).
  ended="" job_ended="" left=""
  while [ -z "$ended" ]; do
    [ -z "$job_ended" ] && ! kill -0 "$JOB" 2> /dev/null && job_ended=$(since "$killed_at")
    left=""
    for p in $pids; do
      state=$(awk '{ print $3 }' "/proc/$p/stat" 2> /dev/null)
      [ -n "$state" ] && [ "$state" != Z ] && left="$left $p"
    done
    [ -n "$job_ended" ] && [ -z "$left" ] && ended=$(since "$killed_at") && break
    [ "$(since "$killed_at" | cut -d. -f1)" -ge 60 ] && break
    sleep 0.05
  done
  [ -z "$job_ended" ] && kill "$JOB" 2> /dev/null
  wait "$JOB"
  status=$?
  JOB=""
  if [ -z "$ended" ]; then
    echo "soak: FAIL: $mode kill run: 60 s after rank $VICTIM was killed, ${job_ended:+mpirun had ended but }rank" \
      "processes$left were still running (now killed)"
    FAILED=1
  elif [ "$(echo "$ended $KILL_BOUND" | awk '{ print ($1 <= $2) }')" != 1 ]; then
    echo "soak: FAIL: $mode kill run: the job ended ${ended} s after the kill, more than $KILL_BOUND s"
    FAILED=1
  else
    echo "soak: $mode kill run: rank $VICTIM (pid $victim_pid) killed $DELAY s after every rank started; mpirun" \
      "ended ${job_ended} s later (exit status $status), every other rank by ${ended} s"
  fi
  for p in $left; do kill -KILL "$p" 2> /dev/null; done  # ranks of this job left behind (a failure)
  $CHECK killed "$logs" 4 $mode || FAILED=1
done
if [ $FAILED -ne 0 ]; then echo "soak: FAILED (seed $SEED; replay: $0 $BUILD $SEED)"; exit 1; fi
echo "soak: passed (seed $SEED)"
