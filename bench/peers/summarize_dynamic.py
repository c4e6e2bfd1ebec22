#!/usr/bin/env python3
"""Summarises the dynamic comparison with Zoltan (bench/peers/compare_dynamic.sh): OUT/dynamic-summary.csv
(per cell and policy, a cell being kernel, ranks, scenario, ratio and initial load: repetitions, median and range of the time to solution, median items moved, median
of the largest per-rank time in the balancer) and OUT/dynamic-table.md (README-ready: each policy's
median time relative to the best median of its row, hetlb's best and Zoltan's best side by side, and the
runtime with its defaults (`hetlb`) against the ideal and against Zoltan's best). The policies are the
ones the CSV holds, in the order below. Rows without a kernel column (written before the seismic kernel)
are synthetic.

The ideal of a row is the work over the total speed, integrated over the run: WORK x items x ms per item /
sum of speeds (speeds 6,5,4,3,2,2,1,1 or 6,6,5,5,4,4,3,3,2,2,2,2,1,1,1,1); with the peak (rank 0, speed
6, 3x slower during the middle third of that time T) the work it misses there made up at the full speed:
T (1 + 2 x 6 / (9 x sum)); with the slowdown (rank 0 3x slower from T / 2 on) the second half of the work
at the speeds left: T / 2 + (T / 2) sum / (sum - 4)."""
import argparse
import csv
import math
import os
import statistics
from collections import defaultdict

ORDER = ["none", "static", "static-equal", "hetlb", "hetlb-global", "besteffort1", "besteffort2", "makhoul", "besteffort1-vl",
         "besteffort2-vl", "makhoul-vl"]
SHORT = {"besteffort1": "be1", "besteffort2": "be2", "makhoul": "mak", "besteffort1-vl": "be1-vl",
         "besteffort2-vl": "be2-vl", "makhoul-vl": "mak-vl", "hetlb-global": "global", "static-equal": "static="}
KERNEL_ORDER = ["synthetic", "seismic", "drift"]
RATIO_ORDER = ["compute", "short", "data", "transfer"]  # "data": the name of "short" before it was renamed
SCENARIO_ORDER = ["steady", "peak", "slowdown"]
SPEEDS_LABEL = {"steady": "1x-6x", "peak": "1x-6x, peak", "slowdown": "1x-6x, slowdown"}
SUM_OF_SPEEDS = {8: 24, 16: 48}


def short(p):
    if p.startswith("zoltan:"):
        return "Z:" + p[7:]
    if p.startswith("zoltan-imbalance:"):
        return "Z>" + p[17:]
    return SHORT.get(p, p)


def is_zoltan(p):
    return p.startswith("zoltan")


def order(policies):
    """The known policies in ORDER, then Zoltan's periods by period, then its thresholds, then the rest."""
    def key(p):
        if p in ORDER:
            return (0, ORDER.index(p), 0.0, p)
        if p.startswith("zoltan:"):
            return (1, 0, float(p[7:]), p)
        if p.startswith("zoltan-imbalance:"):
            return (2, 0, float(p[17:]), p)
        return (3, 0, 0.0, p)
    return sorted(policies, key=key)


