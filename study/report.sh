#!/bin/sh
# The study's summaries for the settings of N nodes, from the committed results (runs nothing):
#   study/report.sh N      -> docs/study/N-nodes/{convergence,short,fixed-duration}.md + figures,
#                                      fixed-duration-data.md (ranked by data moved), convergence-idle.md
#                                      (by idle time), convergence-spread.md (by the load spread left),
#                                      docs/study/N-nodes-staggered/convergence.md (staggered phases)
# Each from the spec whose "nodes" hold N: convergence-N.json when there is one (1024 nodes), else
# convergence.json; short, fixed-duration and staggered runs only where their specs hold N.
# docs/study.md quotes these files; study/summaries.sh rewrites (or checks) them for every size.
# Environment: HETLB (build/bin/hetlb), OUT (docs/study), FIGURES (1; 0: the tables alone, for a check).
set -eu
N=${1:?usage: study/report.sh NODES}
HETLB=${HETLB:-build/bin/hetlb}
OUT=${OUT:-docs/study}
FIGURES=${FIGURES:-1}
case $N in
  '' | *[!0-9]*) echo "report.sh: $N: expected a node count (a whole number)" >&2; exit 1 ;;
esac
dir="$OUT/$N-nodes"
report() {  # spec, output path without .md, extra options (a trailing --plot FILE is left out with FIGURES=0)
  spec=$1 name=$2
  shift 2
  if [ "$FIGURES" = 0 ] && [ "${1:-}" = --plot ]; then shift 2; fi
  "$HETLB" campaign "$spec" --yes --report --min-nodes "$N" --max-nodes "$N" "$@" > "$name.md.tmp"
  mv "$name.md.tmp" "$name.md"
}
holds() {  # spec: true when its "nodes" list holds N (on one line or several)
  tr -d ' \t\r\n' < "$1" | grep -Eq "\"nodes\":\[([^]]*[^0-9])?$N([^0-9][^]]*)?\]"
}
convergence=study/convergence-$N.json
[ -f "$convergence" ] || convergence=study/convergence.json
if ! holds "$convergence"; then
  echo "report.sh: no study spec holds $N nodes; expected one of the sizes of study/*.json" >&2
  exit 1
fi
mkdir -p "$dir"
report "$convergence" "$dir/convergence" --plot "$dir/convergence.svg"
report "$convergence" "$dir/convergence-idle" --metric avg_idle_time
report "$convergence" "$dir/convergence-spread" --metric load_spread_percent
if holds study/short.json; then report study/short.json "$dir/short" --plot "$dir/short.svg"; fi
if holds study/fixed-duration.json; then
  report study/fixed-duration.json "$dir/fixed-duration" --plot "$dir/fixed-duration.svg"
  report study/fixed-duration.json "$dir/fixed-duration-data" --metric data_transfer_amount
fi
echo "$dir: $(ls "$dir" | tr '\n' ' ')"
if holds study/convergence-staggered.json; then
  mkdir -p "$dir-staggered"
  report study/convergence-staggered.json "$dir-staggered/convergence"
  echo "$dir-staggered: $(ls "$dir-staggered" | tr '\n' ' ')"
fi
