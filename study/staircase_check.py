#!/usr/bin/env python3
"""Does virtual load remove the integer staircase on the line? (the journal version of the draft: without
virtual load integer loads end on a staircase, with it they reach the uniform distribution)

    python3 study/staircase_check.py [HETLB] [--check FILE]

Runs again, with a load trace, the committed integer-load runs of the cluster's 64-node line (best effort
k = 1, ratio 1, seed 1, from a single node and from random loads; convergence.csv), with and without
virtual load, and prints one markdown table: per run the converged nodes (which must be the committed
row's), the loads at the end from node 0 to node 63, the largest difference between neighbours and between
any two nodes (units), the first sampled date (every 100 tau) from which the loads no longer change, and
whether the run with virtual load ends where the run without it does. About 20 s here. HETLB is
build/bin/hetlb by default; with --check FILE, prints nothing and exits 1 unless FILE
(docs/study-details.md) holds every row of the table as the runs give it.
"""
import argparse
import csv
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from committed_table import print_or_check_lines  # noqa: E402
from compare_runs import row_args, run  # noqa: E402  (a results row as simulate's arguments; one run)

STUDY = os.path.join(HERE, "..", "docs", "study")
SETTING = {"spec_version": "study-1", "platform": "cluster", "nodes": "64", "topology": "line", "strategy": "besteffort",
           "k": "1", "integer": "true", "ratio": "1", "seed": "1", "estimates": "accounted"}
SAMPLE_TAU = 100


def committed_rows():
    """The setting's committed rows, by (initial load, virtual load)."""
    rows = {}
    for r in csv.DictReader(open(os.path.join(STUDY, "convergence.csv"))):
        if all(r[k] == v for k, v in SETTING.items()) and r["status"] == "ok":
            rows[(r["initial"], r["virtual_load"])] = r
    want = [(i, v) for i in ("single", "random") for v in ("false", "true")]
    if sorted(rows) != sorted(want):
        sys.exit(f"staircase_check.py: convergence.csv lacks the committed rows of {SETTING}, expected {want}")
    return [(key, rows[key]) for key in want]


def end_state(trace_path, nodes):
    """The loads of the trace's last sample and the first sampled date from which they no longer change."""
    with open(trace_path) as f:
        samples = [(float(r["date"]), [int(float(r[f"node{i}"])) for i in range(nodes)]) for r in csv.DictReader(f)]
    last = samples[-1][1]
    since = samples[-1][0]
    for date, loads in reversed(samples):
        if loads != last:
            break
        since = date
    return last, since


def main():
    parser = argparse.ArgumentParser(description="the integer staircase on the 64-node line, with and without virtual load")
    parser.add_argument("hetlb", nargs="?", default="build/bin/hetlb")
    parser.add_argument("--check", metavar="FILE", help="exit 1 unless FILE holds every row of the table")
    options = parser.parse_args()
    lines = ["| initial load | virtual load | converged nodes | loads at the end, node 0 to 63 | largest neighbour "
             "difference | largest difference within a neighbourhood | largest difference | unchanged from (tau) | same end "
             "as without virtual load |",
             "|---|---|---|---|---|---|---|---|---|"]
    ends = {}
    with tempfile.TemporaryDirectory() as tmp:
        for (initial, virtual), r in committed_rows():
            trace = os.path.join(tmp, f"{initial}-{virtual}.csv")
            tau = float(r["tau"])
            j = run(options.hetlb, row_args(r) + ["--trace", trace, "--trace-interval", str(SAMPLE_TAU * tau)])
            if "error" in j:
                sys.exit(f"staircase_check.py: {options.hetlb} failed: {j['error']}")
            if j["converged_nodes"] != int(r["converged_nodes"]):
                sys.exit(f"staircase_check.py: {initial} load, virtual load {virtual}: {j['converged_nodes']} nodes "
                         f"converge, the committed row says {r['converged_nodes']}")
            n = int(r["nodes"])
            loads, since = end_state(trace, n)
            if sum(loads) != n * int(float(r["load_per_node"])):
                sys.exit(f"staircase_check.py: {initial} load, virtual load {virtual}: the loads at the end add up "
                         f"to {sum(loads)}, expected {n * int(float(r['load_per_node']))}")
            ends[(initial, virtual)] = loads
            step = max(abs(a - b) for a, b in zip(loads, loads[1:]))
            # DASUD's proven end state: in every neighbourhood (a node and its neighbours, on the line three
            # consecutive nodes) any two loads differ by at most one unit.
            domain = max(max(loads[i:i + 3]) - min(loads[i:i + 3]) for i in range(len(loads) - 2))
            same = "-" if virtual == "false" else ("yes" if loads == ends[(initial, "false")] else "no")
            shown = " ".join(str(x) for x in loads)
            lines.append(f"| {initial} | {'yes' if virtual == 'true' else 'no'} | {j['converged_nodes']} of {n} | "
                         f"{shown} | {step} | {domain} | {max(loads) - min(loads)} | {since / tau:.0f} | {same} |")
            print(f"{initial} load, virtual load {virtual}: done", file=sys.stderr, flush=True)
    print_or_check_lines(lines, options.check, "staircase_check.py")


if __name__ == "__main__":
    main()
