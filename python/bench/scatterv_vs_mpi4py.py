"""hetlb.mpi.scatterv and gatherv through a persistent plan against mpi4py's own comm.Scatterv and
comm.Gatherv with the same counts and displacements, numpy float64 buffers of 64 KB to 64 MB (receive
buffers allocated once, as mpi4py's calls need them). Each repetition times the two calls in a rotating order (so drifts of the machine
hit all alike), each from a barrier to the slowest rank's return; rank 0 prints a markdown table of
the medians and hetlb's differences.

    mpirun -np 2 python3 python/bench/scatterv_vs_mpi4py.py [--max-bytes B] [--reps R]
"""
import argparse
import time

from mpi4py import MPI
import numpy as np

import hetlb
import hetlb.mpi

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
parser = argparse.ArgumentParser()
parser.add_argument("--max-bytes", type=int, default=64 << 20)
parser.add_argument("--reps", type=int, default=0, help="repetitions per payload (0: from 2001 at 64 KB down to 51)")
args = parser.parse_args()

# Processors of different speeds and links (linear costs), processor k = rank k, root 0 (as hetlb-mpi-scatter-bench).
platform = hetlb.platform(compute=[1e-9 * (1 + (k * 3) % 5) for k in range(size)],
                          comm=[0.0 if k == 0 else 1e-10 * (1 + (k * 5) % 7) for k in range(size)], root=0)


def timed(call):
    comm.Barrier()
    start = MPI.Wtime()
    call()
    return comm.allreduce(MPI.Wtime() - start, op=MPI.MAX)


rows = []
payload = 64 << 10
while payload <= args.max_bytes:
    items = payload // 8
    plan = hetlb.plan_scatter(platform, items=items)
    persistent = hetlb.mpi.Plan(comm, plan)
    counts, displs = plan.counts, plan.displacements
    data = np.arange(items, dtype=np.float64) if rank == 0 else None
    mine = np.empty(int(counts[rank]))
    back = np.empty(items) if rank == 0 else None
    calls = {
        "hetlb": lambda: hetlb.mpi.scatterv(comm, persistent, data, mine),
        "mpi4py": lambda: comm.Scatterv([data, counts, displs, MPI.DOUBLE] if rank == 0 else None, mine, root=0),
        "hetlb-gather": lambda: hetlb.mpi.gatherv(comm, persistent, mine, back),
        "mpi4py-gather": lambda: comm.Gatherv(mine, [back, counts, displs, MPI.DOUBLE] if rank == 0 else None, root=0),
    }
    reps = args.reps or max(51, min(2001, int(2001 * (64 << 10) / payload)))
    times = {name: [] for name in calls}
    names = list(calls)
    for _ in range(3):  # warm-up
        for name in names:
            calls[name]()
    for r in range(reps):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(timed(calls[name]))
    start = int(displs[rank])
    assert np.array_equal(mine, np.arange(start, start + counts[rank], dtype=np.float64))
    assert rank != 0 or np.array_equal(back, data)
    persistent.free()
    rows.append((payload, {name: float(np.median(t)) for name, t in times.items()}, reps))
    payload *= 4

if rank == 0:
    print(f"{size} ranks, {time.strftime('%Y-%m-%d')}")
    print("| payload | mpi4py Scatterv (s) | hetlb.mpi.scatterv (s) | difference | mpi4py Gatherv (s) | "
          "hetlb.mpi.gatherv (s) | difference | repetitions |")
    print("|---|---|---|---|---|---|---|---|")
    for payload, m, reps in rows:
        label = f"{payload >> 20} MB" if payload >= 1 << 20 else f"{payload >> 10} KB"
        cells = []
        for bare, ours in (("mpi4py", "hetlb"), ("mpi4py-gather", "hetlb-gather")):
            cells += [f"{m[bare]:.3g}", f"{m[ours]:.3g}", f"{100 * (m[ours] - m[bare]) / m[bare]:+.1f}%"]
        print(f"| {label} | {' | '.join(cells)} | {reps} |")
