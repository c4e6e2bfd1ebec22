#!/usr/bin/env python3
"""The figures of docs/study-details.md, question 4, from the committed fixed-duration results.

    python3 study/fixed_duration_table.py NODES [random]

Per ratio: wins and mean rank by computed load (rank 1 + the number of variants that computed more;
ties share a rank), the paired effect of virtual load on computed load, the mean rank by data moved
and the paired data ratio of best effort k = 2 and 4 against k = 1; then how often `none` ranks last.
With `random`, only the random-load configurations count (at 256 nodes nothing is computed from a
single loaded node within 100 tau, so those configurations are all ties).
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "study", "fixed-duration.csv")
STRATEGIES = ["besteffort k=1", "besteffort k=2", "besteffort k=4", "makhoul", "simple"]


def variant(r):
    v = r["strategy"] + (" k=" + r["k"] if r["strategy"] == "besteffort" else "")
    return v + (" +v" if r["virtual_load"] == "true" else "")


def figures(rows, nodes, only_random=False):
    """The figures from `rows` (fixed-duration.csv's, NODES as written there), over the complete configurations:
    per ratio that has some, (wins {variant: count}, {variant: mean rank by computed load}, {variant: mean rank by
    data moved}, {strategy: median computed load with / without virtual load}, {(k, suffix): median data moved,
    best effort k over k = 1}, configurations); then how many of them `none` computes the least in (ties
    included), and how many there are."""
    cfg = defaultdict(dict)
    for r in rows:
        if r["nodes"] != nodes or (only_random and r["initial"] != "random"):
            continue
        key = (r["platform"], r["topology"], r["initial"], r["seed"], r["ratio"], r["integer"])
        cfg[key][variant(r)] = r
    complete = [c for c in cfg if len(cfg[c]) == 12]

    def val(c, v, metric="computed_load"):
        return float(cfg[c][v][metric])

    def ranks(c, metric, higher):
        x = {v: val(c, v, metric) for v in cfg[c]}
        return {v: 1 + sum(1 for u in x if (x[u] > x[v] if higher else x[u] < x[v])) for v in x}

    out = {}
    for ratio in ["10", "1", "0.1"]:
        cs = [c for c in complete if c[4] == ratio]
        if not cs:
            continue
        wins, mean_rank, data_rank = defaultdict(int), defaultdict(list), defaultdict(list)
        for c in cs:
            for v, k in ranks(c, "computed_load", True).items():
                mean_rank[v].append(k)
                wins[v] += k == 1
            for v, k in ranks(c, "data_transfer_amount", False).items():
                data_rank[v].append(k)
        virtual = {}
        for s in STRATEGIES:
            paired = [val(c, s + " +v") / val(c, s) for c in cs if val(c, s) > 0]
            if paired:
                virtual[s] = statistics.median(paired)
        moved = {}
        for k in ["2", "4"]:
            for suffix in ["", " +v"]:
                base = "besteffort k=1" + suffix
                paired = [val(c, f"besteffort k={k}{suffix}", "data_transfer_amount") / val(c, base, "data_transfer_amount")
                          for c in cs if val(c, base, "data_transfer_amount") > 0]
                if paired:
                    moved[(k, suffix)] = statistics.median(paired)
        out[ratio] = (wins, {v: statistics.mean(x) for v, x in mean_rank.items()},
                      {v: statistics.mean(x) for v, x in data_rank.items()}, virtual, moved, len(cs))
    last = sum(1 for c in complete if val(c, "none") <= min(val(c, v) for v in cfg[c]))
    return out, last, len(complete)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: fixed_duration_table.py NODES [random]")
    nodes, only_random = sys.argv[1], sys.argv[2:] == ["random"]
    with open(RESULTS) as f:
        out, last, complete = figures(csv.DictReader(f), nodes, only_random)
    print(f"{nodes} nodes: {complete} complete configurations")
    for ratio, (wins, mean_rank, data_rank, virtual, moved, count) in out.items():
        print(f"ratio {ratio} ({count} configurations)")
        for v in sorted(wins, key=lambda v: (-wins[v], mean_rank[v])):
            if not v.startswith("none"):
                print(f"  {v}: wins {wins[v]}/{count}, mean rank {mean_rank[v]:.2f}, "
                      f"mean rank by data moved {data_rank[v]:.2f}")
        for s, m in virtual.items():
            print(f"  virtual load, {s}: median with/without {m:.4f}")
        for (k, suffix), m in moved.items():
            print(f"  data moved, k={k}/k=1{suffix}: median {m:.3f}")
    print(f"none computes the least (ties included) in {last} of {complete} configurations")


if __name__ == "__main__":
    main()
