#!/bin/sh
# The reliability attack of issues 65 and 66, rerun: the cases that reach the command line (hetlb),
# the MPI programs (hetlb-diffuse, hetlb-campaign, hetlb-ring-iterations) and the Python package, each
# one line of the table below with its expected outcome and its time limit (a hang fails).
#
#   tests/attack/attack.sh BUILD_DIR [--quick]
#
# --quick runs a sample of fast cases (17, about 10 s: the ctest test attack_quick). Prints one line per
# case (PASS, FAIL or SKIP and its name) and a summary; exits 1 when a case fails. Cases of a part that is
# not built (the Python module, hetlb-diffuse, the test plug-ins) are skipped with a SKIP line. The full
# run takes about 2 minutes (docs/limits.md, "The attack, rerun").
#
# A case: c NAME 'NEEDS' TIMEOUT EXPECT 'PATTERN' 'SETUP' 'COMMAND'
#   NEEDS    words: "quick" (in the sample), "mpi" (mpirun), "py" (the Python module), "pympi" (its MPI
#            part and mpi4py), or a path under BUILD_DIR that must exist (bin/hetlb-diffuse, ...).
#   TIMEOUT  seconds before the case is killed and failed.
#   EXPECT   err:  a non-zero exit status (not a signal, not the timeout), exactly one line on stderr
#                  (mpirun's own report of a failed job aside) matching PATTERN, and the case's folder as
#                  SETUP left it (no output left behind, no file changed);
#            fail: a non-zero exit status (not a signal, not the timeout) and stderr matching PATTERN;
#            ok:   exit status 0 and stdout matching PATTERN.
#   PATTERN  an extended regular expression; stdout and stderr are matched with their lines joined by
#            " | ".
#   SETUP    shell commands run first in the case's empty folder ("-": none).
#   COMMAND  the shell command of the case, run in that folder. Both see $H (hetlb), $D (hetlb-diffuse),
#            $HC (hetlb-campaign), $HRI (hetlb-ring-iterations), $MR (mpirun with its options), $PY
#            (Python), $CASES (cases.py beside this script), $P (the test plug-ins), $EX (the examples),
#            $RING (an 8-processor ring of ring-iterations), $F (the shared fixtures, read-only), $BT (the
#            build's test programs) and the functions of HELPERS below.
set -u

