#!/usr/bin/env python3
"""Is the integer staircase a matter of the line's size, the ratio or the strategy? (the journal version of
the draft: with virtual load integer loads reach the uniform distribution; here they end on the same
staircase as without it, study-details.md)

    python3 study/staircase_sizes.py [HETLB] [--check FILE]

Integer load on the line of 16, 32, 48 and 64 nodes of the cluster and of the grid (the platform is one
candidate cause: the grid's links are unlike, so the dates at which loads arrive differ), best effort k = 1,
ratio 1, seed 1,
balanced by load units (the papers' model), from a single node and from random loads, each with and without
virtual load: per platform, line size and initial load, the converged nodes and the spread of the loads at the end
(largest minus smallest, units) without and with virtual load, whether the two runs end on the same loads,
and whether the spread fits in the 1% band around the mean (the criterion that counts a node converged).
About 40 s here. HETLB is build/bin/hetlb by default; with --check FILE, prints nothing and exits 1 unless
FILE (docs/study-details.md) holds every row of the table as the runs give it.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from committed_table import print_or_check_lines  # noqa: E402
from compare_runs import run  # noqa: E402
from staircase_check import end_state  # noqa: E402  (the loads of a trace's last sample)

PLATFORMS = ("cluster", "grid")
SIZES = (16, 32, 48, 64)
LOAD_PER_NODE = 1000
BAND = 0.01


def main():
    parser = argparse.ArgumentParser(description="the integer staircase on lines of 16 to 64 nodes")
    parser.add_argument("hetlb", nargs="?", default="build/bin/hetlb")
    parser.add_argument("--check", metavar="FILE", help="exit 1 unless FILE holds every row of the table")
    options = parser.parse_args()
    lines = ["| platform | line | initial load | converged nodes, without / with virtual load | spread at the end (units), "
             "without / with | same loads at the end | spread within the 1% band |",
             "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for platform, n in ((p, n) for p in PLATFORMS for n in SIZES):
            for initial in ("single", "random"):
                got = {}
                for virtual in (False, True):
                    trace = os.path.join(tmp, f"{platform}-{n}-{initial}-{virtual}.csv")
                    args = ["--platform", platform, "--nodes", str(n), "--topology", "line", "--strategy", "besteffort",
                            "--k", "1", "--integer", "--initial", initial, "--ratio", "1", "--seed", "1", "--balance",
                            "load", "--load-per-node", str(LOAD_PER_NODE), "--trace", trace, "--trace-interval", "100"]
                    j = run(options.hetlb, args + (["--virtual-load"] if virtual else []))
                    if "error" in j:
                        sys.exit(f"staircase_sizes.py: {options.hetlb} failed: {j['error']}")
                    loads, _ = end_state(trace, n)
                    if sum(loads) != n * LOAD_PER_NODE:
                        sys.exit(f"staircase_sizes.py: {platform}, {n} nodes, {initial}, virtual load {virtual}: the loads at the "
                                 f"end add up to {sum(loads)}, expected {n * LOAD_PER_NODE}")
                    got[virtual] = (j["converged_nodes"], loads)
                (c0, l0), (c1, l1) = got[False], got[True]
                s0, s1 = max(l0) - min(l0), max(l1) - min(l1)
                fits = all(abs(x - LOAD_PER_NODE) <= BAND * LOAD_PER_NODE for x in l0 + l1)
                lines.append(f"| {platform} | {n} nodes | {initial} | {c0} / {c1} of {n} | {s0} / {s1} | "
                             f"{'yes' if l0 == l1 else 'no'} | {'yes' if fits else 'no'} |")
                print(f"{platform}, {n} nodes, {initial}: done", file=sys.stderr, flush=True)
    print_or_check_lines(lines, options.check, "staircase_sizes.py")


if __name__ == "__main__":
    main()
