#!/bin/sh
# The ABI check's own test: a library checked against its own baseline passes; its second version (a
# parameter's type and a structure's size changed, same soname) is refused.
# usage: probe_check.sh SCRIPTS_DIR V1 V2 HEADERS WORK
set -u
scripts=$1 v1=$2 v2=$3 headers=$4 work=$5
command -v abidw > /dev/null || { echo "probe_check: abidw not installed: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
sh "$scripts/abi_record.sh" "$v1" "$work" "$headers" || exit 1
sh "$scripts/abi_check.sh" "$v1" "$work" "$headers" || { echo "probe_check: the baseline's own library was refused"; exit 1; }
if sh "$scripts/abi_check.sh" "$v2" "$work" "$headers" > "$work/v2.log" 2>&1; then
  cat "$work/v2.log"; echo "probe_check: an incompatible change passed"; exit 1
fi
cat "$work/v2.log"
grep -q "changes its ABI incompatibly" "$work/v2.log" && grep -q "hetlb_probe_run" "$work/v2.log" || exit 1
echo "probe_check: the incompatible change was refused"
