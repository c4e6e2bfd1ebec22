#!/usr/bin/env python3
"""When do ring redistributions pay off? (Renard, Robert, Vivien, Section 8.)

Runs `hetlb simulate ring-iterations` over the computation-to-communication ratio (four decades),
the window's drift speed, homogeneous and heterogeneous rings of 8, 64 and 256 processors, for the
policies never, every:K, threshold:1.2, model and the offline optimum. Writes results.csv.
Usage: sweep.py HETLB [OUT.csv]
"""
import csv, json, os, random, subprocess, sys, tempfile

HETLB = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "results.csv")
ITERATIONS = 100
RATIOS = [0.001, 0.01, 0.1, 1, 10]
SPEEDS = [0.05, 0.25, 1.0]          # window: processors per iteration
SIZES = [8, 64, 256]
KS = [1, 2, 5, 10, 20, 50, 100]
POLICIES = ["never"] + [f"every:{k}" for k in KS] + ["threshold:1.2", "model", "optimal"]


def ring_file(directory, n, heterogeneous):
    g = random.Random(n)
    ring = {"loads": [100] * n, "succ_cost": 1.0, "speeds": 1.0}
    if heterogeneous:
        ring["succ_cost"] = [round(g.uniform(0.5, 2.0), 3) for _ in range(n)]
        ring["speeds"] = [round(g.uniform(0.5, 2.0), 3) for _ in range(n)]
        ring["loads"] = [round(100 * s) for s in ring["speeds"]]  # balanced before the window arrives
    path = os.path.join(directory, f"ring-{n}-{'het' if heterogeneous else 'hom'}.json")
    with open(path, "w") as f:
        json.dump(ring, f)
    return path


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for heterogeneous in (False, True):
            for n in SIZES:
                path = ring_file(tmp, n, heterogeneous)
                for speed in SPEEDS:
                    for ratio in RATIOS:
                        for policy in POLICIES:
                            out = subprocess.run(
                                [HETLB, "simulate", "ring-iterations", path, "--policy", policy, "--iterations",
                                 str(ITERATIONS), "--drift", "window", "--drift-speed", str(speed), "--ratio",
                                 str(ratio), "--format", "json"], check=True, capture_output=True, text=True)
                            j = json.loads(out.stdout)
                            rows.append({"ring": "heterogeneous" if heterogeneous else "homogeneous", "n": n,
                                         "drift_speed": speed, "ratio": ratio, "policy": policy,
                                         **{k: j[k] for k in ("total_time", "compute_time", "imbalance_time",
                                                              "redistribution_time", "redistributions",
                                                              "data_moved")}})
                        print(f"{rows[-1]['ring']} n={n} speed={speed} ratio={ratio}", file=sys.stderr)
    with open(OUT, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