usage() { echo "usage: $0 BUILD_DIR [--quick]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || usage
QUICK=0
if [ $# -eq 2 ]; then [ "$2" = --quick ] && QUICK=1 || usage; fi
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
[ -x "$BUILD/bin/hetlb" ] || { echo "attack: $BUILD/bin/hetlb: not built" >&2; exit 2; }
command -v timeout > /dev/null || { echo "attack: timeout (coreutils) is needed" >&2; exit 2; }

H=$BUILD/bin/hetlb
D=$BUILD/bin/hetlb-diffuse
HC=$BUILD/bin/hetlb-campaign
HRI=$BUILD/bin/hetlb-ring-iterations
MR="mpirun --allow-run-as-root --oversubscribe"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
CASES=$HERE/cases.py
P=$BUILD/plugins
EX=$SRC/examples
RING=$EX/ring-iterations/heterogeneous-8.json
BT=$BUILD/tests
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/hetlb-attack.XXXXXX")
F=$ROOT/fixtures
export BUILD BT H D HC HRI MR PY CASES P EX RING F
export PYTHONPATH="$BUILD/python${PYTHONPATH:+:$PYTHONPATH}" HETLB_SOURCE_DIR="$SRC" PYTHONDONTWRITEBYTECODE=1
trap 'rm -rf "$ROOT"' EXIT
trap 'exit 130' INT TERM

# Shared fixtures: small inputs the cases read (never write).
mkdir -p "$F"
mkfifo "$F/fifo"
printf '9223372036854775807 0 0 0 0 0 0 0\n' > "$F/drift-huge.txt"
printf '1152921504606846976 1152921504606846976 0 0 0 0 0 0\n' > "$F/drift-sum.txt"
printf '1 0 0 0\n' > "$F/one-item-4.loads"
printf '2 1 0 0\n' > "$F/three-items-4.loads"
cp "$EX/grid1999.json" "$F/g.json"
# Functions the cases' setups and commands may call: `spec VERSION STRATEGY` prints a campaign spec of
# one setting (4 nodes, 20 iterations); `tamper COLUMN VALUE` writes the fixture campaign's spec and its
# results with the row's cell of COLUMN set to VALUE.
HELPERS='spec() { printf '\''{"spec_version": "%s", "strategies": ["%s"], "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["single"], "ratios": [1], "iterations": 20}\n'\'' "$1" "$2"; }
tamper() { cp "$F/spec.json" . && awk -F, -v OFS=, -v c="$1" -v v="$2" '\''NR == 1 { for (i = 1; i <= NF; ++i) if ($i == c) k = i } NR > 1 { $k = v } { print }'\'' "$F/results.csv" > results.csv; }
'
eval "$HELPERS"
spec a1 makhoul > "$F/spec.json"
(cd "$F" && "$H" campaign spec.json --results results.csv > /dev/null 2>&1) || {
  echo "attack: the fixture campaign failed: $H campaign" >&2; exit 2; }

PASSED=0 FAILED=0 SKIPPED=0
START=$(date +%s.%N)
# Stdout or stderr, lines joined by " | ", mpirun's own report of a failed job left out (err cases).
joined() { sed -e :a -e '$!N;s/\n/ | /;ta' "$1"; }
own_lines() {
  grep -v -E '^-+$|^Primary job +terminated normally|^a non-zero exit code\. Per user-direction|^mpirun (detected|noticed|has exited)|^the job to be terminated|^ +Process name:|^ +Exit code:|^ +Local host:|^ +PID:|^ +Node:|^ +Signal:|^ *$|^MPI_ABORT was invoked|^NOTE: invoking MPI_ABORT|^You may or may not see output|^exactly when Open MPI kills them|^with errorcode|^process rank [0-9]+ with PID|^exited on signal' "$1"
}
# The folder's files and their contents (FIFOs listed, not read).
snapshot() { (cd "$1" && find . | LC_ALL=C sort && find . -type f -exec cksum {} + | LC_ALL=C sort); }
needs() {  # needs WORDS: empty when met, else why not
  for w in $1; do
    case $w in
      quick) ;;
      mpi) command -v mpirun > /dev/null || { echo "mpirun not found"; return; } ;;
      py) ls "$BUILD"/python/hetlb/_hetlb.*so > /dev/null 2>&1 || { echo "the Python module is not built"; return; } ;;
      pympi) { ls "$BUILD"/python/hetlb/_hetlb_mpi.*so > /dev/null 2>&1 && command -v mpirun > /dev/null &&
                "$PY" -c 'import mpi4py' 2> /dev/null; } || { echo "hetlb.mpi or mpi4py is not built"; return; } ;;
      */*) [ -e "$BUILD/$w" ] || { echo "$w is not built"; return; } ;;
    esac
  done
}
fail() {
  FAILED=$((FAILED + 1))
  echo "FAIL $NAME: $1 ($SECONDS_TAKEN s)"
  sed -n '1,6s/^/    stderr: /p' "$ROOT/err"
  sed -n '1,4s/^/    stdout: /p' "$ROOT/out"
}
c() {
  NAME=$1 NEEDS=$2 LIMIT=$3 EXPECT=$4 PATTERN=$5 SETUP=$6 COMMAND=$7
  case " $NEEDS " in *" quick "*) ;; *) [ $QUICK = 1 ] && return ;; esac
  why=$(needs "$NEEDS")
  if [ -n "$why" ]; then SKIPPED=$((SKIPPED + 1)); echo "SKIP $NAME: $why"; return; fi
  W=$ROOT/work/$NAME
  mkdir -p "$W"
  : > "$ROOT/out"; : > "$ROOT/err"
  SECONDS_TAKEN=0
  if [ "$SETUP" != - ] && ! (cd "$W" && sh -c "$HELPERS$SETUP") > "$ROOT/err" 2>&1; then fail "its setup failed"; return; fi
  snapshot "$W" > "$ROOT/before"
  t0=$(date +%s.%N)
  (cd "$W" && exec timeout -k 5 "$LIMIT" sh -c "$HELPERS$COMMAND") > "$ROOT/out" 2> "$ROOT/err" < /dev/null
  status=$?
  SECONDS_TAKEN=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ $status = 124 ] || [ $status = 137 ]; then fail "no end within ${LIMIT} s (a hang)"; return; fi
  case $EXPECT in
    ok)
      [ $status = 0 ] || { fail "exit status $status; expected 0"; return; }
      joined "$ROOT/out" | grep -q -E -- "$PATTERN" || { fail "stdout does not match '$PATTERN'"; return; } ;;
    err|fail)
      [ $status != 0 ] || { fail "exit status 0; expected a refusal"; return; }
      [ $status -lt 128 ] || { fail "killed by signal $((status - 128)); expected a refusal"; return; }
      if [ "$EXPECT" = err ]; then
        own_lines "$ROOT/err" > "$ROOT/own"
        lines=$(grep -c '' "$ROOT/own")
        [ "$lines" -eq 1 ] || { fail "$lines lines on stderr; expected one"; return; }
        grep -q -E -- "$PATTERN" "$ROOT/own" || { fail "stderr does not match '$PATTERN'"; return; }
        snapshot "$W" > "$ROOT/after"
        cmp -s "$ROOT/before" "$ROOT/after" || {
          fail "files left behind or changed: $(diff "$ROOT/before" "$ROOT/after" | grep '^[<>]' | head -3 | tr '\n' ' ')"
          return; }
      else
        joined "$ROOT/err" | grep -q -E -- "$PATTERN" || { fail "stderr does not match '$PATTERN'"; return; }
      fi ;;
    *) fail "unknown expectation $EXPECT"; return ;;
  esac
  PASSED=$((PASSED + 1))
  echo "PASS $NAME ($SECONDS_TAKEN s)"
  rm -rf "$W"
}

# The setup of a copy of the fixture campaign (its spec and results) in the case's folder.
RESULTS='cp "$F/spec.json" "$F/results.csv" .'

# ---- Issue 66 ------------------------------------------------------------------------------------------
# 1. A numpy object array scattered: refused on every rank (it crashed the receivers).
c py-mpi-scatter-objects 'quick pympi' 60 ok '^every rank: ValueError rank 0: sendbuf: dtype object holds Python objects' - \
  '$MR -np 2 $PY $CASES scatter-objects'
# 2. An output that names an input (the results, the spec) is refused; the files stay as they were.
c campaign-ranks-over-results 'quick' 30 err '^hetlb: error: --ranks "results.csv": is an input of this command' "$RESULTS" \
  '$H campaign spec.json --results results.csv --ranks results.csv'
c campaign-report-ranks-over-results '' 30 err '^hetlb: error: --ranks "results.csv": is an input of this command' "$RESULTS" \
  '$H campaign spec.json --results results.csv --report --ranks results.csv'
c campaign-ranks-over-spec '' 30 err '^hetlb: error: --ranks "spec.json": is an input of this command' "$RESULTS" \
  '$H campaign spec.json --results results.csv --ranks spec.json'
c simgrid-platform-output-over-input '' 30 err '^hetlb: error: --output "g.json": is an input of this command' \
  'cp "$F/g.json" .' '$H simgrid-platform g.json -o g.json'
# 3. A failed command leaves an existing output as it was.
c simgrid-platform-hostfile-is-output 'quick' 30 err '^hetlb: error: --hostfile "X": is also the output of --output "X"' \
  'cp "$F/g.json" . && echo precious > X' '$H simgrid-platform g.json -o X --hostfile X'
c simgrid-platform-hostfile-unwritable '' 30 err '^hetlb: error: .*/proc/x.hosts' \
  'cp "$F/g.json" . && echo precious > a.xml' '$H simgrid-platform g.json -o a.xml --hostfile /proc/x.hosts'
