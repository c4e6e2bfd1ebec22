#!/usr/bin/env python3
"""Summarises the dynamic comparison with Zoltan (bench/peers/compare_dynamic.sh): OUT/dynamic-summary.csv
(per cell and policy, a cell being kernel, ranks, scenario, ratio and initial load: repetitions, median and range of the time to solution, median items moved, median
of the largest per-rank time in the balancer) and OUT/dynamic-table.md (README-ready: each policy's
median time relative to the best median of its row, hetlb's best and Zoltan's best side by side). Rows
without a kernel column (written before the seismic kernel) are synthetic."""
import argparse
import csv
import os
import statistics
from collections import defaultdict

POLICIES = ["none", "static", "besteffort1", "besteffort2", "makhoul", "besteffort1-vl", "besteffort2-vl", "makhoul-vl",
            "zoltan:1", "zoltan:10", "zoltan:100"]
DYNAMIC = ["besteffort1", "besteffort2", "makhoul", "besteffort1-vl", "besteffort2-vl", "makhoul-vl"]
HETLB = ["static", "besteffort1", "besteffort2", "makhoul", "besteffort1-vl", "besteffort2-vl", "makhoul-vl"]
ZOLTAN = ["zoltan:1", "zoltan:10", "zoltan:100"]
SHORT = {"besteffort1": "be1", "besteffort2": "be2", "makhoul": "mak", "besteffort1-vl": "be1-vl",
         "besteffort2-vl": "be2-vl", "makhoul-vl": "mak-vl", "zoltan:1": "Z:1", "zoltan:10": "Z:10", "zoltan:100": "Z:100"}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    out = parser.parse_args().out
    path = os.path.join(out, "dynamic.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cells = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (r.get("kernel") or "synthetic", int(r["ranks"]), r["scenario"], r["ratio_label"], r["initial"])
        cells[key][r["balancer"]].append(r)
    summary = []
    lines = ["| kernel | ranks | speeds | ratio | initial | " + " | ".join(SHORT.get(p, p) for p in POLICIES) +
             " | hetlb best | Zoltan best | Zoltan / hetlb | hetlb dynamic best | Zoltan / hetlb dynamic |",
             "|" + "---|" * (len(POLICIES) + 10)]
    for key in sorted(cells, key=lambda k: (k[0] != "synthetic", k[1], k[2] != "steady", k[3] != "compute", k[4] != "random")):
        medians = {}
        for p, runs in cells[key].items():
            t = [float(r["time_to_solution"]) for r in runs]
            medians[p] = statistics.median(t)
            summary.append({"kernel": key[0], "ranks": key[1], "scenario": key[2], "ratio_label": key[3], "initial": key[4],
                            "balancer": p,
                            "repetitions": len(t), "time_median": f"{statistics.median(t):.4f}", "time_min": f"{min(t):.4f}",
                            "time_max": f"{max(t):.4f}",
                            "items_moved_median": statistics.median(float(r["items_moved"]) for r in runs),
                            "balancer_seconds_max_median": f"{statistics.median(float(r['balancer_seconds_max']) for r in runs):.4f}",
                            "imbalance_mean_median": f"{statistics.median(float(r['imbalance_mean']) for r in runs):.3f}"})
        best = min(medians.values())
        reps = min(len(v) for v in cells[key].values())
        cellsrow = [f"{medians[p] / best:.2f}" if p in medians else "" for p in POLICIES]
        h = min((p for p in HETLB if p in medians), key=lambda p: medians[p], default=None)
        z = min((p for p in ZOLTAN if p in medians), key=lambda p: medians[p], default=None)
        hs = f"{SHORT.get(h, h)} {medians[h]:.2f} s" if h else ""
        zs = f"{SHORT.get(z, z)} {medians[z]:.2f} s" if z else ""
        ratio = f"{medians[z] / medians[h]:.2f}" if h and z else ""
        d = min((p for p in DYNAMIC if p in medians), key=lambda p: medians[p], default=None)
        ds = f"{SHORT.get(d, d)} {medians[d]:.2f} s" if d else ""
        dratio = f"{medians[z] / medians[d]:.2f}" if d and z else ""
        label = f"{key[4]}" + ("" if reps >= 5 else f" ({reps} rep.)")
        lines.append(f"| {key[0]} | {key[1]} | {'1x-6x' if key[2] == 'steady' else '1x-6x, peak'} | {key[3]} | {label} | " +
                     " | ".join(cellsrow) + f" | {hs} | {zs} | {ratio} | {ds} | {dratio} |")
    with open(os.path.join(out, "dynamic-summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()))
        w.writeheader()
        w.writerows(summary)
    with open(os.path.join(out, "dynamic-table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
