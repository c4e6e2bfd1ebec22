#!/usr/bin/env python3
"""The cost model against the offline optimum on rings it was not designed on: sweep.py's generator
with 16 and 128 processors (other rings: the generator is seeded by the size), homogeneous and
heterogeneous, a random walk (step 1% and 5% of the mean load, seed 3) and windows at 0.05, 0.1,
0.25 and 0.5 processor per iteration, ratios 0.01 to 10, 100 iterations (96 cases); and a longer
horizon: the sweep's 8- and 64-processor rings, 200 iterations, windows at 0.05, 0.25 and 1, walks of
1% and 5% (seed 5), ratios 0.1 to 10 (60 cases). Prints the cases above 5% and the counts.
Usage: held_out.py HETLB"""
import os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from other_drifts import total  # noqa: E402
from sweep import ring_file  # noqa: E402

DRIFTS = [("walk", 0.01), ("walk", 0.05), ("window", 0.5), ("window", 0.1), ("window", 0.05), ("window", 0.25)]



def run(sizes, drifts, ratios, iterations, label):
    worst, cases, within = 0.0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for het in (False, True):
            for n in sizes:
                path = ring_file(tmp, n, het)
                for drift, speed, seed in drifts:
                    for ratio in ratios:
                        q = (total(path, "model", drift, speed, ratio, seed, iterations)
                             / total(path, "optimal", drift, speed, ratio, seed, iterations))
                        worst, cases, within = max(worst, q), cases + 1, within + (q <= 1.05)
                        if q > 1.05:
                            print(f"{'heterogeneous' if het else 'homogeneous'} n={n} {drift} {speed} seed={seed} "
                                  f"ratio={ratio}, {iterations} iterations: model / optimum = {q:.4f}")
    print(f"{label}: model within 5% of the optimum in {within} of {cases} cases; worst {worst:.3f}")


run((16, 128), [(d, v, 3 if d == "walk" else 1) for d, v in DRIFTS], (0.01, 0.1, 1, 10), 100, "16 and 128 processors")
run((8, 64), [("window", 0.05, 1), ("window", 0.25, 1), ("window", 1.0, 1), ("walk", 0.01, 5), ("walk", 0.05, 5)],
    (0.1, 1, 10), 200, "200 iterations")