# 4. Links planted at the temporary names an output once used (.NAME.PID.tmp, RESULTS.upgrade.tmp) are
#    never written through.
c simgrid-platform-planted-links '' 30 ok '^written regular$' \
  'echo precious > victim && p=$$; for i in $(seq 0 400); do ln -s victim .out.xml.$((p + i)).tmp; done' \
  '$H simgrid-platform "$F/g.json" -o out.xml && [ "$(cat victim)" = precious ] && [ -f out.xml ] && [ ! -L out.xml ] && echo written regular'
c campaign-upgrade-planted-link '' 60 ok '^kept regular 3$' \
  "$RESULTS"' && echo precious > victim && ln -s victim results.csv.upgrade.tmp && sed "s/\"iterations\": 20/\"iterations\": 20, \"imbalance_integral\": true, \"ratios\": [1, 0.1]/; s/\"ratios\": \[1\], //" spec.json > spec2.json' \
  '$H campaign spec2.json --results results.csv > /dev/null 2>&1 && [ "$(cat victim)" = precious ] && [ ! -L results.csv ] && head -1 results.csv | grep -q load_imbalance_integral && echo kept regular $(wc -l < results.csv)'
# 5. A report runs nothing: the plug-in's constructor does not run.
c campaign-report-loads-no-plugin 'plugins/libhetlb_strategy_marker.so' 60 ok '^report \| .*configurations complete.*not loaded$' \
  'spec a2 "plugin:$P/libhetlb_strategy_marker.so" > s.json' \
  'HETLB_PLUGIN_MARKER=$PWD/loaded $H campaign s.json --results r.csv > /dev/null 2>&1 && rm loaded && echo report && HETLB_PLUGIN_MARKER=$PWD/loaded $H campaign s.json --results r.csv --report && [ ! -e loaded ] && echo not loaded'
