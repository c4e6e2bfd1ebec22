#!/bin/sh
# The study's verdicts (docs/study/verdicts/, which docs/study.md quotes) are what the committed rows give;
# the exact bootstrap interval is the brute-force one and the numpy intervals the pure-Python ones
# (--self-test); a stale table is named, and only it: tables written from a small copy of the rows (the
# 1,024-node file) get one edit, and --check must name that table and no other.
# Usage: verdicts_current_test.sh PYTHON WORKDIR (run from the source tree). Exit 77 while a campaign
# appends rows, or without Python.
set -u
py=$1 work=$2
command -v "$py" > /dev/null || exit 77
"$py" study/verdicts.py --self-test || exit 1
status=0
"$py" study/verdicts.py --check || status=$?
[ $status -eq 0 ] || exit $status
rm -rf "$work" && mkdir -p "$work/rows" && cp docs/study/convergence-1024.csv "$work/rows/" || exit 1
"$py" study/verdicts.py --rows "$work/rows" --out "$work/tables" --no-figures > /dev/null || exit 1
sed -i '2s/,[a-z]*$/,tie-edited/' "$work/tables/k.csv"
if "$py" study/verdicts.py --rows "$work/rows" --out "$work/tables" --check 2> "$work/check.err"; then
  echo "verdicts_current_test: an edited k.csv passed the check" >&2
  exit 1
fi
named=$(grep "is not what the rows give" "$work/check.err")
if [ "$(printf '%s\n' "$named" | grep -c .)" -ne 1 ] || ! printf '%s\n' "$named" | grep -q "tables/k.csv is not"; then
  cat "$work/check.err" >&2
  echo "verdicts_current_test: the check should name the edited k.csv and nothing else (above)" >&2
  exit 1
fi
echo "verdicts_current_test: the verdicts are current; the edited table was named, and only it"
