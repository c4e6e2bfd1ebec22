#!/bin/sh
# The scatter port's makespan against MPI_Scatter (docs/mpi.md, "Port your MPI_Scatter"): the matrix-
# vector example on 4 ranks emulated at speeds 1, 1, 2 and 4 by waiting (2 ms per row at speed 1),
# 960 rows of 256 doubles, 6 steps; per run the first step and the median of the later ones (the
# work divided evenly by speed would take 960 x 2 ms / 8 = 0.240 s).
#   bench/matvec_makespan.sh [BUILD]
set -eu
BUILD=${1:-build}
MPIRUN="mpirun --allow-run-as-root --oversubscribe -np 4"
ARGS="--rows 960 --steps 6"
PLATFORM=examples/matvec/speeds-1-1-2-4.json
row() {  # label, program, speeds, extra arguments
  out=$($MPIRUN "$BUILD/bin/$2" $ARGS --speeds "$3" $4)
  first=$(printf '%s\n' "$out" | sed -n 's/^step 0: makespan \([0-9.]*\) s.*/\1/p')
  rest=$(printf '%s\n' "$out" | sed -n 's/^step [1-9][0-9]*: makespan \([0-9.]*\) s.*/\1/p' | sort -n |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  printf '| %s | %s | %s | %s |\n' "$1" "$3" "$first" "$rest"
}
echo "| run | speeds | first step (s) | later steps, median (s) |"
echo "|---|---|---|---|"
row "MPI_Scatter (hetlb-matvec-mpi)" hetlb-matvec-mpi 1,1,2,4 ""
row "hetlb, platform file" hetlb-matvec 1,1,2,4 "--platform $PLATFORM"
row "hetlb, measured (even guess, re-planned after step 0)" hetlb-matvec 1,1,2,4 ""
row "MPI_Scatter, speeds in another order" hetlb-matvec-mpi 4,1,1,2 ""
row "hetlb, file in the wrong order (re-planned after step 0)" hetlb-matvec 4,1,1,2 "--platform $PLATFORM"
