#!/usr/bin/env python3
"""The verdicts of one configuration's cells, side by side, from the committed verdict tables.

    python3 study/cell_table.py NODES PLATFORM TOPOLOGY INITIAL [--metric max|avg] [--check FILE]

One markdown table of question 1 (best effort k = 1, 2 and 4 against Makhoul and against simple): a row
per cell of the configuration (ratio, load kind, virtual load), a column per comparison, each entry the
paired ratio (geometric mean over the seeds where both converge, other side's date over best effort's:
above 1 best effort is faster), the verdict of docs/study/verdicts/q1-besteffort.csv, and the seeds where
best effort is faster out of those where both converge ("1.95 tie 5/5"); "one pair" marks a cell left out
of the headline counts; a cell with no pair where both converge shows its verdict alone ("none", "only
subject", ...). It replaces the hand-computed best-of-family comparisons the page once held: every
entry is one fixed comparison, read from the checked verdict table (verdicts.py --check checks that
table against the rows). With --check FILE, prints nothing and exits 1 unless FILE holds the table.
"""
import argparse
import csv
import os

from committed_table import print_or_check

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "docs", "study", "verdicts", "q1-besteffort.csv")
COMPARISONS = [(f"best effort k={k}", other) for k in (1, 2, 4) for other in ("Makhoul", "simple")]


def entry(r):
    if r is None:
        return "-"
    if not r["date_ratio"]:
        return r["verdict"]
    text = f"{float(r['date_ratio']):.2f} {r['verdict']} {r['subject_faster_seeds']}/{r['both_converge']}"
    return text + (" (one pair)" if r["one_pair"] == "1" else "")


def table(nodes, platform, topology, initial, metric):
    rows = {}
    cells = []
    with open(TABLE) as f:
        for r in csv.DictReader(f):
            if (r["nodes"], r["platform"], r["topology"], r["initial"], r["metric"]) != \
                    (nodes, platform, topology, initial, metric):
                continue
            cell = (r["ratio"], r["integer"], r["virtual_load"])
            if cell not in cells:
                cells.append(cell)
            rows[cell + (r["subject"], r["other"])] = r
    out = [f"| ratio | load | virtual load | " + " | ".join(f"{s} vs {o}" for s, o in COMPARISONS) + " |",
           "|---" * (3 + len(COMPARISONS)) + "|"]
    for cell in cells:
        ratio, integer, virtual = cell
        out.append(f"| {ratio} | {'integer' if integer == 'true' else 'real'} | {'yes' if virtual == 'true' else 'no'} | " +
                   " | ".join(entry(rows.get(cell + c)) for c in COMPARISONS) + " |")
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("nodes", "platform", "topology", "initial"):
        p.add_argument(name)
    p.add_argument("--metric", default="max", choices=("max", "avg"))
    p.add_argument("--check", metavar="FILE")
    a = p.parse_args()
    print_or_check(table(a.nodes, a.platform, a.topology, a.initial, a.metric), a.check, "cell_table.py",
                   f"the cell table of {a.nodes} {a.platform} {a.topology} {a.initial}",
                   f"cell_table.py {a.nodes} {a.platform} {a.topology} {a.initial}")


if __name__ == "__main__":
    main()