# 6. /dev/zero (and named pipes, issue 65) as inputs: refused at once, no memory eaten.
c ring-iterations-dev-zero 'quick' 20 err '^hetlb: error: .*/dev/zero.*is not a regular file' - \
  'ulimit -v 2000000; $H simulate ring-iterations /dev/zero --policy never --iterations 3 --drift window --ratio 1'
c ring-iterations-drift-dev-zero '' 20 err '^hetlb: error: .*/dev/zero.*is not a regular file' - \
  'ulimit -v 2000000; $H simulate ring-iterations "$RING" --policy never --iterations 3 --drift /dev/zero --ratio 1'
c ring-iterations-fifo 'quick' 20 err '^hetlb: error: .*fifo.*is not a regular file' - \
  '$H simulate ring-iterations "$F/fifo" --policy never --iterations 3 --drift window --ratio 1'
c ring-iterations-drift-fifo '' 20 err '^hetlb: error: .*fifo.*is not a regular file' - \
  '$H simulate ring-iterations "$RING" --policy never --iterations 3 --drift "$F/fifo" --ratio 1'
c diffuse-speeds-dev-zero 'mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: .*--speeds /dev/zero: is not a regular file' - \
  '$MR -np 2 $D --speeds /dev/zero'
c diffuse-speeds-fifo 'mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: .*fifo: is not a regular file' - \
  '$MR -np 2 $D --speeds "$F/fifo"'
c py-balancer-speeds-dev-zero 'pympi' 60 ok '^every rank: ValueError .*/dev/zero: is not a regular file' - \
  '$MR -np 2 $PY $CASES balancer-speeds-dev-zero'
c py-balancer-speeds-fifo 'pympi' 60 ok '^every rank: ValueError .*fifo: is not a regular file' - \
  'ATTACK_FIFO="$F/fifo" $MR -x ATTACK_FIFO -np 2 $PY $CASES balancer-speeds-fifo'
c py-read-results-dev-zero 'quick py' 30 ok '^ValueError .*/dev/zero.*not a regular file' - '$PY $CASES read-results /dev/zero'
c py-read-results-fifo 'py' 30 ok '^ValueError .*fifo.*not a regular file' - '$PY $CASES read-results "$F/fifo"'
# 7. The asynchronous Balancer ended by stop() after a fixed number of iterations, records on rank 0.
c py-balancer-stop-after-iterations 'pympi' 60 ok '^every rank: ok 400$' - '$MR -np 4 $PY $CASES balancer-stop-after-5'
c py-balancer-stop-no-end-on-convergence 'pympi' 60 ok '^every rank: ok 400$' - \
  '$MR -np 4 $PY $CASES balancer-stop-after-5-no-end'
# 8. An exception on one rank after the option agreement ends the job with its line.
c diffuse-bad-alloc-on-one-rank 'mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: rank 0: std::bad_alloc; ending the job' - \
  'ulimit -v 400000 && $MR -np 4 $D --item-bytes 10000000 --load-per-node 20'
# 9. Python MPI calls with an error raised on one rank only: the same ValueError on every rank.
c py-mpi-list-at-root 'pympi' 60 ok '^every rank: ValueError rank 0: sendbuf: list: expected a numpy array' - \
  '$MR -np 2 $PY $CASES list-at-root'
c py-mpi-memory-error-on-one-rank 'pympi' 60 ok '^every rank: ValueError rank 1: MemoryError: no memory for the block' - \
  '$MR -np 2 $PY $CASES memory-error-on-one-rank'
c py-mpi-calibrate-sizes-differ 'pympi' 60 ok '^every rank: ValueError calibrate: sizes' - \
  '$MR -np 2 $PY $CASES calibrate-sizes-differ'
c py-mpi-calibrate-repeats-differ 'pympi' 60 ok '^every rank: ValueError calibrate: repeats = 2 on rank 1' - \
  '$MR -np 2 $PY $CASES calibrate-repeats-differ'
c py-mpi-calibrate-interrupt 'pympi' 60 ok '^rank 0: ValueError rank 1: fn raised KeyboardInterrupt \| rank 1: KeyboardInterrupt' - \
  '$MR -np 2 $PY $CASES calibrate-interrupt'
c py-mpi-intercommunicator 'pympi' 60 ok '^every rank: ValueError comm: an intercommunicator: expected an intracommunicator' - \
  '$MR -np 2 $PY $CASES intercommunicator'
