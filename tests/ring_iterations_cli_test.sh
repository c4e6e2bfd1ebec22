#!/bin/sh
# hetlb simulate ring-iterations at the command line: the JSON fields, policy sanity (never: none,
# every:1: one per iteration, nobody below the offline optimum), and bad input (one line on stderr,
# non-zero exit, nothing on stdout). Usage: ring_iterations_cli_test.sh HETLB SOURCE_DIR
set -u
HETLB=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
RING="$SRC/examples/ring-iterations/heterogeneous-8.json"
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$2"; }

for p in never every:1 every:5 threshold:1.5 model optimal; do
  "$HETLB" simulate ring-iterations "$RING" --policy $p --iterations 40 --drift window --ratio 0.1 --format json \
    > "$TMP/$p.json" 2> "$TMP/err.txt" || fail "$p: $(cat "$TMP/err.txt")"
  for key in total_time redistributions data_moved imbalance_time redistribution_time; do
    [ -n "$(field $key "$TMP/$p.json")" ] || fail "$p: $key missing"
  done
done
[ "$(field redistributions "$TMP/never.json")" = 0 ] || fail "never redistributed"
[ "$(field redistributions "$TMP/every:1.json")" = 40 ] || fail "every:1 did not redistribute 40 times"
[ "$(field redistributions "$TMP/every:5.json")" = 8 ] || fail "every:5 did not redistribute 8 times"
opt=$(field total_time "$TMP/optimal.json")
for p in never every:1 every:5 threshold:1.5 model; do
  awk -v a="$(field total_time "$TMP/$p.json")" -v o="$opt" 'BEGIN { exit !(a >= o * (1 - 1e-12)) }' || fail "$p below the optimum"
done

printf '3 1 1 1 1 1 1 1\n1 3 1 1 1 1 1 1\n1 1 3 1 1 1 1 1\n' > "$TMP/trace.txt"
"$HETLB" simulate ring-iterations "$RING" --policy every:1 --iterations 3 --drift "$TMP/trace.txt" --ratio 1 > /dev/null 2> "$TMP/err.txt" \
  || fail "trace: $(cat "$TMP/err.txt")"

bad() {  # bad NAME EXPECTED-SUBSTRING ARGS...
  name=$1 expected=$2
  shift 2
  if "$HETLB" simulate ring-iterations "$@" > "$TMP/out.txt" 2> "$TMP/err.txt"; then fail "$name: accepted"; fi
  [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "$name: expected one line on stderr, got: $(cat "$TMP/err.txt")"
  grep -q -- "$expected" "$TMP/err.txt" || fail "$name: expected '$expected' in: $(cat "$TMP/err.txt")"
  [ ! -s "$TMP/out.txt" ] || fail "$name: printed a partial result"
}
printf '1 1 1\n1 1 1\n1 1 1\n' > "$TMP/short.txt"
printf '1 1 1 1 1 1 1 1\n1 1 1 1 -1 3 1 1\n1 1 1 1 1 1 1 1\n' > "$TMP/negative.txt"
bad processors '3 loads, expected 8' "$RING" --policy never --iterations 3 --drift "$TMP/short.txt" --ratio 1
bad negative 'no negative load' "$RING" --policy never --iterations 3 --drift "$TMP/negative.txt" --ratio 1
bad k_zero 'K must be an integer >= 1' "$RING" --policy every:0 --iterations 3 --drift window --ratio 1
bad threshold 'threshold must be >= 1' "$RING" --policy threshold:0.5 --iterations 3 --drift window --ratio 1
bad ratio_zero 'ratio' "$RING" --policy never --iterations 3 --drift window --ratio 0
bad optimal_size "above the offline optimum's limit" "$RING" --policy optimal --iterations 5000 --drift window --ratio 1
bad policy 'expected never, every:K' "$RING" --policy sometimes --iterations 3 --drift window --ratio 1
bad missing_trace 'cannot read' "$RING" --policy never --iterations 3 --drift "$TMP/none.txt" --ratio 1
# Devices, named pipes and out-of-range values: one line, at once (no read of /dev/zero, no wait on a
# FIFO, no loop on a load near 2^63, no infinite totals).
mkfifo "$TMP/fifo"
bad ring_device 'is not a regular file' /dev/zero --policy never --iterations 3 --drift window --ratio 1
bad ring_fifo 'is not a regular file' "$TMP/fifo" --policy never --iterations 3 --drift window --ratio 1
bad trace_device 'is not a regular file' "$RING" --policy never --iterations 3 --drift /dev/zero --ratio 1
bad trace_fifo 'is not a regular file' "$RING" --policy never --iterations 3 --drift "$TMP/fifo" --ratio 1
printf '9223372036854775807 0 0 0 0 0 0 0\n' > "$TMP/huge.txt"
printf '1152921504606846976 1152921504606846976 0 0 0 0 0 0\n' > "$TMP/overflow.txt"
bad trace_huge_load 'at most 2305843009213693951' "$RING" --policy never --iterations 1 --drift "$TMP/huge.txt" --ratio 1
bad trace_total 'loads sum past 2305843009213693951' "$RING" --policy never --iterations 1 --drift "$TMP/overflow.txt" --ratio 1
bad ratio_huge 'expected a number from 1e-09 to 1e+09' "$RING" --policy never --iterations 3 --drift window --ratio 1e308
bad ratio_subnormal "out of a double's range" "$RING" --policy never --iterations 3 --drift window --ratio 1e-308
echo "ok"
