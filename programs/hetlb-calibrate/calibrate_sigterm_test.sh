#!/bin/sh
# hetlb calibrate -n N, SIGTERM once its ranks are starting or measuring: it must end within 10 s,
# non-zero, and leave no rank behind (issue 31: 40 s, and an mpirun waiting for minutes on a rank
# stuck in MPI_Init). Usage: calibrate_sigterm_test.sh HETLB N SECONDS_BEFORE_SIGTERM
H=$1; N=$2; WAIT=$3
dir=$(mktemp -d)
"$H" calibrate -n "$N" -- --output "$dir/x.json" > "$dir/out" 2> "$dir/err" &
pid=$!
sleep "$WAIT"
start=$(date +%s)
kill -TERM "$pid"
wait "$pid"; rc=$?
end=$(date +%s)
sleep 1
left=$(pgrep -f "$dir/x.json" | wc -l)
pkill -KILL -f "$dir/x.json" 2>/dev/null
rm -rf "$dir"
echo "exit $rc after $((end - start)) s, $left processes left"
[ "$rc" -ne 0 ] || { echo "expected a non-zero exit"; exit 1; }
[ $((end - start)) -le 10 ] || { echo "expected the end within 10 s of SIGTERM"; exit 1; }
[ "$left" -eq 0 ] || { echo "expected no rank left"; exit 1; }
