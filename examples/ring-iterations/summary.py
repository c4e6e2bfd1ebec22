#!/usr/bin/env python3
"""Summarises results.csv (sweep.py): best K per ratio, the policies against the offline optimum, and
the data of the figure (policies / optimum against the ratio). Usage: summary.py [results.csv]"""
import csv, collections, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results.csv"))))
runs = collections.defaultdict(dict)
for r in rows:
    runs[(r["ring"], int(r["n"]), float(r["drift_speed"]), float(r["ratio"]))][r["policy"]] = r
print("| ring | n | window speed | ratio | best K | never / opt | every:1 / opt | best K / opt | model / opt | model redistributions | opt redistributions |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
worst_model, worst_both = 0.0, -1.0
within5 = 0
fig = collections.defaultdict(list)
for key in sorted(runs):
    p = runs[key]
    t = {k: float(v["total_time"]) for k, v in p.items()}
    opt = t["optimal"]
    ks = {k: v for k, v in t.items() if k.startswith("every:")}
    best_k = min(ks, key=lambda k: (ks[k], int(k[6:])))
    m = t["model"] / opt
    worst_model = max(worst_model, m)
    within5 += m <= 1.05
    worst_both = max(worst_both, t["model"] / min(t["never"], t["every:1"]) - 1)
    print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {best_k[6:]} | {t['never']/opt:.3f} | {t['every:1']/opt:.3f} | "
          f"{ks[best_k]/opt:.3f} | {m:.3f} | {p['model']['redistributions']} | {p['optimal']['redistributions']} |")
    fig[(key[0], key[1], key[2])].append((key[3], t["never"] / opt, t["every:1"] / opt, ks[best_k] / opt, m, t["threshold:1.2"] / opt))
print(f"\nmodel within 5% of the optimum in {within5} of {len(runs)} cases; worst model / optimum {worst_model:.3f}; "
      f"worst model against the better of never and every:1: {100 * worst_both:+.1f}%")
for (ring, n, speed), pts in fig.items():
    with open(os.path.join(HERE, f"figure-{ring}-{n}-{speed}.dat"), "w") as f:
        f.write("# ratio never every:1 best-K model threshold:1.2 (total time / offline optimum)\n")
        for pt in sorted(pts):
            f.write(" ".join(f"{x:.6g}" for x in pt) + "\n")
