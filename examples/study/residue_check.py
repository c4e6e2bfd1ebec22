#!/usr/bin/env python3
"""Are simple's deadlocks on the lines the draft's (Section 2) or floating-point residue's?

    python3 examples/study/residue_check.py [HETLB] [--nodes N] [--check FILE]

Runs again every committed real-load line run of `simple` at 16 and 64 nodes (convergence.csv, aligned
phases, and convergence-staggered.csv), with the same settings plus `--residue-equal`: a neighbour
lighter by less than 1e-9 of the node's load counts as equal, so that residue can no longer bound the
transfer. Prints one markdown table: per phase, size and virtual-load setting, how many runs converge
under the draft's rule (the committed rows) and with --residue-equal, and for runs that converge both
ways the median ratio of the last convergence dates (residue-equal / draft). About 10 minutes here
(192 runs); progress on stderr. HETLB is build/bin/hetlb by default; --nodes 16 or 64 keeps one size
(16: 96 runs, about 30 s); with --check FILE, prints nothing and exits 1 unless FILE (docs/study.md)
holds every row of the table as the runs give it.
"""
import csv
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
STUDY = os.path.join(HERE, "..", "..", "docs", "study")
SPECS = [("aligned", "convergence.csv"), ("staggered", "convergence-staggered.csv")]


def args_of(r, phase):
    a = ["simulate", "diffusion", "--strategy", "simple", "--k", r["k"], "--estimates", r["estimates"],
         "--platform", r["platform"], "--nodes", r["nodes"], "--topology", r["topology"], "--initial", r["initial"],
         "--ratio", r["ratio"], "--seed", r["seed"], "--load-per-node", r["load_per_node"], "--iterations",
         r["iterations"], "--time-limit", r["time_limit"], "--min-comp-iter=" + r["min_comp_iter"],
         "--min-lb-iter=" + r["min_lb_iter"], "--lb-phase", phase, "--residue-equal", "--format", "json"]
    return a + (["--virtual-load"] if r["virtual_load"] == "true" else [])


def main():
    args = sys.argv[1:]
    options = {}
    for flag in ("--nodes", "--check"):
        if flag in args:
            i = args.index(flag)
            if i + 1 >= len(args):
                sys.exit(f"residue_check.py: {flag} needs a value")
            options[flag] = args.pop(i + 1)
            args.pop(i)
    if len(args) > 1 or options.get("--nodes", "16") not in ("16", "64"):
        sys.exit("usage: residue_check.py [HETLB] [--nodes 16|64] [--check FILE]")
    hetlb = args[0] if args else "build/bin/hetlb"
    sizes = [options["--nodes"]] if "--nodes" in options else ["16", "64"]
    runs = []
    for phase, name in SPECS:
        for r in csv.DictReader(open(os.path.join(STUDY, name))):
            if (r["strategy"], r["integer"], r["topology"], r["status"]) == ("simple", "false", "line", "ok") \
                    and r["nodes"] in sizes:
                runs.append((phase, r))
    if not runs:
        sys.exit("residue_check.py: no committed real-load line run of simple at 16 or 64 nodes")
    groups = defaultdict(lambda: {"runs": 0, "draft": 0, "equal": 0, "ratios": []})
    for i, (phase, r) in enumerate(runs, 1):
        out = subprocess.run([hetlb] + args_of(r, phase), capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"residue_check.py: {hetlb} failed: {out.stderr.strip()}")
        j = json.loads(out.stdout)
        g = groups[(phase, int(r["nodes"]), r["virtual_load"])]
        g["runs"] += 1
        g["draft"] += r["converged"] == "1"
        g["equal"] += bool(j["converged"])
        if r["converged"] == "1" and j["converged"]:
            g["ratios"].append(j["max_convergence_date"] / float(r["max_convergence_date"]))
        print(f"[{i}/{len(runs)}] {phase} {r['platform']} {r['nodes']} {r['initial']} ratio {r['ratio']} "
              f"seed {r['seed']} virtual {r['virtual_load']}: draft {r['converged'] == '1'}, "
              f"residue-equal {j['converged']}", file=sys.stderr, flush=True)
    lines = ["| phases | nodes | virtual load | runs | converge (draft's rule) | converge (--residue-equal) "
             "| date ratio, median (range) |", "|---|---|---|---|---|---|---|"]
    for (phase, nodes, virtual), g in sorted(groups.items(), key=lambda x: (x[0][0], x[0][1], x[0][2])):
        x = g["ratios"]
        ratio = f"{statistics.median(x):.3f} ({min(x):.3f} to {max(x):.3f})" if x else "-"
        lines.append(f"| {phase} | {nodes} | {'yes' if virtual == 'true' else 'no'} | {g['runs']} | {g['draft']} "
                     f"| {g['equal']} | {ratio} |")
    if "--check" not in options:
        print("\n".join(lines))
        return
    held = open(options["--check"]).read().splitlines()
    missing = [line for line in lines if line not in held]
    if missing:
        sys.exit(f"residue_check.py: {options['--check']} does not hold, as the runs give it: {missing[0]}")


if __name__ == "__main__":
    main()