c py-mpi-plan-freed-on-one-rank 'pympi' 60 ok '^every rank: ValueError rank 1: the plan was freed' - \
  '$MR -np 2 $PY $CASES plan-freed-on-one-rank'
# 10. Fewer items than ranks, or none: the run ends.
c diffuse-one-item-four-ranks 'mpi bin/hetlb-diffuse' 60 ok '"converged": true' - \
  '$MR -np 4 $D --initial "$F/one-item-4.loads" --time-limit 0 --iterations 8 --min-lb-iter 0.002 --format json'
c diffuse-three-items-four-ranks 'mpi bin/hetlb-diffuse' 60 ok '"converged": true' - \
  '$MR -np 4 $D --initial "$F/three-items-4.loads" --time-limit 0 --iterations 8 --min-lb-iter 0.002 --progress thread --format json'
c py-balancer-no-records 'pympi' 60 ok '^every rank: ok ended$' - '$MR -np 2 $PY $CASES balancer-no-records'
# 11. Values that would defeat the time limit are refused; a plug-in that never returns does not outlive it.
c diffuse-min-lb-iter-huge 'quick mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: .*--min-lb-iter 1e\+300: expected a non-negative number of seconds, at most 60' - \
  '$MR -np 2 $D --time-limit 10 --min-lb-iter 1e300'
c diffuse-slowdown-factor-huge 'mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: .*--slowdown 1:1e308:0:1: factor 1e308: expected a finite factor > 0, at most 1e\+06' - \
  '$MR -np 4 $D --slowdown 1:1e308:0:1'
c py-balancer-period-huge 'pympi' 60 ok '^every rank: ValueError .*min_balancing_period' - '$MR -np 2 $PY $CASES balancer-period-huge'
c py-balancer-sync-interval-huge 'pympi' 60 ok '^every rank: ValueError .*sync_interval' - \
  '$MR -np 2 $PY $CASES balancer-sync-interval-huge'
c diffuse-plugin-never-returns 'mpi bin/hetlb-diffuse plugins/libhetlb_strategy_faulty_8.so' 40 fail \
  'hetlb-diffuse: rank [0-9]: still running 5 s after the --time-limit of 1 s' - \
  '$MR -np 4 $D --strategy plugin:$P/libhetlb_strategy_faulty_8.so --time-limit 1 --load-per-node 10'
c diffuse-time-limit-before-period 'mpi bin/hetlb-diffuse' 20 ok '"converged"' - \
  '$MR -np 4 $D --load-per-node 40 --iterations 1000000 --min-lb-iter 50 --time-limit 1 --format json'
# 12. Drift traces are range-checked.
c ring-iterations-drift-load-huge 'quick' 20 err '^hetlb: error: .*at most 2305843009213693951' - \
  '$H simulate ring-iterations "$RING" --policy never --iterations 1 --drift "$F/drift-huge.txt" --ratio 1'
c ring-iterations-drift-sum-overflow '' 20 err '^hetlb: error: .*loads sum past 2305843009213693951' - \
  '$H simulate ring-iterations "$RING" --policy every:1 --iterations 1 --drift "$F/drift-sum.txt" --ratio 1'
# 13. Memory does not grow with the iterations, and a long run shows its progress; the MPI program takes
#     the command line's bound.
c ring-iterations-1e9-progress '' 30 ok 'ring iterations: [0-9]+ of 1000000000 .*still running in 1 GB$' - \
  'ulimit -v 1000000; timeout 4 $H simulate ring-iterations "$RING" --policy every:1 --iterations 1000000000 --drift window --ratio 0.1 > /dev/null 2> e.txt; st=$?; tail -c 200 e.txt; rm e.txt; [ $st = 124 ] && echo still running in 1 GB'
c ring-iterations-mpi-iterations-huge 'mpi bin/hetlb-ring-iterations' 30 err '^hetlb-ring-iterations: --iterations 1e15: an integer from 1 to 1000000000 expected' - \
  'ulimit -v 2000000; $MR -np 2 $HRI --policy every:1 --iterations 1e15 --drift window --ratio 1'
# 14. Linear JSON reading and limits checked before the work.
c scatter-platform-million-processors '' 120 ok '^name,items,comm_start,comm_end,finish,idle \| 1000001$' \
  '$PY -c "import json; json.dump({\"items\": 10000000, \"processors\": [{\"name\": \"p%d\" % i, \"compute\": {\"per_item\": 1e-3 * (1 + i % 7)}, \"comm\": {\"per_item\": 1e-5 * (1 + i % 5)}} for i in range(1000000)]}, open(\"big.json\", \"w\"))"' \
  '$H scatter big.json --format csv > plan.csv && head -1 plan.csv && wc -l < plan.csv'
