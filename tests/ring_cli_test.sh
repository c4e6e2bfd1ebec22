#!/bin/sh
# hetlb ring at the command line: valid plans verify; bad input gives one line on stderr, a non-zero
# exit and no output file. Usage: ring_cli_test.sh HETLB SOURCE_DIR
set -u
HETLB=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for f in "$SRC"/examples/ring-*.json; do
  "$HETLB" ring "$f" --verify > "$TMP/out.txt" 2> "$TMP/err.txt" || fail "$f: $(cat "$TMP/err.txt")"
  "$HETLB" ring "$f" --bidirectional --verify --format json > "$TMP/plan.json" 2> "$TMP/err.txt" || fail "$f bidirectional: $(cat "$TMP/err.txt")"
  for key in '"algorithm"' '"time"' '"lower_bound"' '"optimal"' '"transfers"' '"final_loads"'; do
    grep -q "$key" "$TMP/plan.json" || fail "$f: $key missing from --format json"
  done
  "$HETLB" ring "$f" --bidirectional --schedule "$TMP/plan.json" > /dev/null 2>&1 || fail "$f: own plan rejected by --schedule"
done

# A tampered schedule is rejected with one line.
sed 's/"start": 0.0/"start": 0.5/' "$TMP/plan.json" > "$TMP/bad-plan.json"
if ! cmp -s "$TMP/plan.json" "$TMP/bad-plan.json"; then
  "$HETLB" ring "$SRC/examples/ring-forwarding.json" --bidirectional --schedule "$TMP/bad-plan.json" > /dev/null 2> "$TMP/err.txt" && fail "tampered schedule accepted"
  [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "tampered schedule: expected one line, got: $(cat "$TMP/err.txt")"
fi

bad() {  # bad NAME EXPECTED-SUBSTRING JSON
  printf '%s\n' "$3" > "$TMP/$1.json"
  rm -f "$TMP/$1.png"
  if "$HETLB" ring "$TMP/$1.json" --gantt "$TMP/$1.png" > "$TMP/out.txt" 2> "$TMP/err.txt"; then fail "$1: accepted"; fi
  [ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$TMP/err.txt")"
  grep -q -- "$2" "$TMP/err.txt" || fail "$1: expected '$2' in: $(cat "$TMP/err.txt")"
  grep -q '^hetlb: error: ' "$TMP/err.txt" || fail "$1: expected the hetlb: error: prefix"
  [ ! -e "$TMP/$1.png" ] || fail "$1: left an output file"
  [ ! -s "$TMP/out.txt" ] || fail "$1: printed a partial result"
}
bad lengths 'targets: 2 values for 3 loads' '{"loads": [1, 2, 3], "targets": [3, 3], "succ_cost": 1}'
bad sums 'differs from the loads' '{"loads": [1, 2, 3], "targets": [3, 3, 3], "succ_cost": 1}'
bad negative_load 'loads\[1\]: value -2 is negative' '{"loads": [1, -2, 3], "targets": [1, 1, -1], "succ_cost": 1}'
bad negative_cost 'succ_cost\[0\]' '{"loads": [1, 2], "targets": [2, 1], "succ_cost": [-1, 1]}'
bad zero_cost 'pred_cost: value 0 is not a cost' '{"loads": [1, 2], "targets": [2, 1], "succ_cost": 1, "pred_cost": 0}'
bad one_processor 'at least 2' '{"loads": [4], "targets": [4], "succ_cost": 1}'
bad not_a_number 'loads\[0\]: expected an integer' '{"loads": ["many", 2], "targets": [2, 1], "succ_cost": 1}'
bad not_json 'malformed JSON' '{"loads": [1, 2'
if "$HETLB" ring "$TMP/missing.json" > /dev/null 2> "$TMP/err.txt"; then fail "missing file accepted"; fi
grep -q 'cannot read the ring file' "$TMP/err.txt" || fail "missing file: $(cat "$TMP/err.txt")"
if "$HETLB" ring "$SRC/examples/ring-homogeneous.json" --gantt "$TMP/x.pdf" > /dev/null 2> "$TMP/err.txt"; then fail "pdf accepted"; fi
[ "$(wc -l < "$TMP/err.txt")" -eq 1 ] || fail "bad figure name: $(cat "$TMP/err.txt")"

if command -v gnuplot > /dev/null 2>&1; then
  "$HETLB" ring "$SRC/examples/ring-heterogeneous.json" --gantt "$TMP/g.svg" > /dev/null 2> "$TMP/err.txt" || fail "gantt: $(cat "$TMP/err.txt")"
  grep -q '<svg' "$TMP/g.svg" || fail "gantt: not an SVG"
fi
echo "ring CLI tests passed"
