#!/bin/sh
# The ABI check of libhetlb_mpi's C interface against the baseline of its release line (SONAME.abi and
# SONAME.symbols beside this script, written by `make abi-baseline` when a release line starts). Passes when
# the library keeps every function of the baseline with the same types (additions are free); fails, naming
# the change, when one is removed or its parameters, result or structures change.
# usage: abi_check.sh LIBRARY BASELINE_DIR HEADERS_DIR
set -u
lib=$1 dir=$2 headers=$3
command -v abidiff > /dev/null || { echo "abi_check: abidiff not installed (Debian: abigail-tools): skipped"; exit 77; }
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || { echo "abi_check: $lib has no soname"; exit 1; }
baseline=$dir/$soname.abi
if [ ! -f "$baseline" ] || [ ! -f "$dir/$soname.symbols" ]; then
  echo "abi_check: no baseline $baseline: the version in include/hetlb/version.h starts a new release line;" \
       "record its ABI with make abi-baseline and commit $baseline and $dir/$soname.symbols"
  exit 1
fi
abidiff --no-show-locs --no-added-syms --kmi-whitelist "$dir/$soname.symbols" --headers-dir2 "$headers" "$baseline" "$lib"
rc=$?
# abidiff's status is a bit field: 1 error, 2 usage error, 4 a change, 8 a removal. Only the baseline's
# functions are compared (the symbol list), so any change is a change of one of them: a parameter's or
# the result's type, or a structure the caller allocates (its size), which breaks programs built before.
if [ $((rc & 3)) -ne 0 ]; then echo "abi_check: abidiff failed (status $rc)"; exit 1; fi
if [ $((rc & 12)) -ne 0 ]; then
  echo "abi_check: $soname changes its ABI incompatibly (above). Keep the old declaration (HETLB_DEPRECATED," \
       "with its replacement beside it), or start a new release line: bump the version in" \
       "include/hetlb/version.h, list the change in docs/changelog.md, run make abi-baseline"
  exit 1
fi
echo "abi_check: $soname keeps the C ABI of $baseline"
