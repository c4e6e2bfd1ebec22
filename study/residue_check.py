#!/usr/bin/env python3
"""Are simple's deadlocks on the lines the draft's (Section 2) or floating-point residue's?

    python3 study/residue_check.py [HETLB] [--nodes N] [--check FILE]

Runs again every committed real-load line run of `simple` at 16 and 64 nodes (convergence.csv, aligned
phases, and convergence-staggered.csv), with the same settings plus `--residue-equal`: a neighbour
lighter by less than 1e-9 of the node's load counts as equal, so that residue can no longer bound the
transfer. Prints one markdown table: per phase, size and virtual-load setting, how many runs converge
under the draft's rule (the committed rows) and with --residue-equal, and for runs that converge both
ways the median ratio of the last convergence dates (residue-equal / draft). About 10 minutes here
(192 runs); progress on stderr. HETLB is build/bin/hetlb by default; --nodes 16 or 64 keeps one size
(16: 96 runs, about 30 s); with --check FILE, prints nothing and exits 1 unless FILE (docs/study-details.md)
holds every row of the table as the runs give it.
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from committed_table import print_or_check_lines  # noqa: E402
from compare_runs import row_args, run  # noqa: E402  (a results row as simulate's arguments; one run)

STUDY = os.path.join(HERE, "..", "docs", "study")
SPECS = [("aligned", "convergence.csv"), ("staggered", "convergence-staggered.csv")]


def main():
    parser = argparse.ArgumentParser(description="simple's committed line runs again with --residue-equal")
    parser.add_argument("hetlb", nargs="?", default="build/bin/hetlb")
    parser.add_argument("--nodes", choices=["16", "64"], help="one size only")
    parser.add_argument("--check", metavar="FILE", help="exit 1 unless FILE holds every row of the table")
    options = parser.parse_args()
    sizes = [options.nodes] if options.nodes else ["16", "64"]
    runs = []
    for phase, name in SPECS:
        for r in csv.DictReader(open(os.path.join(STUDY, name))):
            if (r["strategy"], r["integer"], r["topology"], r["status"]) == ("simple", "false", "line", "ok") \
                    and r["nodes"] in sizes:
                runs.append((phase, r))
    if not runs:
        sys.exit("residue_check.py: no committed real-load line run of simple at 16 or 64 nodes")
    groups = defaultdict(lambda: {"runs": 0, "draft": 0, "equal": 0, "ratios": []})
    for i, (phase, r) in enumerate(runs, 1):
        j = run(options.hetlb, row_args(r) + ["--residue-equal"])
        if "error" in j:
            sys.exit(f"residue_check.py: {options.hetlb} failed: {j['error']}")
        g = groups[(phase, int(r["nodes"]), r["virtual_load"])]
        g["runs"] += 1
        g["draft"] += r["converged"] == "1"
        g["equal"] += bool(j["converged"])
        if r["converged"] == "1" and j["converged"]:
            g["ratios"].append(j["max_convergence_date"] / float(r["max_convergence_date"]))
        print(f"[{i}/{len(runs)}] {phase} {r['platform']} {r['nodes']} {r['initial']} ratio {r['ratio']} "
              f"seed {r['seed']} virtual {r['virtual_load']}: draft {r['converged'] == '1'}, "
              f"residue-equal {j['converged']}", file=sys.stderr, flush=True)
    lines = ["| phases | nodes | virtual load | runs | converge (draft's rule) | converge (--residue-equal) "
             "| date ratio, median (range) |", "|---|---|---|---|---|---|---|"]
    for (phase, nodes, virtual), g in sorted(groups.items()):
        x = g["ratios"]
        ratio = f"{statistics.median(x):.3f} ({min(x):.3f} to {max(x):.3f})" if x else "-"
        lines.append(f"| {phase} | {nodes} | {'yes' if virtual == 'true' else 'no'} | {g['runs']} | {g['draft']} "
                     f"| {g['equal']} | {ratio} |")
    print_or_check_lines(lines, options.check, "residue_check.py")


if __name__ == "__main__":
    main()
