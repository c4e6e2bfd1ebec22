#!/bin/sh
# The README's MPI overhead table: runs `hetlb-mpi-scatter-bench` N times (2 ranks) and prints, per
# payload, the median bare-call time and the median and range of each overhead column.
#   bench/mpi_overhead_runs.sh [N=7] [BUILD=build]
n=${1:-7}
build=${2:-build}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$n"); do
  mpirun --allow-run-as-root --oversubscribe -np 2 "$build/bin/hetlb-mpi-scatter-bench" | grep '^| [0-9]'
done > "$out"
python3 - "$out" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(lambda: [[] for _ in range(6)])
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.strip().strip('|').split('|')]
    for j, c in enumerate([5, 7, 10, 12]):
        d[f[0]][j].append(float(f[c].rstrip('%')))
    d[f[0]][4].append(float(f[3]))
    d[f[0]][5].append(float(f[8]))
print("| payload | MPI_Scatterv (s) | plan_scatter | range | unchecked | range | MPI_Gatherv (s) | plan_gather | range | unchecked | range |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k, v in d.items():
    cells = [f"{statistics.median(a):+.1f}% | {min(a):+.0f}% to {max(a):+.0f}%" for a in v[:4]]
    print(f"| {k} | {statistics.median(v[4]):.3g} | {cells[0]} | {cells[1]} | {statistics.median(v[5]):.3g} | {cells[2]} | {cells[3]} |")
PY
