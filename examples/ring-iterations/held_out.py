#!/usr/bin/env python3
"""The cost model against the offline optimum on rings it was not designed on: sweep.py's generator
with 16 and 128 processors (other rings: the generator is seeded by the size), homogeneous and
heterogeneous, a random walk (step 1% and 5% of the mean load, seed 3) and windows at 0.05, 0.1,
0.25 and 0.5 processor per iteration, ratios 0.01 to 10, 100 iterations (96 cases). Prints the cases
above 5% and the count. Usage: held_out.py HETLB"""
import os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from other_drifts import total  # noqa: E402
from sweep import ring_file  # noqa: E402

DRIFTS = [("walk", 0.01), ("walk", 0.05), ("window", 0.5), ("window", 0.1), ("window", 0.05), ("window", 0.25)]

worst, cases, within = 0.0, 0, 0
with tempfile.TemporaryDirectory() as tmp:
    for het in (False, True):
        for n in (16, 128):
            path = ring_file(tmp, n, het)
            for drift, speed in DRIFTS:
                seed = 3 if drift == "walk" else 1
                for ratio in (0.01, 0.1, 1, 10):
                    q = total(path, "model", drift, speed, ratio, seed) / total(path, "optimal", drift, speed, ratio, seed)
                    worst, cases, within = max(worst, q), cases + 1, within + (q <= 1.05)
                    if q > 1.05:
                        print(f"{'heterogeneous' if het else 'homogeneous'} n={n} {drift} {speed} seed={seed} "
                              f"ratio={ratio}: model / optimum = {q:.4f}")
print(f"model within 5% of the optimum in {within} of {cases} cases; worst {worst:.3f}")