c ring-schedule-200000-transfers '' 30 ok '^s.json: valid schedule for r.json \(199999 transfers, time 199999\)$' \
  "\$PY -c 'import json; n = 200000; json.dump({\"loads\": [2] + [1] * (n - 1), \"targets\": [1] * (n - 1) + [2], \"succ_cost\": 1}, open(\"r.json\", \"w\")); json.dump({\"time\": n - 1, \"transfers\": [{\"from\": i, \"to\": i + 1, \"items\": 1, \"start\": i, \"end\": i + 1} for i in range(n - 1)]}, open(\"s.json\", \"w\"))'" \
  '$H ring r.json --schedule s.json'
c py-platform-million-and-one 'py' 30 ok '^ValueError platform: compute has 1000001 values: expected at most 1000000 processors' - \
  '$PY $CASES too-many-processors'
c campaign-spec-settings-product 'quick' 20 err '^hetlb: error: .*more than 100000 settings' \
  '$PY -c "import json; json.dump({\"spec_version\": 1, \"ratios\": list(range(1, 65537)), \"load_per_node\": list(range(1, 65537))}, open(\"s.json\", \"w\"))"' \
  '$H campaign s.json --results r.csv --yes'
# 15. Python: different plans, structured dtypes, a gather into another dtype.
c py-mpi-plans-differ 'pympi' 60 ok "^every rank: ValueError plan: rank\\(s\\) \\[1\\] passed another plan than rank 0's" - \
  '$MR -np 2 $PY $CASES plans-differ'
c py-mpi-structured-dtype 'pympi' 60 ok '^every rank: ok True$' - '$MR -np 2 $PY $CASES structured-dtype'
c py-mpi-gather-reinterpreted 'pympi' 60 ok '^every rank: ValueError rank 0: recvbuf: dtype int64 and item shape \(\) at the root: expected float64' - \
  '$MR -np 2 $PY $CASES gather-reinterpreted'
# 16. Python: a negative node count, a NUL byte in a path, hetlb.study after import hetlb.
c py-simulate-nodes-negative 'quick py' 30 ok '^ValueError nodes = -5: expected a whole number from 1 to 1048576' - \
  '$PY $CASES nodes-negative'
c py-nul-byte-in-path 'py' 30 ok '^ValueError .*grid1999.json\\0/etc/shadow: a file name with a NUL byte' - '$PY $CASES nul-in-path'
c py-study-after-import 'py' 30 ok '^ok True$' - '$PY $CASES study-after-import'
# 17. A ratio past the model's range is refused (it printed null totals with exit 0).
c ring-iterations-ratio-huge 'quick' 20 err '^hetlb: error: .*expected a number from 1e-09 to 1e\+09' - \
  '$H simulate ring-iterations "$RING" --policy never --iterations 3 --drift window --ratio 1e308'
# 18. Campaign results: DOS line ends read as written; cells changed by hand, a huge spec_version and a
#     plug-in replaced while the campaign runs are refused.
c campaign-results-crlf '' 60 ok '1 of 1 configurations complete' \
  "$RESULTS"' && sed "s/\$/\r/" "$F/results.csv" > results.csv' '$H campaign spec.json --results results.csv'
c campaign-results-converged-yes 'quick' 30 err '^hetlb: error: .*column "converged": .yes.; expected 0, 1 or empty' \
  'tamper converged yes' '$H campaign spec.json --results results.csv'
c campaign-results-converged-nodes-negative '' 30 err '^hetlb: error: .*column "converged_nodes": .-4.; expected a whole number' \
  'tamper converged_nodes -4' '$H campaign spec.json --results results.csv'
c campaign-results-status-ok-nul '' 30 err '^hetlb: error: .*column "status": .OK\\x00.; expected a cell without control characters' \
  'tamper status OK@ && tr @ "\\000" < results.csv > nul.csv && mv nul.csv results.csv' '$H campaign spec.json --results results.csv'
c campaign-spec-version-huge '' 30 err '^hetlb: error: .*expected a non-empty string of at most 200 characters' \
  '$PY -c "import json; json.dump({\"spec_version\": \"v\" * 1000000, \"nodes\": [4]}, open(\"s.json\", \"w\"))"' \
  '$H campaign s.json --results r.csv'
