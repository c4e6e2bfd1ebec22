#!/bin/bash
# Balancing by time, simulator vs SMPI, on the real Grid'5000 subset: hetlb-diffuse --balance time under
# smpirun (the platform of `hetlb diffusion-platform grid-real`, the XML of `hetlb simgrid-platform --study
# grid-real` with its links scaled so that a 125-byte item is the simulator's load unit) against
# `hetlb simulate diffusion --platform grid-real --balance time` with the same topology, initial load
# (1000 units per node), strategy, k, ratio, seed and --iterations. Prints a Markdown table
# (docs/validation.md, "Balancing by time on the real Grid'5000 subset"). Usage:
#   programs/hetlb-diffuse/validate_time.sh [BUILD_DIR] [ITERATIONS] [CONFIG...]
# CONFIG = N:topology:initial:strategy:ratio (strategy besteffort is k = 1); default: the 14 of the table.
# SPEED_SOURCE=host (default: each rank is told its simulated host's speed, as the simulator's nodes know
# theirs) or measured (the runtime's estimator). The simulator runs with both balancing phases
# (docs/simulation.md, "Balancing phase"); data moved compares with the staggered one. An SMPI run is given
# SMPI_TIMEOUT seconds of wall time (default 3600; a run cut short shows "-").
set -euo pipefail
build=${1:-build}
iterations=${2:-30}
shift $(( $# > 2 ? 2 : $# ))
configs=("$@")
source_=${SPEED_SOURCE:-host}
if [ ${#configs[@]} -eq 0 ]; then
  configs=(16:torus:random:besteffort:1 16:torus:single:besteffort:1 16:hypercube:random:makhoul:1
           16:hypercube:single:makhoul:1 16:line:random:besteffort:1 16:torus:random:makhoul:10
           16:hypercube:random:besteffort:0.1 16:line:single:makhoul:10
           64:torus:random:makhoul:1 64:hypercube:random:besteffort:1 64:torus:single:besteffort:1
           64:hypercube:single:makhoul:1 64:torus:random:besteffort:10 64:hypercube:random:makhoul:0.1)
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cfg=(--cfg=smpi/simulate-computation:no --cfg=network/model:LV08 --cfg=smpi/grow-injected-times:no --log=root.thresh:error
     --log=xbt_cfg.thresh:error --log=smpi.thresh:error)
pct() { awk -v s="$1" -v m="$2" 'BEGIN { if (s == "null" || m == "null") print "-"; else if (s == 0) print (m == 0 ? "0%" : "inf"); else printf "%+.0f%%", 100 * (m - s) / s }'; }
r() { awk -v x="$1" 'BEGIN { if (x == "null") print "-"; else printf "%.3g", x }'; }
# Largest |final - target| / target over the nodes, in % (the simulator's target_loads; SMPI's shares
# are total x s_i / sum(s) with the speeds of ranks[]).
spread_sim() { jq -r '[.final_loads, .target_loads] | transpose | map((.[0] - .[1]) / .[1] | fabs) | max * 100' <<< "$1"; }
spread_mpi() {
  jq -r '(.ranks | map(.items) | add) as $t | (.ranks | map(.speed) | add) as $s
         | .ranks | map(($t * .speed / $s) as $share | (.items - $share) / $share | fabs) | max * 100' <<< "$1"
}
echo "| ranks | topology | initial | strategy | ratio | last conv. date (s) sim aligned / staggered / SMPI | diff (aligned, staggered) | data moved sim / SMPI (x total) | diff | items moved SMPI | max dist. to share sim / SMPI | wall sim / SMPI |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
  IFS=: read -r n topo init strat ratio <<< "$c"
  flags=(--topology "$topo" --strategy "$strat" --k 1 --initial "$init" --iterations "$iterations" --ratio "$ratio"
         --seed 1 --balance time --format json)
  [ -f "$dir/g$n.xml" ] || "$build/bin/hetlb" diffusion-platform grid-real --nodes "$n" --unit-bytes 125 \
    -o "$dir/g$n.xml" --hostfile "$dir/g$n.hosts"
  # The simulator's time limit: 100 x iterations x tau (tau = 1000 units x ratio x 1 ms), as SMPI runs without one.
  limit=$(awk -v i="$iterations" -v r="$ratio" 'BEGIN { print 100 * i * r }')
  aligned=$("$build/bin/hetlb" simulate diffusion --platform grid-real --nodes "$n" "${flags[@]}" --lb-phase aligned \
    --time-limit "$limit" 2>/dev/null)
  staggered=$("$build/bin/hetlb" simulate diffusion --platform grid-real --nodes "$n" "${flags[@]}" --lb-phase staggered \
    --time-limit "$limit" 2>/dev/null)
  t0=$(date +%s.%N)
  mpi=$(timeout "${SMPI_TIMEOUT:-3600}" smpirun -np "$n" -platform "$dir/g$n.xml" -hostfile "$dir/g$n.hosts" "${cfg[@]}" \
    "$build/bin/libhetlb-diffuse-smpi.so" --item-bytes 117 --load-per-node 1000 --time-limit 0 --speed-source "$source_" \
    "${flags[@]}" 2>/dev/null | sed -n '/^{/,$p' || true)
  [ -n "$mpi" ] || mpi='{"converged": false, "max_convergence_date": null, "data_transfer_amount": null, "ranks": [], "items_checked": null}'
  t1=$(date +%s.%N)
  g() { jq -r ".$2" <<< "$1"; }
  a=$(g "$aligned" max_convergence_date); st=$(g "$staggered" max_convergence_date); m=$(g "$mpi" max_convergence_date)
  [ "$(g "$aligned" converged)" = true ] || a=null
  [ "$(g "$staggered" converged)" = true ] || st=null
  [ "$(g "$mpi" converged)" = true ] || m=null
  row="| $n | $topo | $init | $strat | $ratio | $(r "$a") / $(r "$st") / $(r "$m") | $(pct "$a" "$m"), $(pct "$st" "$m") "
  s=$(g "$staggered" data_transfer_amount); d=$(g "$mpi" data_transfer_amount)
  row+="| $(r "$s") / $(r "$d") | $(pct "$s" "$d") | $(g "$mpi" items_moved) "
  row+="| $(r "$(spread_sim "$staggered")")% / $(r "$(spread_mpi "$mpi")")% "
  row+="| $(r "$(g "$staggered" wall_seconds)") s / $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s |"
  [ "$(g "$mpi" items_checked)" = true ] || row+=" ITEMS NOT CHECKED"
  echo "$row"
done
