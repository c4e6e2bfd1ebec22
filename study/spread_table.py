#!/usr/bin/env python3
"""Where nothing converges: the loads' spread left at the time limit, from the committed convergence runs.

    python3 study/spread_table.py NODES PLATFORM TOPOLOGY [--check FILE]

One markdown table: per variant, the median over seeds of `load_spread_percent` (standard deviation of
the final loads in % of the average) for each initial load, load kind and ratio; "timeout" where no run
of the cell ended within the campaign's wall-clock timeout, "-" where none ran yet. Below it, how many
runs of those converged and how many are missing. `N-nodes/convergence-spread.md` ranks the same
column per configuration. A later row of a run (a timeout rerun with `--retry`) replaces the earlier
one. With --check FILE, prints nothing and exits 1 unless FILE (docs/study-details.md) holds the table
as it is now, 77 if a campaign is writing the results (its rows are not committed yet).
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

from committed_table import print_or_check, rows_file

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "study", "convergence.csv")
VARIANTS = [f"besteffort k={k}{v}" for k in (1, 2, 4) for v in ("", " +virtual")] + \
    [s + v for s in ("makhoul", "simple") for v in ("", " +virtual")]
COLUMNS = [(init, integer, ratio) for init in ("single", "random") for integer in ("false", "true")
           for ratio in ("10", "1", "0.1")]


def variant(r):
    v = r["strategy"] + (" k=" + r["k"] if r["strategy"] == "besteffort" else "")
    return v + (" +virtual" if r["virtual_load"] == "true" else "")


def main():
    args = sys.argv[1:]
    check = None
    if len(args) == 5 and args[3] == "--check":
        check = args.pop(4)
        args.pop(3)
    if len(args) != 3:
        sys.exit("usage: spread_table.py NODES PLATFORM TOPOLOGY [--check FILE]")
    nodes, platform, topology = args
    latest = {}  # a later row of a run replaces an earlier one (a timeout rerun with --retry)
    for r in csv.DictReader(rows_file(RESULTS, check, "spread_table.py")):
        if (r["nodes"], r["platform"], r["topology"]) == (nodes, platform, topology):
            latest[(variant(r), r["initial"], r["integer"], r["ratio"], r["seed"])] = r
    spread, runs = defaultdict(list), defaultdict(list)
    converged = 0
    for run, r in latest.items():
        key = run[:-1]  # the cell: the run without its seed
        runs[key].append(r)
        converged += r["converged"] == "1"
        if r["status"] == "ok" and r["load_spread_percent"]:
            spread[key].append(float(r["load_spread_percent"]))
    if not runs:
        sys.exit(f"spread_table.py: no convergence run of {nodes} nodes, platform {platform}, topology {topology}")

    def cell(key):
        if spread[key]:
            x = statistics.median(spread[key])
            return f"{x:,.0f}" if x >= 10 else f"{x:.2f}"
        return "timeout" if runs[key] else "-"

    lines = ["| variant | " + " | ".join(f"{'one node' if i == 'single' else 'random'}, "
                                       f"{'integer' if n == 'true' else 'real'}, ratio {r}" for i, n, r in COLUMNS) + " |",
             "|---" * (len(COLUMNS) + 1) + "|"]
    lines += [f"| {v} | " + " | ".join(cell((v, *c)) for c in COLUMNS) + " |" for v in VARIANTS]
    total = sum(len(x) for x in runs.values())
    lines += ["", f"{total} runs, {converged} converged; medians over the seeds of each cell"]
    print_or_check("\n".join(lines) + "\n", check, "spread_table.py", f"the table of {nodes} nodes, {platform}, {topology}",
                   f"spread_table.py {nodes} {platform} {topology}")


if __name__ == "__main__":
    main()