c campaign-plugin-replaced-while-running 'quick bin/hetlb-campaign plugins/libfirst_order.so' 60 fail \
  'hetlb-campaign: error: strategy plug-in [^|]*/lib.so: replaced while the campaign ran[^|]*$' \
  'cp "$P/libfirst_order.so" lib.so && spec a3 "plugin:$PWD/lib.so" | sed "s/\"ratios\": \[1\]/\"ratios\": [1, 0.5, 0.25]/" > s.json && printf "#!/bin/sh\n\"%s\" \"\$@\"; st=\$?\n[ \"\$1\" = --version ] || printf rebuilt >> \"%s\"\nexit \$st\n" "$H" "$PWD/lib.so" > sim.sh && chmod +x sim.sh' \
  '$HC s.json --results r.csv --hetlb ./sim.sh > /dev/null; st=$?; [ "$(grep -c ",ok," r.csv)" = 1 ] || echo "expected the one row of the library the campaign started with" >&2; exit $st'
# 19. Plug-ins: exit(0) inside decide(), a label of two lines; campaign specs and plug-in paths.
c plugin-exit-in-decide 'quick plugins/libhetlb_strategy_faulty_9.so' 30 err '^hetlb: error: strategy plug-in .*faulty_9.so: node [0-9]+: decide\(\) called exit\(\)' - \
  '$H simulate diffusion --nodes 16 --topology torus --strategy plugin:$P/libhetlb_strategy_faulty_9.so'
c plugin-label-two-lines 'plugins/libhetlb_strategy_faulty_10.so' 30 err '^hetlb: error: .*faulty_10.so: label .faulty.nstrategy.; expected a line of at most 200' - \
  '$H strategies --plugin $P/libhetlb_strategy_faulty_10.so'
c campaign-plugin-path-with-space 'plugins/libfirst_order.so' 60 ok '1 of 1 configurations complete' \
  'cp "$P/libfirst_order.so" "my lib.so" && spec a4 "plugin:./my lib.so" > s.json' '$H campaign s.json --results r.csv'
c campaign-plugin-path-with-comma '' 30 err '^hetlb: error: .*a strategy without commas, quotes or line breaks' \
  'spec a5 "plugin:./a,b.so" > s.json' '$H campaign s.json --results r.csv'
# 20. Messages that name the real reason.
c diffuse-load-fraction 'mpi bin/hetlb-diffuse' 60 err '^hetlb-diffuse: .*load per node 0.25: expected a whole number \(the load counts whole units' - \
  '$MR -np 2 $D --load-per-node 0.25'
c diffuse-speeds-subnormal 'mpi bin/hetlb-diffuse' 60 err "^hetlb-diffuse: .*--speeds 1e-308,1: 1e-308 is out of a double's range" - \
  '$MR -np 2 $D --speeds 1e-308,1'
c plugin-dev-null 'quick' 30 err '^hetlb: error: strategy plug-in /dev/null: is not a regular file' - \
  '$H simulate diffusion --nodes 4 --strategy plugin:/dev/null'
c ring-iterations-ratio-subnormal '' 20 err "^hetlb: error: .*out of a double's range" - \
  '$H simulate ring-iterations "$RING" --policy never --iterations 3 --drift window --ratio 1e-308'

# ---- Issue 65 ------------------------------------------------------------------------------------------
# Plug-ins that crash, abort or loop are named, with the node, in one line (not a bare signal or a hang).
c plugin-crash 'quick plugins/libhetlb_strategy_faulty_11.so' 30 err '^hetlb: error: .*faulty_11.so: node [0-9]+: decide\(\) crashed \(SIGSEGV' - \
  '$H simulate diffusion --nodes 16 --topology torus --strategy plugin:$P/libhetlb_strategy_faulty_11.so'
c plugin-abort 'plugins/libhetlb_strategy_faulty_12.so' 30 err '^hetlb: error: .*faulty_12.so: node [0-9]+: decide\(\) aborted \(SIGABRT\)' - \
  '$H simulate diffusion --nodes 16 --topology torus --strategy plugin:$P/libhetlb_strategy_faulty_12.so'
c plugin-never-returns 'plugins/libhetlb_strategy_faulty_8.so' 30 err '^hetlb: error: .*faulty_8.so: node [0-9]+: decide\(\) has not returned within 2 s' - \
  'HETLB_PLUGIN_DECIDE_TIMEOUT=2 $H simulate diffusion --nodes 16 --topology torus --strategy plugin:$P/libhetlb_strategy_faulty_8.so'
