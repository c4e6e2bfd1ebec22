#!/usr/bin/env python3
"""Summarises the comparison with Zoltan (bench/peers/compare.sh): writes OUT/gap.csv (the figure's
data: mean and max gap of each policy's model makespan to hetlb's exact plan, per processor count and
ratio) and OUT/table.md (README-ready: each policy's makespan relative to the best policy of its row,
model rows as the mean over instances of makespan / best of the instance, measured rows as the
median over repetitions of the measured makespan / the best median)."""
import argparse
import csv
import os
import statistics
from collections import defaultdict

POLICIES = ["mpi-scatter", "divmod", "zoltan-block", "zoltan-rcb", "hetlb-lp", "hetlb-exact"]
TABLE_RATIOS = ["0", "0.01", "0.1", "1", "2"]


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def row_line(label, values):
    best = min(values[p] for p in POLICIES if p in values)
    zoltan = min((values[p] for p in ("zoltan-block", "zoltan-rcb") if p in values), default=None)
    hetlb = min((values[p] for p in ("hetlb-lp", "hetlb-exact") if p in values), default=None)
    cells = []
    for p in POLICIES:
        if p not in values:
            cells.append("-")
            continue
        text = f"{values[p] / best:.3f}"
        cells.append(f"**{text}**" if values[p] / best < 1.0005 else text)
    cells.append(f"{zoltan / hetlb:.3f}" if zoltan and hetlb else "-")
    return f"| {label} | " + " | ".join(cells) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", help="the results folder (docs/peers)")
    out = parser.parse_args().out

    random_rows = read(os.path.join(out, "model-random.csv"))
    gaps = defaultdict(list)  # (processors, ratio, policy) -> relative_to_exact - 1
    relative = defaultdict(list)  # (processors, ratio, policy) -> makespan / best of the instance
    ratios = []
    for r in random_rows:
        key = (int(r["processors"]), r["ratio"], r["policy"])
        gaps[key].append(100.0 * (float(r["relative_to_exact"]) - 1.0))
        relative[key].append(float(r["relative_to_best"]))
        if r["ratio"] not in ratios:
            ratios.append(r["ratio"])
    ratios.sort(key=float)
    sizes = sorted({k[0] for k in gaps})
    with open(os.path.join(out, "gap.csv"), "w", newline="") as f:
        f.write("processors,ratio,policy,mean_gap_pct,max_gap_pct,instances\n")
        for p in sizes:
            for ratio in ratios:
                for policy in POLICIES:
                    g = gaps.get((p, ratio, policy))
                    if g:
                        f.write(f"{p},{ratio},{policy},{statistics.fmean(g):.6g},{max(g):.6g},{len(g)}\n")

    lines = ["| platform | " + " | ".join(f"`{p}`" for p in POLICIES) + " | Zoltan's best / hetlb's best |",
             "|---|" + "---|" * (len(POLICIES) + 1)]
    grid = read(os.path.join(out, "model-grid1999.csv"))
    if grid:
        values = {r["policy"]: float(r["makespan"]) for r in grid}
        lines.append(row_line(f"Table 1 of RR-4770, 16 processors, {int(grid[0]['items']):,} items (model)", values))
    for p in sizes:
        for ratio in TABLE_RATIOS:
            values = {policy: statistics.fmean(relative[(p, ratio, policy)])
                      for policy in POLICIES if relative.get((p, ratio, policy))}
            if values:
                count = len(relative[(p, ratio, next(iter(values)))])
                lines.append(row_line(f"random, {p} processors, ratio {ratio} (model, mean of {count})", values))
    measured = read(os.path.join(out, "seismic-mpirun.csv"))
    by = defaultdict(list)
    model = defaultdict(list)
    for r in measured:
        by[(int(r["ranks"]), r["policy"])].append(float(r["measured_makespan"]))
        model[(int(r["ranks"]), r["policy"])].append(float(r["model_makespan"]))
    for np_ in sorted({k[0] for k in by}):
        values = {p: statistics.median(by[(np_, p)]) for p in POLICIES if by.get((np_, p))}
        reps = min(len(by[(np_, p)]) for p in values)
        lines.append(row_line(f"seismic, mpirun, {np_} ranks, emulated speeds (measured, median of {reps})", values))
        values = {p: statistics.median(model[(np_, p)]) for p in POLICIES if model.get((np_, p))}
        lines.append(row_line(f"seismic, mpirun, {np_} ranks (model of the same counts)", values))
    for name, label in (("grid1999", "Table 1 platform"), ("study-grid64", "the study's Grid'5000 subset")):
        smpi = [r for r in read(os.path.join(out, f"seismic-smpi-{name}.csv")) if r["transport"] == "native"]
        if smpi:
            values = {r["policy"]: float(r["measured_makespan"]) for r in smpi}
            lines.append(row_line(f"seismic, SMPI, {label}, {smpi[0]['ranks']} ranks, {int(smpi[0]['rays']):,} rays "
                                  "(simulated)", values))
            values = {r["policy"]: float(r["model_makespan"]) for r in smpi}
            lines.append(row_line(f"seismic, SMPI, {label} (model of the same counts)", values))
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    if measured:  # medians and ranges of the measured runs, for docs/peers.md
        with open(os.path.join(out, "seismic-summary.csv"), "w", newline="") as f:
            f.write("ranks,policy,runs,median_s,min_s,max_s,model_s,median_distribution_s,median_per_ray_spread\n")
            dist = defaultdict(list)
            spread = defaultdict(list)
            for r in measured:
                dist[(int(r["ranks"]), r["policy"])].append(float(r["distribution_seconds"]))
                spread[(int(r["ranks"]), r["policy"])].append(float(r["per_ray_spread"]))
            for (np_, policy), v in sorted(by.items(), key=lambda kv: (kv[0][0], POLICIES.index(kv[0][1]))):
                f.write(f"{np_},{policy},{len(v)},{statistics.median(v):.4f},{min(v):.4f},{max(v):.4f},"
                        f"{statistics.median(model[(np_, policy)]):.4f},{statistics.median(dist[(np_, policy)]):.4f},"
                        f"{statistics.median(spread[(np_, policy)]):.3f}\n")


if __name__ == "__main__":
    main()
