#!/bin/sh
# Two builds of hetlb-peers-diffuse side by side on the dynamic comparison's rows (docs/peers.md, "Two
# builds"), interleaved inside each repetition: the runtime with its defaults (--balancer hetlb, plus
# $OPTS_A / $OPTS_B, e.g. "--hetlb-option start_step=true") in build A and in build B. Prints, per row,
# each build's median time to solution and B / A, then the geometric mean of B / A; the runs go to
# $OUT (a CSV, resumable: a finished run is skipped when run again).
#   A=<build dir> B=<build dir> OUT=<file.csv> sh bench/peers/compare_builds.sh
# Rows: RANKS (8 16), SCENARIOS (steady peak slowdown), INITIALS (single random), RATIOS (compute short
# transfer); REPS (5), WORK (60), LOAD (20), as compare_dynamic.sh.
set -eu
: "${A:?A: the first build directory}" "${B:?B: the second build directory}" "${OUT:?OUT: the CSV to write}"
WHO=compare_builds
. "$(dirname "$0")/dynamic_rows.sh"
INITIALS=${INITIALS:-"single random"}
OPTS_A=${OPTS_A:-}
OPTS_B=${OPTS_B:-}
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe"}
for build in "$A" "$B"; do
  if [ ! -x "$build/bin/hetlb-peers-diffuse" ]; then
    echo "compare_builds: $build/bin/hetlb-peers-diffuse is not built (Zoltan is needed: make deps)" >&2
    exit 2
  fi
done
[ -s "$OUT" ] || echo "ranks,scenario,initial,ratio_label,repetition,build,time_to_solution,items_moved" > "$OUT"
for np in $RANKS; do
  row_ranks "$np"
  for ratio_label in $RATIOS; do
    row_ratio "$ratio_label"
    for scenario in $SCENARIOS; do
      row_scenario "$scenario"
      for initial in $INITIALS; do
        for rep in $(seq 1 "$REPS"); do
          for which in A B; do
            key="$np,$scenario,$initial,$ratio_label,$rep,$which"
            if grep -q "^$key," "$OUT"; then continue; fi
            if [ "$which" = A ]; then build=$A opts=$OPTS_A; else build=$B opts=$OPTS_B; fi
            echo "compare_builds: $np ranks, $scenario, $initial, $ratio_label, repetition $rep, build $which" >&2
            # shellcheck disable=SC2086
            if ! $MPIRUN -np "$np" "$build/bin/hetlb-peers-diffuse" --balancer hetlb $opts $slow --speeds "$speeds" \
              --initial "$initial" --work "$WORK" --load-per-node "$LOAD" --ratio "$ratio" --item-bytes "$bytes" \
              --seed "$rep" > "$OUT.run"; then
              echo "compare_builds: the run above failed (build $build); nothing recorded for it" >&2
              rm -f "$OUT.run"
              exit 1
            fi
            echo "$key,$(tail -n 1 "$OUT.run" | cut -d, -f8,9)" >> "$OUT"
            rm -f "$OUT.run"
          done
        done
      done
    done
  done
done
awk -F, 'NR > 1 { k = $1 "," $2 "," $3 "," $4; t[k, $6] = t[k, $6] " " $7; keys[k] = 1 }
  function median(s,   a, n, i, j, x) {
    n = split(s, a, " ")
    for (i = 2; i <= n; ++i) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; --j) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    print "| ranks | scenario | initial | ratio | A (s) | B (s) | B / A |"
    print "|---|---|---|---|---|---|---|"
    for (k in keys) {
      if (!((k, "A") in t) || !((k, "B") in t)) continue
      a = median(t[k, "A"]); b = median(t[k, "B"]); split(k, f, ",")
      printf "| %s | %s | %s | %s | %.3f | %.3f | %.3f |\n", f[1], f[2], f[3], f[4], a, b, b / a | "sort -t\"|\" -k2,2n -k5,5 -k4,4 -k3,3"
      log_sum += log(b / a); ++rows
    }
    close("sort -t\"|\" -k2,2n -k5,5 -k4,4 -k3,3")
    if (rows > 0) printf "geometric mean of B / A over %d rows: %.3f\n", rows, exp(log_sum / rows)
  }' "$OUT"
