#!/usr/bin/env python3
"""How fast each strategy follows a load peak (issue 29, item 6; docs/simulation.md, "Unlike speeds").

One node's host is slowed FACTOR times from START to END (hetlb simulate diffusion --slowdown, SimGrid
speed profiles). The recovery time is the time from START until the time imbalance I (max over nodes
of load / current speed, divided by the time-balanced ideal: the --trace column time_imbalance) is
within 5% (I <= 1.05) and stays there until END. "never" if it is not back before END.

  slowdown_recovery.py HETLB OUT.csv         run every setting, write the rows (CSV)
  slowdown_recovery.py --self-test          the recovery measure on hand-made traces
  slowdown_recovery.py HETLB OUT.csv --check rerun and compare with the committed OUT.csv (the simulator
                                             is deterministic: any difference is an error)

The settings: the 16-node cluster torus (node 5 slowed 4x from 60 s to 110 s) and the 16-node real
Grid'5000 subset torus (its fastest node slowed 4x, same dates), random load (seed 1), balanced before
the peak (imbalance_before: I just before START); best effort k = 1, Makhoul and simple, with and
without virtual load; balanced by time and by load.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

BAND = 1.05
SETTINGS = [
    # (label, platform options, slowed node, factor, start, end)
    ("cluster", ["--platform", "cluster", "--initial", "random", "--seed", "1"], 5, 4, 60, 110),
    ("grid-real", ["--platform", "grid-real", "--initial", "random", "--seed", "1"], None, 4, 60, 110),
]
VARIANTS = [
    ("besteffort", False), ("besteffort", True), ("makhoul", False), ("makhoul", True), ("simple", False),
]
COLUMNS = ["platform", "balance", "strategy", "virtual_load", "slowed_node", "factor", "start", "end",
           "imbalance_before", "peak_imbalance", "recovery_seconds", "imbalance_at_end", "data_transfer_amount"]


def fastest_node(hetlb):
    """The node whose host is fastest on the 16-node real subset (first of equals)."""
    out = subprocess.run([hetlb, "simulate", "diffusion", "--platform", "grid-real", "--nodes", "16",
                          "--topology", "torus", "--iterations", "1", "--time-limit", "0.001", "--format",
                          "json"], check=True, capture_output=True, text=True).stdout
    speeds = json.loads(out)["node_speeds"]
    return max(range(len(speeds)), key=lambda i: (speeds[i], -i))


def recovery(trace_text, start, end):
    """(I just before START, peak I during the slowdown, seconds from START until I stays <= BAND until
    END, I at END)."""
    rows = [(float(r["date"]), float(r["time_imbalance"])) for r in csv.DictReader(io.StringIO(trace_text))]
    before = [i for d, i in rows if d < start]
    during = [(d, i) for d, i in rows if start <= d <= end]
    if not during:
        raise SystemExit(f"slowdown_recovery: the trace has no sample between {start} and {end} s")
    peak = max(i for _, i in during)
    back = None
    for d, i in during:
        if i <= BAND:
            if back is None:
                back = d
        else:
            back = None
    at_end = during[-1][1]
    return (before[-1] if before else float("nan")), peak, ("never" if back is None else f"{back - start:.1f}"), at_end


def run_all(hetlb):
    rows = []
    for label, options, node, factor, start, end in SETTINGS:
        if node is None:
            node = fastest_node(hetlb)
        for balance in ("time", "load"):
            for strategy, virtual in VARIANTS:
                with tempfile.TemporaryDirectory() as tmp:
                    trace = os.path.join(tmp, "trace.csv")
                    cmd = [hetlb, "simulate", "diffusion", *options, "--nodes", "16", "--topology", "torus",
                           "--strategy", strategy, "--balance", balance, "--iterations", "100000",
                           "--time-limit", "150", "--trace-interval", "0.1",
                           "--slowdown", f"{node}:{factor}:{start}:{end}", "--trace", trace, "--format", "json"]
                    if virtual:
                        cmd.append("--virtual-load")
                    print("slowdown_recovery:", label, balance, strategy, "virtual" if virtual else "",
                          file=sys.stderr)
                    result = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                    with open(trace) as f:
                        before, peak, back, at_end = recovery(f.read(), start, end)
                rows.append({"platform": label, "balance": balance, "strategy": strategy,
                             "virtual_load": str(virtual).lower(), "slowed_node": node, "factor": factor,
                             "start": start, "end": end, "imbalance_before": f"{before:.2f}", "peak_imbalance": f"{peak:.2f}",
                             "recovery_seconds": back, "imbalance_at_end": f"{at_end:.2f}",
                             "data_transfer_amount": f"{result['data_transfer_amount']:.4g}"})
    return rows


def to_csv(rows):
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def self_test():
    """recovery() on hand-made traces: back within the band, back then out again, never back."""
    head = "date,node0,time_imbalance\n"
    trace = head + "".join(f"{d},0,{i}\n" for d, i in [(9, 1.0), (10, 3.0), (12, 1.2), (13, 1.04), (14, 1.0), (20, 1.0)])
    assert recovery(trace, 10, 20) == (1.0, 3.0, "3.0", 1.0), recovery(trace, 10, 20)
    relapse = head + "".join(f"{d},0,{i}\n" for d, i in [(10, 3.0), (11, 1.0), (12, 1.5), (15, 1.01), (20, 1.02)])
    assert recovery(relapse, 10, 20)[2] == "5.0", recovery(relapse, 10, 20)
    stuck = head + "".join(f"{d},0,{i}\n" for d, i in [(10, 3.0), (15, 1.0), (20, 1.06)])
    assert recovery(stuck, 10, 20)[2] == "never", recovery(stuck, 10, 20)
    print("slowdown_recovery: self-test passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        raise SystemExit("usage: slowdown_recovery.py HETLB OUT.csv [--check]")
    hetlb, path = argv[1], argv[2]
    text = to_csv(run_all(hetlb))
    if len(argv) == 4:
        with open(path) as f:
            committed = f.read()
        if committed != text:
            sys.stderr.write(f"slowdown_recovery: {path} differs from a rerun:\n{text}")
            return 1
        print(f"slowdown_recovery: {path} reproduced")
        return 0
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
