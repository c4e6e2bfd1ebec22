#!/bin/sh
# The runtime's three balancers under SMPI at scale (issue "the dynamic half at the physical limit";
# docs/runtime.md, "Balancers under SMPI"), one command, resumable: every finished run is a line of
# $OUT/balancers.csv and is skipped when run again. The program is hetlb-diffuse's fixed-work application
# (--work WORK iterations, LOAD items per rank, 1e6 x RATIO flops per item) compiled for SMPI, on the
# Grid'5000 subset with its hosts' real speeds (`hetlb diffusion-platform grid-real`: 4.7 to 27.4 Gflop/s,
# sites 10 ms apart under LV08's latency factor), speeds measured by the runtime (nothing told), from a
# random or a single start, with the balancers diffusion, global and hybrid (the default).
# The ideal is the work over the hosts' total speed; since the speeds are measured, the first iteration
# runs on the initial load whatever the balancer, so the table also gives the ideal after it:
# first iteration + ideal x (WORK - 1) / WORK.
# The program's all-gather is Open MPI's (smpi/allgather:ompi: recursive doubling or Bruck's for its few
# bytes), as the program would get it on Open MPI: SMPI's default sends all p(p - 1) messages at once,
# which at 128 ranks and more spends the host's time in SimGrid's bookkeeping of the messages in flight
# (over 7 min at 128 ranks instead of under 2). The other collectives are SMPI's defaults.
# The simulated times depend on neither the machine nor its load: one run per cell and seed.
# Host time: 16 ranks 3 s to 2 min a run, 64 ranks 20 s to 10 min, 256 ranks 4.5 to 7 min for global and hybrid.
# BUILD, OUT, RANKS, INITIALS, BALANCERS, SEEDS, WORK, LOAD, RATIO may be set; the table is
# $OUT/balancers-table.md (summary.py), rewritten after every run.
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-docs/runtime-smpi}
RANKS=${RANKS:-"16 64 256"}
INITIALS=${INITIALS:-"random single"}
BALANCERS=${BALANCERS:-"diffusion global hybrid"}
SEEDS=${SEEDS:-1}
WORK=${WORK:-40}
LOAD=${LOAD:-20}
RATIO=${RATIO:-1000}
HERE=$(dirname "$0")
LIB=$BUILD/bin/libhetlb-diffuse-smpi.so
if ! command -v smpirun > /dev/null || ! command -v smpicc > /dev/null || [ ! -f "$LIB" ] || [ ! -x "$BUILD/bin/hetlb" ]; then
  echo "smpi balancers: $LIB or $BUILD/bin/hetlb is missing (SimGrid's smpirun is needed at configure time): run make build" >&2
  exit 2
fi
mkdir -p "$OUT"
platforms=$(mktemp -d "${TMPDIR:-/tmp}/hetlb-smpi.XXXXXX")
trap 'rm -rf "$platforms"' EXIT INT TERM
f="$OUT/balancers.csv"
header="ranks,initial,seed,balancer,work,load,ratio,time_to_solution,ideal,items_moved,global_steps,items_checked,host_seconds,first_iteration"
[ -s "$f" ] || echo "$header" > "$f"
for np in $RANKS; do
  "$BUILD/bin/hetlb" diffusion-platform grid-real --nodes "$np" --unit-bytes 125 -o "$platforms/grid-real-$np.xml" \
    --hostfile "$platforms/grid-real-$np.hosts"
  ideal=$(python3 "$HERE/ideal.py" "$platforms/grid-real-$np.xml" "$platforms/grid-real-$np.hosts" "$np" "$LOAD" "$WORK" "$RATIO")
  # One simulation's options, the same for the program's all-gather alone and for the runs.
  sim="-np $np -platform $platforms/grid-real-$np.xml -hostfile $platforms/grid-real-$np.hosts
    --cfg=smpi/simulate-computation:no --cfg=network/model:LV08 --cfg=smpi/grow-injected-times:no
    --cfg=smpi/allgather:ompi --log=root.thresh:error --log=xbt_cfg.thresh:error --log=smpi.thresh:error"
  # The program's own all-gather, once per rank count (collective_cost.c): $OUT/collectives.csv.
  c="$OUT/collectives.csv"
  [ -s "$c" ] || echo "ranks,allgather_seconds" > "$c"
  if ! grep -q "^$np," "$c"; then
    [ -x "$platforms/collective_cost" ] || smpicc -O2 "$HERE/collective_cost.c" -o "$platforms/collective_cost"
    # shellcheck disable=SC2086
    smpirun $sim "$platforms/collective_cost" >> "$c"
  fi
  for initial in $INITIALS; do
    for seed in $SEEDS; do
      for balancer in $BALANCERS; do
        key="$np,$initial,$seed,$balancer,$WORK,$LOAD,$RATIO"
        if awk -F, -v k="$key" '$1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 == k { found = 1; exit } END { exit !found }' "$f"; then
          continue
        fi
        echo "smpi balancers: $np ranks, $initial start, seed $seed, $balancer" >&2
        start=$(date +%s)
        # shellcheck disable=SC2086
        smpirun $sim "$LIB" --item-bytes 1024 --ratio "$RATIO" --format json --time-limit 0 --balance time \
          --load-per-node "$LOAD" --work "$WORK" --initial "$initial" --seed "$seed" --balancer "$balancer" \
          > "$platforms/run.json"
        seconds=$(( $(date +%s) - start ))
        python3 - "$platforms/run.json" "$key" "$ideal" "$seconds" >> "$f" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
if not j["items_checked"] or j["final_total_load"] != j["initial_total_load"]:
    sys.exit(f"smpi balancers: {sys.argv[2]}: items lost or not checked")
print(f'{sys.argv[2]},{j["time_to_solution"]},{sys.argv[3]},{j["items_moved"]},{len(j["global_steps"])},'
      f'{str(j["items_checked"]).lower()},{sys.argv[4]},{j["imbalance"][0][0]}')
PY
        python3 "$HERE/summary.py" "$f" > "$OUT/balancers-table.md"
      done
    done
  done
done
python3 "$HERE/summary.py" "$f" > "$OUT/balancers-table.md"
echo "smpi balancers: results in $OUT (balancers.csv, balancers-table.md)" >&2
