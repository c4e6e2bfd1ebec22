#!/bin/sh
# Records the ABI baseline of a release line (make abi-baseline): the C functions the library exports
# (SONAME.symbols, hetlb_*) and their types from its debug information (SONAME.abi, libabigail's abidw).
# usage: abi_record.sh LIBRARY OUT_DIR HEADERS_DIR
set -eu
lib=$1 dir=$2 headers=$3
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || { echo "abi_record: $lib has no soname" >&2; exit 1; }
symbols=$dir/$soname.symbols
{ echo "[hetlb_c_api_whitelist]"; nm -D --defined-only "$lib" | awk '$2 ~ /^[TW]$/ && $3 ~ /^hetlb_/ { print "  " $3 }' | sort; } > "$symbols.tmp"
abidw --headers-dir "$headers" --drop-private-types --no-show-locs --no-corpus-path --kmi-whitelist "$symbols.tmp" \
  --out-file "$dir/$soname.abi.tmp" "$lib"
mv "$symbols.tmp" "$symbols" && mv "$dir/$soname.abi.tmp" "$dir/$soname.abi"
echo "abi_record: $dir/$soname.abi and $symbols ($(($(wc -l < "$symbols") - 1)) functions)"
