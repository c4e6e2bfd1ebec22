"""A notebook in a script: 20 small diffusion simulations (4 strategies x 5 seeds on random loads),
their mean convergence dates side by side, and a bar chart with matplotlib.

    PYTHONPATH=build/python python3 python/examples/compare_strategies.py [figure.png]
"""
import sys

import numpy as np

import hetlb

# %% 20 runs: each returns the command line's metrics as a dict
strategies = ["simple", "makhoul", "besteffort", "besteffort+virtual"]
runs = []
for name in strategies:
    for seed in range(1, 6):
        r = hetlb.simulate_diffusion(nodes=16, topology="torus", initial="random", seed=seed, iterations=20,
                                     strategy=name.split("+")[0], virtual_load=name.endswith("+virtual"))
        runs.append(dict(strategy=name, seed=seed, date=r["max_convergence_date"], idle=r["avg_idle_time"],
                         moved=r["data_transfer_amount"], converged=r["converged"]))

# %% the table
print(f"{'strategy':<20} {'converged':>9} {'mean date (s)':>14} {'data moved':>11}")
for name in strategies:
    mine = [r for r in runs if r["strategy"] == name]
    dates = [r["date"] for r in mine if r["date"] is not None]
    print(f"{name:<20} {sum(bool(r['converged']) for r in mine):>9} "
          f"{np.mean(dates) if dates else float('nan'):>14.4g} {np.mean([r['moved'] for r in mine]):>11.4g}")

# %% the figure
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no figure")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(6, 3.5))
for i, name in enumerate(strategies):
    dates = [r["date"] for r in runs if r["strategy"] == name and r["date"] is not None]
    ax.scatter([i] * len(dates), dates, alpha=0.6)
    ax.bar(i, np.mean(dates) if dates else 0, alpha=0.3)
ax.set_xticks(range(len(strategies)), strategies, rotation=15)
ax.set_ylabel("convergence date (simulated s)")
ax.set_title("16-node torus, random loads, 5 seeds")
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "strategies.png"
fig.savefig(out)
print(f"figure written to {out}")
