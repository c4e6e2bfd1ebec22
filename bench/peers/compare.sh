#!/bin/sh
# The static comparison with Zoltan (issue 33; docs/peers.md), one command, resumable: every finished
# piece is kept in $OUT and skipped when run again.
#   1. model makespans on RR-4770's Table 1 platform (examples/grid1999.json, 817,101 items);
#   2. model makespans on random platforms, $SIZES processors, $INSTANCES per ratio in $RATIOS;
#   3. the seismic example under mpirun, 4 and 8 ranks with emulated speeds, $REPS repetitions (the
#      policies interleaved inside each repetition);
#   4. the seismic example under SMPI on Table 1's platform (16 simulated ranks, 81,710 rays: a tenth of
#      the paper's) and on the study's Grid'5000 subset (64 ranks, emulated speeds), hetlb planning
#      inside the simulation, Zoltan's counts computed by Zoltan (hetlb-peers-model --counts) and sent
#      with MPI_Scatterv (Zoltan itself is built against Open MPI);
#   5. the tables (summarize.py) and the figure of the gap to hetlb's exact plan.
# make compare-peers runs it; BUILD, OUT, INSTANCES, REPS, RATIOS and SIZES may be set.
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-docs/peers}
INSTANCES=${INSTANCES:-100}
REPS=${REPS:-5}
SEED=${SEED:-33}
RATIOS=${RATIOS:-"0 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 1.5 2"}
SIZES=${SIZES:-"16 256"}
POLICIES="mpi-scatter divmod zoltan-block zoltan-rcb hetlb-lp hetlb-exact"
BIN=$BUILD/bin
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe"}

for b in hetlb-peers-model hetlb-peers-seismic hetlb-peers-figure; do
  if [ ! -x "$BIN/$b" ]; then
    echo "compare-peers: $BIN/$b is not built: Zoltan was not found when $BUILD was configured; run make deps" \
      "(it installs libtrilinos-zoltan-dev), then cmake -S . -B $BUILD and cmake --build $BUILD" >&2
    exit 2
  fi
done
mkdir -p "$OUT"
tmp="$OUT/.piece.tmp"

# add FILE: appends the piece in $tmp (with its header) to FILE, whole or not at all.
add() {
  if [ -s "$1" ]; then tail -n +2 "$tmp" | cat "$1" - > "$tmp.all"; else cp "$tmp" "$tmp.all"; fi
  mv "$tmp.all" "$1"
  rm -f "$tmp"
}

f="$OUT/model-grid1999.csv"
if [ ! -s "$f" ]; then
  echo "compare-peers: Table 1 platform (model)"
  "$BIN/hetlb-peers-model" --platform examples/grid1999.json --seed "$SEED" --check --header > "$tmp"
  add "$f"
fi

f="$OUT/model-random.csv"
for p in $SIZES; do
  for r in $RATIOS; do
    if [ -s "$f" ] && awk -F, -v p="$p" -v r="$r" '$1 == "random" && $2 == p && $3 == r { found = 1; exit }
        END { exit !found }' "$f"; then continue; fi
    echo "compare-peers: random platforms, $p processors, ratio $r ($INSTANCES instances, model)"
    "$BIN/hetlb-peers-model" --processors "$p" --ratio "$r" --instances "$INSTANCES" --seed "$SEED" --check --header > "$tmp"
    add "$f"
  done
done

f="$OUT/seismic-mpirun.csv"
for rep in $(seq 1 "$REPS"); do
  for np in 4 8; do
    case $np in
      4) platform=examples/seismic/cluster-4.json rays=12000 ;;
      8) platform=peers/zoltan/cluster-8.json rays=16000 ;;
    esac
    for policy in $POLICIES; do
      if [ -s "$f" ] && awk -F, -v k="$rep,$np,$policy" '$1 "," $2 "," $3 == k { found = 1; exit }
          END { exit !found }' "$f"; then continue; fi
      echo "compare-peers: seismic under mpirun, $np ranks, $policy, repetition $rep"
      $MPIRUN -np "$np" "$BIN/hetlb-peers-seismic" --policy "$policy" --platform "$platform" --rays "$rays" --emulate \
        --header > "$tmp.run"
      awk -v rep="$rep" 'NR == 1 { print "repetition," $0; next } { print rep "," $0 }' "$tmp.run" > "$tmp"
      rm -f "$tmp.run"
      add "$f"
    done
  done
done

