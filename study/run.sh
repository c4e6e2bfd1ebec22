#!/bin/sh
# The diffusion study in resumable pieces (make study runs this in the background):
#   study/run.sh [SPEC.json ...]     default: every study spec (study-1, then study-2)
# Each piece is one `hetlb campaign SPEC --budget PIECE_SECONDS`: it starts runs for PIECE_SECONDS,
# waits for those in progress, appends their rows to the spec's results CSV, and writes the spec's
# summary (OUT/NAME.md) and figures (OUT/NAME*.svg). Kill it at any time; run it again to resume
# (finished settings are skipped, only runs in progress are lost). It commits nothing: AFTER_PIECE,
# when set, is run after every piece (e.g. a command that commits the CSVs).
# Environment: HETLB (build/bin/hetlb), JOBS (nproc), PIECE_SECONDS (3600), OUT (docs/study),
# SIZES ("16 64 256 1024": node counts, each finished in every spec before the next),
# ALLOW_MIXED_BUILDS (set: add rows to results files holding rows of another build, or of none:
# hetlb campaign --allow-mixed-builds; otherwise such a file is refused, in one line, when a spec
# has settings left to run in it).
set -u
HETLB=${HETLB:-build/bin/hetlb}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
PIECE_SECONDS=${PIECE_SECONDS:-3600}
SIZES=${SIZES:-16 64 256 1024}
OUT=${OUT:-docs/study}
AFTER_PIECE=${AFTER_PIECE:-}
mixed=${ALLOW_MIXED_BUILDS:+--allow-mixed-builds}
# The cheap specs first at each size: short runs (50 tau) and fixed durations (100 tau) answer their
# questions long before the convergence runs (up to 20,000 tau each) are done.
# Then the study-2 specs (more seeds, durations in N tau, the long 256-node lines; no wall-clock timeout),
# each size's cheapest first; the study-1 specs, complete, are skipped in seconds.
if [ $# -eq 0 ]; then
  set -- study/short.json study/fixed-duration.json study/convergence.json \
    study/short-n16.json study/short-n64.json study/short-n256.json \
    study/fixed-duration-n16.json study/fixed-duration-n64.json \
    study/fixed-duration-n256.json study/convergence-seeds.json \
    study/convergence-seeds-256.json study/line-256-long.json \
    study/convergence-1024.json
fi
mkdir -p "$OUT"
# Stopped (kill PID): the campaign in progress stops too; its finished runs are in the CSV.
child=""
trap 'if [ -n "$child" ]; then kill "$child" 2>/dev/null; fi; echo "== stopped"; exit 143' TERM INT HUP
# Breadth first: every spec at 16 nodes, then every spec at 64, ... so that each size is complete
# (every question answered) before the next, larger and much longer one starts.
for nodes in $SIZES; do
  for spec in "$@"; do
    name=$(basename "$spec" .json)
    while :; do
      echo "== $(date -u '+%F %T') $spec, up to $nodes nodes: piece of $PIECE_SECONDS s on $JOBS jobs"
      # Temporary files of this script's own (another run.sh on the same spec is refused by the
      # results file's lock, and must not touch this one's summary).
      summary="$OUT/$name.md.$$.tmp" log="$OUT/$name.log.$$.tmp"
      "$HETLB" campaign "$spec" -j "$JOBS" --yes --smallest-first --max-nodes "$nodes" --budget "$PIECE_SECONDS" \
        --ranks "$OUT/$name-ranks.csv" --plot "$OUT/$name.svg" $mixed > "$summary" 2> "$log" &
      child=$!
      wait "$child"
      status=$?
      child=""
      cat "$log"
      # A refused or failed piece writes no summary: the last one stays.
      if [ -s "$summary" ]; then mv "$summary" "$OUT/$name.md"; else rm -f "$summary"; fi
      if [ -n "$AFTER_PIECE" ]; then sh -c "$AFTER_PIECE"; fi
      if grep -q "settings left" "$log"; then rm -f "$log"; continue; fi
      rm -f "$log"
      # Done (or stopped by bad input: the error line is above). Failed runs are recorded as such.
      [ $status -eq 0 ] || echo "== $spec: exit status $status"
      break
    done
  done
done
echo "== $(date -u '+%F %T') study done"
