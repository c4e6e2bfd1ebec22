#!/bin/sh
# Writes, for `ctest -I FILE` in the Release build, the numbers of its tests that the sanitized build does
# not run (an empty FILE when there is none) (labelled no-sanitizer there, or not defined there: SMPI, Python, Fortran, install, study checks).
# make test runs every other test once, sanitized. Usage: tests_not_sanitized.sh BUILD ASAN FILE
set -eu
build=$1 asan=$2 out=$3
names() { sed -n 's/^ *Test *#\([0-9][0-9]*\): \(.*\)$/\1 \2/p'; }
(cd "$asan" && ctest -N -LE no-sanitizer) | names | cut -d' ' -f2- | sort -u > "$out.sanitized"
(cd "$build" && ctest -N) | names > "$out.release"
[ -s "$out.sanitized" ] || { echo "tests_not_sanitized.sh: $asan lists no test" >&2; exit 1; }
numbers=$(awk 'NR == FNR { s[$0] = 1; next }
  { n = $1; sub(/^[0-9]+ /, ""); if (!($0 in s)) printf ",%s", n }' "$out.sanitized" "$out.release")
if [ -n "$numbers" ]; then echo "0,0,0$numbers" > "$out"; else : > "$out"; fi
echo "tests_not_sanitized.sh: $(echo "$numbers" | tr -cd , | wc -c) of $(wc -l < "$out.release") Release tests run here;" \
  "$(wc -l < "$out.sanitized") ran sanitized" >&2
