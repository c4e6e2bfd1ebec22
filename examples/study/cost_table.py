#!/usr/bin/env python3
"""What the study cost here: one row per spec and size, from the committed results.

    python3 examples/study/cost_table.py [--check FILE]

Columns: the runs done of the spec's settings at that size (the rest still to run), the runs' own wall
times added up (`wall_seconds`, in hours), the runs that reached the spec's wall-clock timeout, and per
topology the median and the longest run. The settings per size come from `hetlb campaign SPEC --report`
(HETLB, default build/bin/hetlb). With --check FILE, prints nothing and exits 1 unless FILE
(docs/study.md) holds the table as it is now, 77 if a campaign is writing a results file (its rows
are not committed yet).
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

from committed_table import print_or_check, rows_file

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SPECS = ["convergence", "convergence-staggered", "short", "fixed-duration", "convergence-1024"]
TOPOLOGIES = ["line", "torus", "hypercube"]


def settings(spec, nodes):
    """Settings of `spec` at `nodes`: runs + missing of its report's 'Runs per variant' table."""
    hetlb = os.environ.get("HETLB", os.path.join(ROOT, "build", "bin", "hetlb"))
    out = subprocess.run([hetlb, "campaign", spec, "--yes", "--report", "--min-nodes", nodes, "--max-nodes", nodes],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    table = out.split("Runs per variant", 1)[1].split("\n\n")[1]
    total = 0
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        total += int(cells[1]) + int(cells[6])
    return total


def duration(seconds):
    return f"{seconds:.1f} s" if seconds < 60 else f"{seconds / 60:.1f} min"


def main():
    args = sys.argv[1:]
    check = args[1] if len(args) == 2 and args[0] == "--check" else None
    if args and check is None:
        sys.exit("usage: cost_table.py [--check FILE]")
    lines = ["| spec | nodes | runs done | run time | timeouts | " +
             " | ".join(f"{t}: median, longest" for t in TOPOLOGIES) + " |",
             "|---" * (5 + len(TOPOLOGIES)) + "|"]
    for name in SPECS:
        spec = os.path.join("examples", "study", name + ".json")
        results = os.path.join(ROOT, json.load(open(os.path.join(ROOT, spec)))["results"])
        if not os.path.exists(results):
            continue
        with rows_file(results, check, "cost_table.py") as f:
            rows = list(csv.DictReader(f))
        by_nodes = defaultdict(list)
        for r in rows:
            by_nodes[int(r["nodes"])].append(r)
        for nodes in sorted(by_nodes):
            runs = by_nodes[nodes]
            wall = defaultdict(list)
            for r in runs:
                wall[r["topology"]].append(float(r["wall_seconds"]))
            cells = [name, f"{nodes:,}", f"{len(runs):,} of {settings(spec, str(nodes)):,}",
                     f"{sum(sum(w) for w in wall.values()) / 3600:.1f} h",
                     str(sum(r["status"] == "timeout" for r in runs))]
            cells += [f"{duration(statistics.median(wall[t]))}, {duration(max(wall[t]))}" if wall[t] else "-"
                      for t in TOPOLOGIES]
            lines.append("| " + " | ".join(cells) + " |")
    print_or_check("\n".join(lines) + "\n", check, "cost_table.py", "the cost table", "cost_table.py")


if __name__ == "__main__":
    main()
