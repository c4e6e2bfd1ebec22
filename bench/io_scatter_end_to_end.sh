#!/bin/sh
# `hetlb scatter P.json --format json` end to end (process start and files included) on N processors of
# bench/io_bench.cpp's shape (compute per item 1 + 1e-6 i, comm per item 0.5, 10^6 items): the figure of
# docs/performance.md, "Reading and writing at scale". Prints each run's wall seconds, then the median
# and the range. BUILD (default build), N (100000), RUNS (11) and FORMAT (json, or table) may be set.
set -eu
BUILD=${BUILD:-build}
N=${N:-100000}
RUNS=${RUNS:-11}
FORMAT=${FORMAT:-json}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v n="$N" 'BEGIN {
  printf "{\"items\": 1000000, \"processors\": ["
  for (i = 0; i < n; i++)
    printf "%s{\"name\": \"p%d\", \"compute\": {\"per_item\": %.7g}, \"comm\": {\"per_item\": 0.5}}", (i ? ", " : ""), i, 1 + 1e-6 * i
  printf "]}\n"
}' > "$dir/platform.json"
for r in $(seq 1 "$RUNS"); do
  start=$(date +%s.%N)
  "$BUILD/bin/hetlb" scatter "$dir/platform.json" --format "$FORMAT" > "$dir/plan.out"
  end=$(date +%s.%N)
  echo "$end $start" | awk '{ printf "%.3f\n", $1 - $2 }'
done > "$dir/seconds"
cat "$dir/seconds"
sort -n "$dir/seconds" | awk -v n="$N" -v f="$FORMAT" '{ s[NR] = $1 } END {
  printf "hetlb scatter, %d processors, --format %s: median %.2f s (%.2f-%.2f) over %d runs\n",
    n, f, s[int((NR + 1) / 2)], s[1], s[NR], NR }'
