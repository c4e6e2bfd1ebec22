#!/bin/sh
# The dynamic comparison with Zoltan (issue 33; docs/peers.md, "Dynamic"), one command, resumable:
# every finished run is a line of $OUT/dynamic.csv and is skipped when run again. hetlb-peers-diffuse
# runs hetlb-diffuse's fixed-work application ($WORK iterations, $LOAD items per rank, emulated speeds)
# under each policy of $POLICIES, the policies interleaved inside each repetition of each cell:
#   ranks 8 and 16; speeds spread 1x to 6x (fastest first: --initial single starts on the fastest);
#   scenario steady, peak (rank 0 slowed 3x during the middle third of the balanced run) or slowdown
#   (rank 0 slowed 3x from the middle of the balanced run to the end: a static plan is wrong from there);
#   initial single or random; ratio compute (1 ms per item, 1 KiB items), short (0.1 ms per item, 64 KiB
#   items: short iterations, where a balancer's own latency counts; a 64 KiB item moves in microseconds
#   here) or transfer (0.1 ms per item, 1 MiB items: moving an item costs more than computing it);
#   kernel synthetic (every item costs the same), seismic (examples/seismic's rays, uneven costs whose
#   mean is the ratio) or drift (costs from 0.2 to 1.8 times the ratio that move across the items every
#   iteration, as a zoom's rows do; a static plan is wrong from the first iterations); the last two with
#   the computation-heavy ratio only.
# Then the table (summarize_dynamic.py) and the figure of the iteration-time imbalance over time.
# make compare-peers-dynamic runs it (nice); BUILD, OUT, REPS, WORK, LOAD, POLICIES, RANKS, KERNELS, RATIOS,
# SCENARIOS may be set. The policies: none, static (the plan for the given speeds), static-equal (the plan
# for equal speeds: the speeds unknown beforehand), hetlb (the runtime's defaults: hybrid),
# hetlb-global, one named diffusion variant, and Zoltan every 1, 2, 3, 5, 10, 100 iterations or when the
# iteration's imbalance passes 1.1; the results of the round before the runtime's global steps (the named
# variants alone, Zoltan every 1, 10, 100) are docs/peers/dynamic.csv.
# The last column of dynamic.csv is the kernel; a CSV written before it existed is synthetic throughout
# and gets the column on the next run.
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-docs/peers/dynamic}
WHO=compare-peers-dynamic
. "$(dirname "$0")/dynamic_rows.sh"
KERNELS=${KERNELS:-"synthetic seismic drift"}
POLICIES=${POLICIES:-"none static static-equal hetlb hetlb-global besteffort2-vl zoltan:1 zoltan:2 zoltan:3 zoltan:5 zoltan:10 zoltan:100 zoltan-imbalance:1.1"}
BIN=$BUILD/bin
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe"}

if [ ! -x "$BIN/hetlb-peers-diffuse" ] || [ ! -x "$BIN/hetlb-peers-imbalance-figure" ]; then
  echo "compare-peers-dynamic: $BIN/hetlb-peers-diffuse is not built: Zoltan was not found when $BUILD was" \
    "configured; run make deps (it installs libtrilinos-zoltan-dev), then cmake -S . -B $BUILD and cmake --build $BUILD" >&2
  exit 2
fi
mkdir -p "$OUT/dynamic-traces"
f="$OUT/dynamic.csv"
tmp="$OUT/.dynamic.tmp"
header="repetition,scenario,ratio_label"

if [ -s "$f" ] && ! head -n 1 "$f" | grep -q ',kernel$'; then
  awk 'NR == 1 { print $0 ",kernel"; next } { print $0 ",synthetic" }' "$f" > "$tmp.all"
  mv "$tmp.all" "$f"
fi

for kernel in $KERNELS; do
  case $kernel in
    synthetic) ratios=$RATIOS kopt="" tprefix="" ;;
    seismic) ratios=$(echo "$RATIOS" | grep -o compute || true) kopt="--kernel seismic" tprefix="seismic-" ;;
    drift) ratios=$(echo "$RATIOS" | grep -o compute || true) kopt="--kernel drift" tprefix="drift-" ;;
    *) echo "compare-peers-dynamic: KERNELS: $kernel: expected synthetic, seismic or drift" >&2; exit 2 ;;
  esac
  for np in $RANKS; do
    row_ranks "$np"
    for ratio_label in $ratios; do
      row_ratio "$ratio_label"
      for scenario in $SCENARIOS; do
        row_scenario "$scenario"
        for initial in random single; do
          for rep in $(seq 1 "$REPS"); do
            for policy in $POLICIES; do
              key="$rep,$scenario,$ratio_label,$np,$policy,$initial,$kernel"
              if [ -s "$f" ] && awk -F, -v k="$key" '$1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $NF == k { found = 1; exit }
                  END { exit !found }' "$f"; then continue; fi
              trace=""
              if [ "$rep" = 1 ] && [ "$ratio_label" = compute ] && [ "$initial" = random ]; then
                trace="--trace $OUT/dynamic-traces/$tprefix$np-$scenario-$(echo "$policy" | tr : _).csv"
              fi
              echo "compare-peers-dynamic: $kernel, $np ranks, $scenario, $ratio_label, $initial, $policy, repetition $rep"
              # shellcheck disable=SC2086
              $MPIRUN -np "$np" "$BIN/hetlb-peers-diffuse" --balancer "$policy" $kopt --speeds "$speeds" $slow --initial "$initial" \
                --work "$WORK" --load-per-node "$LOAD" --ratio "$ratio" --item-bytes "$bytes" --seed "$rep" $trace --header \
                > "$tmp.run"
              awk -v p="$rep,$scenario,$ratio_label" -v h="$header" 'NR == 1 { print h "," $0; next } { print p "," $0 }' \
                "$tmp.run" > "$tmp"
              rm -f "$tmp.run"
              if [ -s "$f" ]; then tail -n +2 "$tmp" | cat "$f" - > "$tmp.all"; else cp "$tmp" "$tmp.all"; fi
              mv "$tmp.all" "$f"
              rm -f "$tmp"
            done
          done
        done
      done
    done
  done
done

python3 bench/peers/summarize_dynamic.py "$OUT" --repetitions "$REPS"
for kernel in $KERNELS; do
  tprefix=""
  [ "$kernel" != synthetic ] && tprefix="$kernel-"
  for np in $RANKS; do
    for scenario in $SCENARIOS; do
      set --
      for t in "$OUT"/dynamic-traces/"$tprefix$np-$scenario"-*.csv; do [ -s "$t" ] && set -- "$@" "$t"; done
      [ $# -gt 0 ] && "$BIN/hetlb-peers-imbalance-figure" "$OUT/dynamic-imbalance-$tprefix$np-$scenario.svg" "$@"
    done
  done
done
echo "compare-peers-dynamic: results in $OUT (dynamic.csv, dynamic-table.md, dynamic-imbalance-*.svg)"
