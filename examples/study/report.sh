#!/bin/sh
# The study's summaries for the settings of N nodes, from the committed results (runs nothing):
#   examples/study/report.sh N      -> docs/study/N-nodes/{convergence,short,fixed-duration}.md + figures,
#                                      fixed-duration-data.md (ranked by data moved), convergence-idle.md
# docs/study.md quotes these files. Environment: HETLB (build/bin/hetlb), OUT (docs/study).
set -eu
N=${1:?usage: examples/study/report.sh NODES}
HETLB=${HETLB:-build/bin/hetlb}
OUT=${OUT:-docs/study}
dir="$OUT/$N-nodes"
mkdir -p "$dir"
report() {  # spec, output name, extra options
  spec=$1 name=$2
  shift 2
  "$HETLB" campaign "$spec" --yes --report --min-nodes "$N" --max-nodes "$N" "$@" > "$dir/$name.md.tmp"
  mv "$dir/$name.md.tmp" "$dir/$name.md"
}
report examples/study/convergence.json convergence --plot "$dir/convergence.svg"
report examples/study/convergence.json convergence-idle --metric avg_idle_time
report examples/study/short.json short --plot "$dir/short.svg"
report examples/study/fixed-duration.json fixed-duration --plot "$dir/fixed-duration.svg"
report examples/study/fixed-duration.json fixed-duration-data --metric data_transfer_amount
echo "$dir: $(ls "$dir" | tr '\n' ' ')"
