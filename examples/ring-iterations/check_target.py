#!/usr/bin/env python3
"""Checks the cost model's target on a sample of the sweep's points (sweep.py): 8 and 64 processors,
homogeneous and heterogeneous, window speeds 0.25 and 1, ratios 0.01 to 10, and one slow window. The
model policy must be within 5% of the offline optimum, except at the points listed in KNOWN
(docs/ring.md, "The cost model against the target"), which must stay within their stated bound; and
beyond the optimum's size (beyond_optimum.py), at the points in BEYOND, within 2% of the better of
never and every iteration. Exit status 1 and one line per failure otherwise. Usage: check_target.py
HETLB [--full]: the sample below with --full (make bench, about a minute: the offline optimum of 64
processors takes seconds per point); without, its 8-processor points and three 64-processor ones (make
test, about 15 s)."""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import ring_file  # noqa: E402

HETLB = sys.argv[1]
FULL = "--full" in sys.argv[2:]
SAMPLE = [(het, n, speed, ratio) for het in (False, True) for n in (8, 64) for speed in (0.25, 1.0)
          for ratio in (0.01, 0.1, 1, 10)]
# and a window that moves every 20 iterations, where a redistribution halfway between two moves pays for
# a plan the next move makes useless (the former rule: 1.063x, docs/ring.md).
SAMPLE += [(True, 8, 0.05, 0.1)]
if not FULL:  # the 64-processor points include the former miss (heterogeneous, 0.25, R = 1)
    SAMPLE = [p for p in SAMPLE if p[1] == 8] + [(True, 64, 0.25, 1), (True, 64, 0.25, 10), (False, 64, 1.0, 0.1)]
# Misses of the sample and their bound: none since the shadow's horizon counts only the plans inside it
# (heterogeneous 64 processors, window speed 0.25, R = 1 was 1.068x when the plan at the horizon's end
# was charged in full: the model skipped the last four redistributions).
KNOWN = {}
# 2,000 iterations of 256 processors where the model once stayed near never while redistributing at
# every step of the window was best (+47% and +13%).
BEYOND = [(True, 256, 0.05, 0.1), (True, 256, 1.0, 1)]


def total(path, policy, speed, ratio, iterations=100):
    out = subprocess.run([HETLB, "simulate", "ring-iterations", path, "--policy", policy, "--iterations", str(iterations),
                          "--drift", "window", "--drift-speed", str(speed), "--ratio", str(ratio), "--format", "json"],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["total_time"]


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for het, n, speed, ratio in SAMPLE:
            path = ring_file(tmp, n, het)
            model, opt = (total(path, p, speed, ratio) for p in ("model", "optimal"))
            bound = KNOWN.get((het, n, speed, ratio), 1.05)
            if model > bound * opt:
                failures.append(f"{'heterogeneous' if het else 'homogeneous'} n={n} window speed={speed} "
                                f"ratio={ratio}: model / optimum = {model / opt:.4f}, expected <= {bound}")
        for het, n, speed, ratio in BEYOND:
            path = ring_file(tmp, n, het)
            model, never, every = (total(path, p, speed, ratio, 2000) for p in ("model", "never", "every:1"))
            if model > 1.02 * min(never, every):
                failures.append(f"{'heterogeneous' if het else 'homogeneous'} n={n} window speed={speed} ratio={ratio}, "
                                f"2000 iterations: model / min(never, every:1) = {model / min(never, every):.4f}, expected <= 1.02")
    for f in failures:
        print(f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
