#!/usr/bin/env python3
"""The cost model where the offline optimum cannot be computed (2,000 iterations of 256 and 1,024
processors: iterations^2 x processors above its limit): the model against the better of never and
every iteration, on sweep.py's rings, window speeds and ratios. Usage: beyond_optimum.py HETLB"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import RATIOS, SPEEDS, ring_file  # noqa: E402

HETLB = sys.argv[1]


def total(path, policy, speed, ratio):
    out = subprocess.run([HETLB, "simulate", "ring-iterations", path, "--policy", policy, "--iterations", "2000",
                          "--drift", "window", "--drift-speed", str(speed), "--ratio", str(ratio), "--format", "json"],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["total_time"]


worst, cases, within = -1.0, 0, 0
with tempfile.TemporaryDirectory() as tmp:
    for het in (False, True):
        for n in (256, 1024):
            path = ring_file(tmp, n, het)
            for speed in SPEEDS:
                for ratio in RATIOS:
                    m, nv, e1 = (total(path, p, speed, ratio) for p in ("model", "never", "every:1"))
                    over = m / min(nv, e1) - 1
                    worst, cases, within = max(worst, over), cases + 1, within + (over <= 0.02)
                    print(f"{'heterogeneous' if het else 'homogeneous'} n={n} speed={speed} ratio={ratio}: "
                          f"model / min(never, every:1) = {m / min(nv, e1):.4f}")
print(f"model within 2% of the better of never and every iteration in {within} of {cases} cases; worst {100 * worst:+.1f}%")