c plugin-more-than-held 'plugins/libhetlb_strategy_faulty_4.so' 30 err '^hetlb: error: .*faulty_4.so: node 0 at date 0: transfers sum to 32000, more than the load 16000' - \
  '$H simulate diffusion --nodes 16 --topology torus --ratio 1 --strategy plugin:$P/libhetlb_strategy_faulty_4.so'
c diffuse-plugin-crash 'mpi bin/hetlb-diffuse plugins/libhetlb_strategy_faulty_11.so' 60 fail 'strategy plug-in [^|]*faulty_11.so: node [0-9]+: decide\(\) crashed \(SIGSEGV' - \
  '$MR -np 4 $D --strategy plugin:$P/libhetlb_strategy_faulty_11.so --time-limit 30'
c diffuse-plugin-faulty-decision 'mpi bin/hetlb-diffuse plugins/libhetlb_strategy_faulty_4.so' 60 fail 'faulty_4.so: node 0 at date [^:]*: transfers sum to' - \
  '$MR -np 4 $D --strategy plugin:$P/libhetlb_strategy_faulty_4.so --time-limit 30'
c campaign-faulty-plugin 'plugins/libhetlb_strategy_faulty_1.so' 30 err '^hetlb: error: .*strategy plug-in .*faulty_1.so: interface version 2' \
  'spec a6 "plugin:$P/libhetlb_strategy_faulty_1.so" > s.json' '$H campaign s.json --results r.csv'
# ring-iterations: the policy never takes what the others refuse.
c ring-iterations-never-near-2-63 '' 20 err '^hetlb: error: .*at most 2305843009213693951' - \
  '$H simulate ring-iterations "$RING" --policy never --iterations 5 --drift "$F/drift-huge.txt" --ratio 1'
# The runtime: a skipped iteration_done() in the bulk-synchronous mode ends every rank with one line.
c runtime-bsp-skipped-call 'mpi tests/hetlb-mpi-diffusion-bsp-check' 40 fail 'hetlb: rank [0-9]+: bulk-synchronous iteration_done\(\) call [0-9]+ waited [0-9.]+ s for' - \
  '$MR -np 4 "$BT/hetlb-mpi-diffusion-bsp-check" --initial single --collective allreduce --progress calls --skip 2:6'
# Python: objects made by __new__ alone, numbers out of range, bad files: the library's own words.
c py-platform-new-alone 'quick py' 30 ok '^TypeError hetlb.Platform: cannot be created directly: use hetlb.platform\(\)' - \
  '$PY $CASES platform-new-alone'
c py-scatterplan-new-alone 'py' 30 ok '^TypeError hetlb.ScatterPlan: cannot be created directly: use hetlb.plan_scatter\(\)' - \
  '$PY $CASES scatterplan-new-alone'
c py-items-past-64-bits 'py' 30 ok '^ValueError items = 36893488147419103232: expected a whole number from 0 to 4611686018427387904' - \
  '$PY $CASES items-past-64-bits'
c py-order-evaluations-2-70 'py' 30 ok '^ValueError order_evaluations = 1180591620717411303424: expected a whole number from 1 to 1099511627776' - \
  '$PY $CASES order-evaluations-2-70'
c py-algorithm-none 'py' 30 ok '^TypeError algorithm = None: expected a string' - '$PY $CASES algorithm-none'
c py-negative-seed 'py' 30 ok '^ValueError seed = -1: expected a whole number from 0 to 18446744073709551615' - \
  '$PY $CASES negative-seed'
c py-read-results-binary 'py' 30 ok '^ValueError bin.csv: byte 5: not UTF-8 text: expected the CSV of hetlb campaign$' 'printf "a,b\n\000\377\376,x\n" > bin.csv' \
  '$PY $CASES read-results bin.csv'
c py-read-results-latin1 'py' 30 ok '^ValueError latin.csv: byte 4: not UTF-8 text: expected the CSV of hetlb campaign$' 'printf "a,b\n\351t\351,x\n" > latin.csv' \
  '$PY $CASES read-results latin.csv'
c py-read-results-huge-field 'py' 30 ok '^ValueError field.csv: line 2: field larger than field limit \(131072\): expected the CSV of hetlb campaign$' \
  '$PY -c "open(\"field.csv\", \"w\").write(\"a,b\n\" + \"x\" * 200000 + \",1\n\")"' '$PY $CASES read-results field.csv'
c py-simulate-small 'py' 60 ok '^ok True$' - '$PY $CASES simulate-small'

ELAPSED=$(awk -v a="$START" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
echo "attack: $PASSED passed, $FAILED failed, $SKIPPED skipped in $ELAPSED s$([ $QUICK = 1 ] && echo ' (quick sample)')"
[ $FAILED = 0 ]
