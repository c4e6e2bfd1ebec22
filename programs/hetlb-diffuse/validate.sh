#!/bin/bash
# Simulator vs SMPI: hetlb-diffuse under smpirun and `hetlb simulate diffusion` on the same platform
# (the simulator's cluster, bandwidths scaled so a 125-byte item is the simulator's load unit), topology,
# initial load, strategy and ratio. Prints a Markdown table (docs/validation.md). Usage:
#   programs/hetlb-diffuse/validate.sh [BUILD_DIR] [ITERATIONS] [CONFIG...]
# CONFIG = N:topology:initial:strategy[:virtual]; default: 16 and 64 ranks x
# {torus single besteffort, torus random makhoul, hypercube single makhoul, hypercube random besteffort}
# x {without, with virtual load} (about 1 minute in all here; 256 ranks take 15 s, 1024 ranks 9 minutes).
# The simulator runs with both balancing phases (docs/simulation.md, "Balancing phase"); the other
# columns compare with the staggered one, the reading of a real asynchronous run.
# PLATFORM=grid compares on the study's Grid'5000 subset instead of the cluster.
set -euo pipefail
platform=${PLATFORM:-cluster}
build=${1:-build}
iterations=${2:-30}
shift $(( $# > 2 ? 2 : $# ))
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  for n in 16 64; do
    for c in torus:single:besteffort torus:random:makhoul hypercube:single:makhoul hypercube:random:besteffort; do
      configs+=("$n:$c" "$n:$c:virtual")
    done
  done
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cfg=(--cfg=smpi/simulate-computation:no --cfg=network/model:LV08 --cfg=smpi/grow-injected-times:no --log=root.thresh:error --log=xbt_cfg.thresh:error
     --log=smpi.thresh:error)
pct() { awk -v s="$1" -v m="$2" 'BEGIN { if (s == "null" || m == "null") print "-"; else if (s == 0) print (m == 0 ? "0%" : "inf"); else printf "%+.0f%%", 100 * (m - s) / s }'; }
echo "| ranks | topology | initial | strategy | virtual | max conv. date sim aligned / staggered / SMPI | diff (aligned, staggered) | data transfer sim / SMPI | diff | idle sim / SMPI | diff | messages sim / SMPI | diff | wall sim / SMPI |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${configs[@]}"; do
  IFS=: read -r n topo init strat virt <<< "$c"
  flags=(--topology "$topo" --strategy "$strat" --initial "$init" --iterations "$iterations" --ratio 1 --seed 1
         --format json --balance load)  # the papers' model, by name
  [ "${virt:-}" = virtual ] && flags+=(--virtual-load)
  [ -f "$dir/c$n.xml" ] || "$build/bin/hetlb" diffusion-platform "$platform" --nodes "$n" --unit-bytes 125 -o "$dir/c$n.xml" \
    --hostfile "$dir/c$n.hosts"
  aligned=$("$build/bin/hetlb" simulate diffusion --platform "$platform" --nodes "$n" "${flags[@]}" --lb-phase aligned 2>/dev/null)
  staggered=$("$build/bin/hetlb" simulate diffusion --platform "$platform" --nodes "$n" "${flags[@]}" --lb-phase staggered 2>/dev/null)
  sim=$staggered
  t0=$(date +%s.%N)
  mpi=$(smpirun -np "$n" -platform "$dir/c$n.xml" -hostfile "$dir/c$n.hosts" "${cfg[@]}" \
    "$build/bin/libhetlb-diffuse-smpi.so" --item-bytes 117 --load-per-node 1000 --time-limit 0 "${flags[@]}" 2>/dev/null)
  t1=$(date +%s.%N)
  mpi_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  g() { jq -r ".$2" <<< "$1"; }
  r() { awk -v x="$1" 'BEGIN { if (x == "null") print "-"; else printf "%.3g", x }'; }
  v=no; [ "${virt:-}" = virtual ] && v=yes
  row="| $n | $topo | $init | $strat | $v "
  a=$(g "$aligned" max_convergence_date); st=$(g "$staggered" max_convergence_date); m=$(g "$mpi" max_convergence_date)
  row+="| $(r "$a") / $(r "$st") / $(r "$m") | $(pct "$a" "$m"), $(pct "$st" "$m") "
  for key in data_transfer_amount avg_idle_time; do
    s=$(g "$sim" "$key"); m=$(g "$mpi" "$key")
    row+="| $(r "$s") / $(r "$m") | $(pct "$s" "$m") "
  done
  s=$(jq -r '.ctrl_messages + .data_messages' <<< "$sim"); m=$(jq -r '.ctrl_messages + .data_messages' <<< "$mpi")
  row+="| $s / $m | $(pct "$s" "$m") "
  row+="| $(r "$(g "$sim" wall_seconds)") s / $mpi_wall s |"
  [ "$(g "$mpi" items_checked)" = true ] || row+=" ITEMS NOT CHECKED"
  echo "$row"
done