# smpi_runs CSV RANKS JSON XML HOSTS RAYS [ARGS...]: every policy as it moves its data, then Zoltan's
# counts sent one at a time in rank order (single port, RR-4770's model) and hetlb's counts sent all
# at once by MPI_Scatterv (overlapping sends). RUNS (policy:transport ...) and SMPI_CFG may be set.
smpi_runs() {
  f=$1 np=$2 json=$3 xml=$4 hosts=$5 rays=$6
  shift 6
  for run in ${RUNS:-$(echo $POLICIES | sed 's/\([^ ]*\)/\1:native/g') zoltan-block:ordered hetlb-exact:scatterv}; do
    policy=${run%%:*} transport=${run#*:}
    if [ -s "$f" ] && awk -F, -v p="$policy" -v t="$transport" '$2 == p && $10 == t { found = 1; exit }
        END { exit !found }' "$f"; then continue; fi
    echo "compare-peers: seismic under SMPI, $json, $np ranks, $policy, transport $transport"
    counts=""
    case $policy in
      zoltan-*) counts="--counts $("$BIN/hetlb-peers-model" --platform "$json" --items "$rays" --policies "$policy" \
                  --counts | cut -d, -f12 | tr ' ' ',')" ;;
    esac
    smpirun -np "$np" -platform "$xml" -hostfile "$hosts" --cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 \
      --cfg=smpi/lat-factor:0:1 ${SMPI_CFG:-} --log=root.thresh:warning "$BIN/libhetlb-peers-seismic-smpi.so" --policy "$policy" \
      --platform "$json" --rays "$rays" $counts --transport "$transport" --header "$@" > "$tmp" 2> "$tmp.err" \
      || { cat "$tmp.err" >&2; exit 1; }
    rm -f "$tmp.err"
    add "$f"
  done
}

if command -v smpirun > /dev/null && [ -f "$BIN/libhetlb-peers-seismic-smpi.so" ] && [ -x "$BIN/hetlb-peers-grid-platform" ]; then
  mkdir -p "$BUILD/peers"
  # Table 1's platform: one link per processor to the root, one simulated flop per ray (81,710 rays).
  [ -s "$BUILD/peers/grid1999.xml" ] || "$BIN/hetlb" simgrid-platform examples/grid1999.json -o "$BUILD/peers/grid1999.xml" \
    --hostfile "$BUILD/peers/grid1999.hosts" --flops-per-item 1 --bytes-per-item 32
  smpi_runs "$OUT/seismic-smpi-grid1999.csv" 16 examples/grid1999.json "$BUILD/peers/grid1999.xml" \
    "$BUILD/peers/grid1999.hosts" 81710
  # The study's Grid'5000 subset, 64 hosts (1 Gflop/s, 125 MB/s links inside a site, 2.25 GB/s backbone),
  # 10^5 flops per ray times a slowdown drawn in 1..6, 128,000 rays of 32 bytes.
  [ -s "$BUILD/peers/grid64.json" ] || "$BIN/hetlb-peers-grid-platform" --nodes 64 --flops-per-ray 1e5 --bytes-per-ray 32 \
    --seed "$SEED" --items 128000 --json "$BUILD/peers/grid64.json" --xml "$BUILD/peers/grid64.xml" \
    --hostfile "$BUILD/peers/grid64.hosts"
  [ -s "$OUT/study-grid64-platform.json" ] || cp "$BUILD/peers/grid64.json" "$OUT/study-grid64-platform.json"
  smpi_runs "$OUT/seismic-smpi-study-grid64.csv" 64 "$BUILD/peers/grid64.json" "$BUILD/peers/grid64.xml" \
    "$BUILD/peers/grid64.hosts" 128000 --emulate --flops-per-ray 1e5
  # The same with every send in rendezvous (no eager sends below 64 KiB): one at a time is then strictly
  # one at a time, as in RR-4770's model.
  RUNS="zoltan-block:native zoltan-block:ordered hetlb-exact:native hetlb-exact:scatterv" \
  SMPI_CFG=--cfg=smpi/send-is-detached-thresh:0 smpi_runs "$OUT/seismic-smpi-study-grid64-rendezvous.csv" 64 \
    "$BUILD/peers/grid64.json" "$BUILD/peers/grid64.xml" "$BUILD/peers/grid64.hosts" 128000 --emulate --flops-per-ray 1e5
else
  echo "compare-peers: no smpirun, or the SMPI programs are not built: the SMPI runs are skipped"
fi

python3 bench/peers/summarize.py "$OUT"
"$BIN/hetlb-peers-figure" "$OUT/gap.csv" "$OUT/gap-vs-ratio.svg"
echo "compare-peers: results in $OUT (table.md, gap.csv, gap-vs-ratio.svg)"
