#!/usr/bin/env python3
"""Every variant's convergence date in one configuration, from the committed convergence runs.

    python3 study/date_table.py NODES PLATFORM TOPOLOGY INITIAL RATIO [--results CSV] [--check FILE]

One markdown table: a row per variant (best effort k = 1, 2, 4, Makhoul, simple; each without and with
virtual load), a column per load kind (real, integer) and seed, each cell the run's maximum
convergence date in tau (`max_convergence_date` / `tau`); "no (C/N)" where the run ended without
converging, C of its N nodes having completed their streak; "timeout (1 h)" where it reached the
campaign's wall-clock timeout (and, where its row says, "at T tau, C/N in the band": the simulated
date it had reached and the nodes then within 1% of the average); "-" where it has not run yet. With
--check FILE, prints nothing and exits 1 unless FILE (docs/study-details.md) holds the table as it is now, 77
if a campaign is writing the results (its rows are not committed yet).
"""
import argparse
import csv
import os
import re
import sys

from committed_table import print_or_check, rows_file

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "..", "docs", "study", "convergence.csv")
VARIANTS = [("besteffort", str(k), v) for k in (1, 2, 4) for v in ("false", "true")] + \
    [(s, "1", v) for s in ("makhoul", "simple") for v in ("false", "true")]
NAMES = {"besteffort": "best effort k = {k}", "makhoul": "Makhoul", "simple": "Simple"}


def label(strategy, k, virtual):
    return NAMES[strategy].format(k=k) + (" + virtual" if virtual == "true" else "")


def hours(seconds):
    h = seconds / 3600
    return f"{h:g} h" if h >= 1 else f"{seconds / 60:g} min"


def cell(row):
    if row is None:
        return "-"
    if row["status"] == "timeout":
        # "over the 3600 s timeout ...": the limit the run had.
        words = row["error"].split()
        limit = next((float(w) for w, after in zip(words, words[1:]) if after == "s"), None)
        text = f"timeout ({hours(limit)})" if limit else "timeout"
        # "...; last progress: simulated S s of L s; C/N nodes in the 1% band ...": how far it got.
        got = re.search(r"simulated ([0-9.]+) s of [0-9.]+ s; ([0-9]+/[0-9]+) nodes in the 1% band", row["error"])
        if got:
            tau = float(row["load_per_node"]) * float(row["ratio"]) * 1e-3  # a timeout row has no `tau` of its own
            text += f" at {float(got.group(1)) / tau:.0f} tau, {got.group(2)} in the band"
        return text
    if row["status"] != "ok":
        return row["status"]
    if row["converged"] == "1":
        return f"{float(row['max_convergence_date']) / float(row['tau']):.1f}"
    return f"no ({row['converged_nodes']}/{row['nodes']})"


def main():
    parser = argparse.ArgumentParser(description="Every variant's convergence date in one configuration.")
    for name in ("nodes", "platform", "topology", "initial", "ratio"):
        parser.add_argument(name)
    parser.add_argument("--check", metavar="FILE", help="exit 1 unless FILE holds the table as it is now")
    parser.add_argument("--results", default=RESULTS, help="the convergence results (default: docs/study/convergence.csv)")
    a = parser.parse_args()
    nodes, platform, topology, initial, ratio, check = a.nodes, a.platform, a.topology, a.initial, a.ratio, a.check
    runs = {}
    seeds = set()
    for r in csv.DictReader(rows_file(a.results, check, "date_table.py")):
        if (r["nodes"], r["platform"], r["topology"], r["initial"], r["ratio"]) != (nodes, platform, topology,
                                                                                   initial, ratio):
            continue
        runs[(r["strategy"], r["k"], r["virtual_load"], r["integer"], r["seed"])] = r
        seeds.add(r["seed"])
    if not runs:
        sys.exit(f"date_table.py: no convergence run of {nodes} nodes, platform {platform}, topology {topology}, "
                 f"initial {initial}, ratio {ratio}")
    every_seed = sorted(seeds, key=int)
    columns = [(integer, seed) for integer in ("false", "true") for seed in every_seed]

    def heading(integer, seed):
        kind = "integer" if integer == "true" else "real"
        return kind if len(every_seed) == 1 else f"{kind}, seed {seed}"

    lines = ["| variant | " + " | ".join(heading(*c) for c in columns) + " |", "|---" * (len(columns) + 1) + "|"]
    lines += [f"| {label(*v)} | " + " | ".join(cell(runs.get((*v, *c))) for c in columns) + " |" for v in VARIANTS]
    print_or_check("\n".join(lines) + "\n", check, "date_table.py",
                   f"the table of {nodes} nodes, {platform}, {topology}, {initial}, ratio {ratio}",
                   f"date_table.py {nodes} {platform} {topology} {initial} {ratio}" +
                   ("" if a.results == RESULTS else f" --results {os.path.relpath(a.results)}"))


if __name__ == "__main__":
    main()
