#!/usr/bin/env python3
"""The table of bench/smpi/balancers.sh: per ranks, start and seed, each balancer's simulated time to
solution, relative to the ideal (work / total speed) and to the ideal after the first iteration (which
runs on the initial load whatever the balancer, the speeds being measured), to that plus the
program's own all-gather at each later iteration (collectives.csv beside the runs' CSV, from
collective_cost.c: no balancer can save it), and hybrid (the default) against the better of diffusion
and global."""
import csv
import os
import sys
from collections import defaultdict

BALANCERS = ["diffusion", "global", "hybrid"]


def main():
    rows = defaultdict(dict)
    collectives = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "collectives.csv")
    allgather = {}
    if os.path.exists(collectives):
        allgather = {int(r["ranks"]): float(r["allgather_seconds"]) for r in csv.DictReader(open(collectives))}
    for r in csv.DictReader(open(sys.argv[1])):
        key = (int(r["ranks"]), r["initial"], int(r["seed"]), r["work"], r["load"], r["ratio"])
        rows[key][r["balancer"]] = r
    with_ag = ", x that with the program's all-gathers" if allgather else ""
    print("| ranks | start | seed | " + " | ".join(f"{b} s (x ideal, x ideal after the 1st{with_ag}, items moved)" for b in BALANCERS)
          + " | ideal s | hybrid / better of diffusion and global |")
    print("|---|---|---|" + "---|" * len(BALANCERS) + "---|---|")
    for key in sorted(rows):
        cells, ideal = [], None
        for b in BALANCERS:
            r = rows[key].get(b)
            if r is None:
                cells.append("")
                continue
            ideal = float(r["ideal"])
            t = float(r["time_to_solution"])
            work = float(r["work"])
            after = float(r["first_iteration"]) + ideal * (work - 1) / work
            ratios = f"{t / ideal:.2f}x, {t / after:.2f}x"
            if allgather:
                ag = allgather.get(key[0])
                ratios += f", {t / (after + (work - 1) * ag):.2f}x" if ag is not None else ", -"
            cells.append(f"{t:.1f} ({ratios}, {float(r['items_moved']):.0f})")
        t = {b: float(rows[key][b]["time_to_solution"]) for b in BALANCERS if b in rows[key]}
        verdict = f"{t['hybrid'] / min(t['diffusion'], t['global']):.3f}" if len(t) == 3 else ""
        ideal_text = f"{ideal:.1f}" if ideal else ""
        print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cells) + f" | {ideal_text} | {verdict} |")


if __name__ == "__main__":
    main()
