#!/bin/sh
# The two examples of the diffusion runtime against their baselines, 3 runs each, the median printed
# (time and time / ideal, where the ideal is the total work over the total speed), on 4 ranks emulated at
# speeds 1, 1, 0.5, 0.25 by waiting:
#   hetlb-particles: 2,000 bodies, 40 steps, balanced by the runtime or not at all (--no-balance);
#   hetlb-fractal:   a zoom of 30 frames of 120 rows, rows balanced by the runtime between frames
#                    (dynamic: dealt round robin, or in blocks) against master-worker and equal blocks.
#   bench/dynamic_examples.sh [BUILD] [RUNS] [all|particles|zoom]
set -eu
BUILD=${1:-build}
RUNS=${2:-3}
WHAT=${3:-all}
MPIRUN="mpirun --allow-run-as-root --oversubscribe -np 4"
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
row() {  # label, command
  times=""; ratios=""
  for i in $(seq "$RUNS"); do
    out=$($MPIRUN $2)
    times="$times $(printf '%s\n' "$out" | sed -n "s/.* \([0-9.]*\) s (ideal.*/\1/p")"
    ratios="$ratios $(printf '%s\n' "$out" | sed -n 's/.*(ideal [0-9.]* s, \([0-9.]*\)x).*/\1/p')"
    ideal=$(printf '%s\n' "$out" | sed -n 's/.*(ideal \([0-9.]*\) s.*/\1/p')
  done
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$(echo $times | tr ' ' '\n' | median)" "$ideal" \
    "$(echo $ratios | tr ' ' '\n' | median)" "$(echo $times | tr ' ' '/')"
}
echo "| run | time, median (s) | ideal (s) | time / ideal, median | the $RUNS times (s) |"
echo "|---|---|---|---|---|"
P="$BUILD/bin/hetlb-particles --speeds 1,1,0.5,0.25"
if [ "$WHAT" != zoom ]; then
  row "particles, balanced (diffusion runtime)" "$P"
  row "particles, not balanced (--no-balance)" "$P --no-balance"
fi
F="$BUILD/bin/hetlb-fractal --speeds 1,1,0.5,0.25 --frames 30 --rows 120"
if [ "$WHAT" != particles ]; then
  row "zoom, dynamic (rows round robin at first)" "$F --mode dynamic"
  row "zoom, dynamic --layout contiguous (blocks at first)" "$F --mode dynamic --layout contiguous"
  row "zoom, master-worker" "$F --mode master-worker"
  row "zoom, equal blocks" "$F --mode equal"
fi
