#!/usr/bin/env python3
"""The cost model against the offline optimum away from the sweep (sweep.py): random walks (step 1%
and 5% of the mean load, seeds 1 and 2) and windows at 0.1 and 0.5 processor per iteration, on
sweep.py's homogeneous and heterogeneous rings of 8 and 64 processors, ratios 0.01 to 10, 100
iterations (96 cases). Prints the cases above 5% and the count. Usage: other_drifts.py HETLB"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import ring_file  # noqa: E402

HETLB = sys.argv[1]
DRIFTS = [("walk", 0.01), ("walk", 0.05), ("window", 0.5), ("window", 0.1)]


def total(path, policy, drift, speed, ratio, seed, iterations=100):
    out = subprocess.run([HETLB, "simulate", "ring-iterations", path, "--policy", policy, "--iterations", str(iterations),
                          "--drift", drift, "--drift-speed", str(speed), "--ratio", str(ratio), "--seed", str(seed),
                          "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["total_time"]


def main():
    worst, cases, within = 0.0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for het in (False, True):
            for n in (8, 64):
                path = ring_file(tmp, n, het)
                for drift, speed in DRIFTS:
                    for seed in ((1, 2) if drift == "walk" else (1,)):
                        for ratio in (0.01, 0.1, 1, 10):
                            q = total(path, "model", drift, speed, ratio, seed) / total(path, "optimal", drift, speed, ratio, seed)
                            worst, cases, within = max(worst, q), cases + 1, within + (q <= 1.05)
                            if q > 1.05:
                                print(f"{'heterogeneous' if het else 'homogeneous'} n={n} {drift} {speed} seed={seed} "
                                      f"ratio={ratio}: model / optimum = {q:.4f}")
    print(f"model within 5% of the optimum in {within} of {cases} cases; worst {worst:.3f}")


if __name__ == "__main__":
    main()
