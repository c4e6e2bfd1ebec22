#!/usr/bin/env python3
"""What the study cost here: one row per spec and size, from the committed results.

    python3 study/cost_table.py [--check FILE]

Columns: the runs done of the spec's settings at that size (the rest still to run), the runs' own wall
times added up (`wall_seconds`, in hours; a run rerun with --retry counts both times, its later row
replacing the earlier for the rest), the runs that reached the spec's wall-clock timeout, and per
topology the median and the longest run; then the study-2 seed specs' runs left and their run time
estimated from the study-1 runs of the same settings (per setting, its mean run time per seed times the
new seeds not run yet; the table is left out once every seed spec has run). The settings per size come from `hetlb campaign SPEC --report`
(HETLB, default build/bin/hetlb). With --check FILE, prints nothing and exits 1 unless FILE
(docs/study.md) holds the table as it is now, 77 if a campaign is writing a results file (its rows
are not committed yet).
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

from committed_table import print_or_check, rows_file

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SPECS = ["convergence", "convergence-staggered", "short", "fixed-duration", "convergence-1024", "convergence-seeds",
         "convergence-seeds-256", "short-n16", "short-n64", "short-n256", "fixed-duration-n16", "fixed-duration-n64",
         "fixed-duration-n256", "line-256-long"]
TOPOLOGIES = ["line", "torus", "hypercube"]
# The study-2 seed specs: (spec, sizes, topologies, new seeds per setting). Their run time is estimated from
# the committed study-1 runs of the same settings (random loads): their run time per seed, times the seeds.
PLANNED = [("convergence-seeds", [16, 64], TOPOLOGIES, 7), ("convergence-seeds-256", [256], ["torus", "hypercube"], 2)]
# The specs not complete: the page gives their missing compute as the campaign estimates it.
LEFT = ["convergence-1024"]
PLANNED_HEAD = "| planned spec | nodes | runs left | run time (study-1's per seed x seeds left) |"


def settings(spec, nodes):
    """Settings of `spec` at `nodes`: runs + missing of its report's 'Runs per variant' table."""
    hetlb = os.environ.get("HETLB", os.path.join(ROOT, "build", "bin", "hetlb"))
    out = subprocess.run([hetlb, "campaign", spec, "--yes", "--report", "--min-nodes", nodes, "--max-nodes", nodes],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    table = out.split("Runs per variant", 1)[1].split("\n\n")[1]
    total = 0
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        total += int(cells[1]) + int(cells[6])
    return total


def left_estimate(name):
    """The campaign's own line on what `name` has left, single-job: "N of M settings left to run; on 1 jobs,
    about X h left[ and R runs unlike any timed yet]"."""
    hetlb = os.environ.get("HETLB", os.path.join(ROOT, "build", "bin", "hetlb"))
    err = subprocess.run([hetlb, "campaign", os.path.join("study", name + ".json"), "--yes", "--report", "-j", "1"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stderr
    found = re.search(r"hetlb campaign: (.*settings left to run.*)", err)
    if not found:
        sys.exit(f"cost_table.py: hetlb campaign {name} --report gave no estimate of the runs left: {err.strip()}")
    return found.group(1).strip()


def setting(row):
    """A row's setting: its key columns (every column before "status"), as the campaign keys its rows."""
    values = list(row.values())
    return tuple(values[:list(row).index("status")])


def unseeded(row):
    """A row's setting but its spec version and seed (the same setting on another seed)."""
    return tuple(v for c, v in zip(row, setting(row)) if c not in ("spec_version", "seed"))


def hours(seconds):
    return f"{seconds / 3600:.1f} h" if seconds >= 360 else duration(seconds)


def duration(seconds):
    return f"{seconds:.1f} s" if seconds < 60 else f"{seconds / 60:.1f} min"


def main():
    args = sys.argv[1:]
    check = args[1] if len(args) == 2 and args[0] == "--check" else None
    if args and check is None:
        sys.exit("usage: cost_table.py [--check FILE]")
    lines = ["| spec | nodes | runs done | run time | timeouts | " +
             " | ".join(f"{t}: median, longest" for t in TOPOLOGIES) + " |",
             "|---" * (5 + len(TOPOLOGIES)) + "|"]
    for name in SPECS:
        spec = os.path.join("study", name + ".json")
        results = os.path.join(ROOT, json.load(open(os.path.join(ROOT, spec)))["results"])
        if not os.path.exists(results):
            continue
        with rows_file(results, check, "cost_table.py") as f:
            rows = list(csv.DictReader(f))
        by_nodes, spent = defaultdict(dict), defaultdict(float)
        for r in rows:
            by_nodes[int(r["nodes"])][setting(r)] = r  # a later row of a setting replaces it (--retry)
            spent[int(r["nodes"])] += float(r["wall_seconds"])  # both rows' run time was spent
        for nodes in sorted(by_nodes):
            runs = list(by_nodes[nodes].values())
            wall = defaultdict(list)
            for r in runs:
                wall[r["topology"]].append(float(r["wall_seconds"]))
            cells = [name, f"{nodes:,}", f"{len(runs):,} of {settings(spec, str(nodes)):,}",
                     hours(spent[nodes]),
                     str(sum(r["status"] == "timeout" for r in runs))]
            cells += [f"{duration(statistics.median(wall[t]))}, {duration(max(wall[t]))}" if wall[t] else "-"
                      for t in TOPOLOGIES]
            lines.append("| " + " | ".join(cells) + " |")
    planned = []
    rows = list({setting(r): r for r in csv.DictReader(rows_file(os.path.join(ROOT, "docs", "study", "convergence.csv"),
                                                                  check, "cost_table.py"))}.values())
    for name, nodes, topologies, seeds in PLANNED:
        spec = os.path.join(ROOT, "study", name + ".json")
        if not os.path.exists(spec):
            continue
        results = os.path.join(ROOT, "docs", "study", name + ".csv")
        ran = list(csv.DictReader(rows_file(results, check, "cost_table.py"))) if os.path.exists(results) else []
        for n in nodes:
            if sum(r["nodes"] == str(n) for r in ran) >= settings(spec, str(n)):
                continue  # run: its row is in the table above
            # Per setting but its seed: study-1's mean run time per seed, times the new seeds not run yet.
            done, ran_seeds = defaultdict(list), defaultdict(int)
            for r in rows:
                if r["nodes"] == str(n) and r["initial"] == "random" and r["topology"] in topologies:
                    done[unseeded(r)].append(float(r["wall_seconds"]))
            for r in ran:
                if r["nodes"] == str(n):
                    ran_seeds[unseeded(r)] += 1
            left = {k: seeds - ran_seeds[k] for k in done}
            runs = sum(left.values())
            seconds = sum(statistics.mean(done[k]) * left[k] for k in done)
            planned.append(f"| {name} | {n:,} | {runs:,} | {seconds / 3600:.1f} h |")
    if planned:  # the planned table, only while a seed spec has runs left
        lines += ["", PLANNED_HEAD, "|---|---|---|---|"] + planned
    # What the specs with runs left still cost, by the campaign's own estimate (each run left timed by the
    # committed runs most like it; runs like none timed are counted apart, never guessed), on one job.
    for name in LEFT:
        lines += ["", f"`hetlb campaign study/{name}.json --report -j 1`: " + left_estimate(name)]
    print_or_check("\n".join(lines) + "\n", check, "cost_table.py", "the cost table", "cost_table.py")


if __name__ == "__main__":
    main()