def ideal(runs, ranks, scenario):
    r = runs[0]
    total = SUM_OF_SPEEDS.get(ranks)
    if total is None:
        return None
    t = float(r["work"]) * float(r["items"]) * float(r["ratio"]) * 1e-3 / total
    if scenario == "peak":
        return t * (1 + 2 * 6 / (9 * total))
    if scenario == "slowdown":
        return t / 2 + t / 2 * total / (total - 4)
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--repetitions", type=int, default=5, help="a row with fewer says so (default 5)")
    args = parser.parse_args()
    out = args.out
    global REPS
    REPS = args.repetitions
    path = os.path.join(out, "dynamic.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cells = defaultdict(lambda: defaultdict(list))
    POLICIES = order({r["balancer"] for r in rows})
    HETLB = [p for p in POLICIES if p != "none" and not is_zoltan(p)]
    DYNAMIC = [p for p in HETLB if p != "static"]
    ZOLTAN = [p for p in POLICIES if is_zoltan(p)]
    for r in rows:
        key = (r.get("kernel") or "synthetic", int(r["ranks"]), r["scenario"], r["ratio_label"], r["initial"])
        cells[key][r["balancer"]].append(r)
    summary = []
    row_medians = []
    row_groups = []  # per row: its ratio label, or drift (the groups of the global/hybrid line)
    defaults = "hetlb" in POLICIES
    extra = " ideal | hetlb / ideal | hetlb / Zoltan best |" if defaults else ""
    lines = ["| kernel | ranks | speeds | ratio | initial | " + " | ".join(short(p) for p in POLICIES) +
             " | hetlb best | Zoltan best | Zoltan / hetlb | hetlb dynamic best | Zoltan / hetlb dynamic |" + extra,
             "|" + "---|" * (len(POLICIES) + 10 + (3 if defaults else 0))]
    def rank_of(order, v):
        return order.index(v) if v in order else len(order)
    for key in sorted(cells, key=lambda k: (rank_of(KERNEL_ORDER, k[0]), rank_of(RATIO_ORDER, k[3]), k[1],
                                            rank_of(SCENARIO_ORDER, k[2]), k[4] != "random")):
        medians = {}
        row_medians.append(medians)
        row_groups.append("drift" if key[0] == "drift" else key[3])
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
        hs = f"{short(h)} {medians[h]:.2f} s" if h else ""
        zs = f"{short(z)} {medians[z]:.2f} s" if z else ""
        ratio = f"{medians[z] / medians[h]:.2f}" if h and z else ""
        d = min((p for p in DYNAMIC if p in medians), key=lambda p: medians[p], default=None)
        ds = f"{short(d)} {medians[d]:.2f} s" if d else ""
        dratio = f"{medians[z] / medians[d]:.2f}" if d and z else ""
        tail = ""
        if defaults:
            i = ideal(next(iter(cells[key].values())), key[1], key[2])
            mine = medians.get("hetlb")
            tail = (f" {i:.2f} s |" if i else " |") + (f" {mine / i:.2f} |" if i and mine else " |") + \
                   (f" {mine / medians[z]:.2f} |" if mine and z else " |")
        label = f"{key[4]}" + ("" if reps >= REPS else f" ({reps} rep.)")
        lines.append(f"| {key[0]} | {key[1]} | {SPEEDS_LABEL.get(key[2], key[2])} | {key[3]} | {label} | " +
                     " | ".join(cellsrow) + f" | {hs} | {zs} | {ratio} | {ds} | {dratio} |" + tail)
    # The runtime's defaults against Zoltan, over the rows (the counts docs/peers.md and the README quote).
    against = [(medians_of["hetlb"] / min(z.values()),
                medians_of["hetlb"] <= min((v for p, v in z.items() if p.startswith("zoltan:")), default=float("inf")))
               for medians_of in row_medians if "hetlb" in medians_of
               for z in [{p: v for p, v in medians_of.items() if is_zoltan(p)}] if z]
    if against:
        print(f"hetlb (defaults) against Zoltan's best policy of each row: at or ahead in "
              f"{sum(r <= 1.0 for r, _ in against)} of {len(against)} rows, within 1.05 in "
              f"{sum(r <= 1.05 for r, _ in against)}, at most {max(r for r, _ in against):.2f} behind; at or ahead "
              f"of every fixed period in {sum(ahead for _, ahead in against)}")
    # `global` alone against the defaults (hybrid), over all rows and per group (docs/peers.md).
    paired = [(g, m["hetlb-global"] / m["hetlb"]) for g, m in zip(row_groups, row_medians)
              if "hetlb" in m and "hetlb-global" in m]
    if paired:
        def gmean(v):
            return math.exp(sum(map(math.log, v)) / len(v))
        groups = [("all", [r for _, r in paired])] + [
            (g, [r for h, r in paired if h == g]) for g in ["compute", "drift", "short", "transfer"]]
        print("hetlb-global / hetlb (geometric mean of the row medians' ratios, rows where global is faster): " +
              "; ".join(f"{g} {gmean(v):.2f}, {sum(r < 1 for r in v)} of {len(v)}" for g, v in groups if v))
    with open(os.path.join(out, "dynamic-summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()))
        w.writeheader()
        w.writerows(summary)
    with open(os.path.join(out, "dynamic-table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
