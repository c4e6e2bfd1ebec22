#!/bin/sh
# Time from the last rank converging to every rank returning, in balancing periods (docs/validation.md, "Tests and overhead"):
#   bench/termination_latency.sh [RUNS]   (default 5; median per configuration)
# Each configuration runs hetlb-diffuse RUNS times on 4 ranks with a 10 ms balancing period.
set -eu
RUNS=${1:-5}
DIFFUSE=${DIFFUSE:-build/bin/hetlb-diffuse}
MPIRUN=${MPIRUN:-mpirun --allow-run-as-root --oversubscribe}
echo "| progress | load | termination latency (periods, median of $RUNS) | runs |"
echo "|---|---|---|---|"
for progress in calls thread; do
  for load in real integer; do
    flag=""
    [ "$load" = integer ] && flag="--integer"
    values=""
    i=0
    while [ $i -lt "$RUNS" ]; do
      v=$(timeout 120 $MPIRUN -np 4 "$DIFFUSE" --topology ring --balance load --min-lb-iter 0.01 --progress $progress $flag \
            --seed $((i + 1)) --initial random --format json 2>/dev/null |
          python3 -c "import json,sys; print(json.load(sys.stdin)['termination_latency_periods'])")
      values="$values $v"
      i=$((i + 1))
    done
    median=$(echo $values | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    printf '| %s | %s | %.2f | %s |\n' "$progress" "$load" "$median" "$(echo $values | tr ' ' '\n' | awk '{printf "%s%.2f", (NR > 1 ? " " : ""), $1}')"
  done
done
