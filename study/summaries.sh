#!/bin/sh
# Every summary of the study, from the committed results (runs no simulation):
#   study/summaries.sh          rewrites them: per spec (every size) docs/study/NAME.md,
#                                        NAME-ranks.csv and NAME*.svg; per size docs/study/N-nodes*/
#                                        (study/report.sh N); questions 4 and 5 at every size,
#                                        docs/study/fig-q45.dat, fig-q4.svg, fig-q5.svg
#                                        (study/q45_figures.py); the verdicts, docs/study/verdicts/
#                                        (study/verdicts.py: tables, answers and figures)
#   study/summaries.sh --check  rewrites nothing: names each summary (tables and ranks; the
#                                        figures are drawn from the same data) that differs from what
#                                        the results give, or that no results give (a summary of a
#                                        spec or size since removed); exit 1 if one does, 77 if a
#                                        campaign is writing the results
# Run it after adding rows, before committing them: docs/study.md quotes these files.
# Environment: HETLB (build/bin/hetlb), OUT (docs/study), SIZES ("16 64 256 1024"), PYTHON (python3),
# VERDICTS (1; 0 leaves the verdicts out, for a check when verdicts.py --check checks them on its own).
set -eu
HETLB=${HETLB:-build/bin/hetlb}
OUT=${OUT:-docs/study}
SIZES=${SIZES:-16 64 256 1024}
PYTHON=${PYTHON:-python3}
VERDICTS=${VERDICTS:-1}
check=false
case ${1:-} in
  --check) check=true ;;
  '') ;;
  *) echo "summaries.sh: $1: expected --check or no argument" >&2; exit 1 ;;
esac
specs=""
for spec in study/*.json; do
  [ "$spec" = study/smoke.json ] && continue
  results=$(tr -d ' \t\r\n' < "$spec" | sed -n 's/.*"results":"\([^"]*\)".*/\1/p')
  [ -f "$results" ] || continue  # nothing run yet: no summary
  # A campaign appending rows holds the results file's lock: its summaries are not due yet. (Without
  # flock(1) nothing tells: the check runs.)
  if $check && command -v flock > /dev/null && ! flock -n "$results" true; then
    echo "summaries.sh: $results is in use by a running campaign; nothing checked" >&2
    exit 77
  fi
  specs="$specs $spec"
done
target=$OUT
if $check; then
  target=$(mktemp -d)
  trap 'rm -rf "$target"' EXIT
fi
for spec in $specs; do
  name=$(basename "$spec" .json)
  # The check compares tables; the figures are drawn from the same data (and take twice the time).
  if $check; then set --; else set -- --plot "$target/$name.svg"; fi
  "$HETLB" campaign "$spec" --yes --report --ranks "$target/$name-ranks.csv" "$@" > "$target/$name.md.tmp"
  mv "$target/$name.md.tmp" "$target/$name.md"
done
figures=1
$check && figures=0
for nodes in $SIZES; do
  OUT=$target HETLB=$HETLB FIGURES=$figures sh study/report.sh "$nodes" > /dev/null
done
# Questions 4 and 5 at every size, a figure each (from the summaries just written).
if $check; then
  "$PYTHON" study/q45_figures.py --summaries "$target" --out "$target" --no-figures
else
  "$PYTHON" study/q45_figures.py --summaries "$target" --out "$target"
fi
# The verdicts (tables and answers; the figures are drawn from the same tables).
if [ "$VERDICTS" = 0 ]; then
  :
elif $check; then
  "$PYTHON" study/verdicts.py --out "$target/verdicts" --no-figures > /dev/null
else
  "$PYTHON" study/verdicts.py --out "$target/verdicts" > /dev/null
fi
# What balancing by time buys on the real subset (docs/study/grid-real-balance.md).
if [ -f docs/study/grid-real-load.csv ] && [ -f docs/study/grid-real-time.csv ]; then
  if $check; then
    OUT=$target FIGURES=0 sh study/balance_report.sh "$HETLB" > /dev/null
  else
    OUT=$target sh study/balance_report.sh "$HETLB" > /dev/null
  fi
fi
$check || exit 0
stale=0
tables() {  # every checked summary under the current directory
  find . -name '*.md' -o -name '*-ranks.csv' -o -name 'fig-q45.dat' -o -path './verdicts/*.csv' \
    -o -path './verdicts/*.dat' | sort
}
for fresh in $(cd "$target" && tables); do
  if ! cmp -s "$target/$fresh" "$OUT/$fresh"; then
    echo "summaries.sh: ${OUT%/}/${fresh#./} is not what the results give; run study/summaries.sh" >&2
    stale=1
  fi
done
for committed in $(cd "$OUT" && tables); do
  case $committed in ./verdicts/*) [ "$VERDICTS" = 0 ] && continue ;; esac
  if [ ! -f "$target/$committed" ]; then
    echo "summaries.sh: ${OUT%/}/${committed#./} summarises no results (no spec or size writes it); remove it" >&2
    stale=1
  fi
done
[ $stale -eq 0 ] && echo "summaries.sh: every summary in $OUT is what the results give"
exit $stale
