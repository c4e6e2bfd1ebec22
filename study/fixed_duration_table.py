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


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: fixed_duration_table.py NODES [random]")
    nodes, only_random = sys.argv[1], sys.argv[2:] == ["random"]
    cfg = defaultdict(dict)
    for r in csv.DictReader(open(RESULTS)):
        if r["nodes"] != nodes or (only_random and r["initial"] != "random"):
            continue
        key = (r["platform"], r["topology"], r["initial"], r["seed"], r["ratio"], r["integer"])
        cfg[key][variant(r)] = r
    complete = [c for c in cfg if len(cfg[c]) == 12]
    print(f"{nodes} nodes: {len(complete)} complete configurations")

    def val(c, v, metric="computed_load"):
        return float(cfg[c][v][metric])

    def ranks(c, metric, higher):
        x = {v: val(c, v, metric) for v in cfg[c]}
        return {v: 1 + sum(1 for u in x if (x[u] > x[v] if higher else x[u] < x[v])) for v in x}

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
        print(f"ratio {ratio} ({len(cs)} configurations)")
        for v in sorted(wins, key=lambda v: (-wins[v], statistics.mean(mean_rank[v]))):
            if not v.startswith("none"):
                print(f"  {v}: wins {wins[v]}/{len(cs)}, mean rank {statistics.mean(mean_rank[v]):.2f}, "
                      f"mean rank by data moved {statistics.mean(data_rank[v]):.2f}")
        for s in STRATEGIES:
            paired = [val(c, s + " +v") / val(c, s) for c in cs if val(c, s) > 0]
            if paired:
                print(f"  virtual load, {s}: median with/without {statistics.median(paired):.4f}")
        for k in ["2", "4"]:
            for suffix in ["", " +v"]:
                base = "besteffort k=1" + suffix
                paired = [val(c, f"besteffort k={k}{suffix}", "data_transfer_amount") / val(c, base, "data_transfer_amount")
                          for c in cs if val(c, base, "data_transfer_amount") > 0]
                if paired:
                    print(f"  data moved, k={k}/k=1{suffix}: median {statistics.median(paired):.3f}")
    last = sum(1 for c in complete if val(c, "none") <= min(val(c, v) for v in cfg[c]))
    print(f"none computes the least (ties included) in {last} of {len(complete)} configurations")


if __name__ == "__main__":
    main()
