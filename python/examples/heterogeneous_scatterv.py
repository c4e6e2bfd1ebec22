"""mpi4py's divmod Scatterv, made heterogeneous with hetlb.

The classic mpi4py program splits 100 numbers evenly with divmod, blind to processor speed:

    ave, res = divmod(data.size, size)
    counts = [ave + 1 if p < res else ave for p in range(size)]
    displs = [sum(counts[:p]) for p in range(size)]
    comm.Scatterv([data, counts, displs, MPI.DOUBLE], recvbuf, root=0)

Here the ranks are unlike (rank 1 computes twice as fast as the others, rank 3 sits on a slow link):
hetlb plans the counts, and its scatterv sends in the plan's order. Run it with
    mpirun -np 4 python3 heterogeneous_scatterv.py
"""
from mpi4py import MPI
import numpy as np

import hetlb
import hetlb.mpi

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()

# The few lines that change: a platform (seconds per item on each rank, and on its link from rank 0)
platform = hetlb.platform(compute=[2e-3, 1e-3] + [2e-3] * (size - 2),
                          comm=[0.0] + [1e-4] * (size - 2) + [1e-3], root=0)
plan = hetlb.plan_scatter(platform, items=100)  # the same plan on every rank (deterministic)

data = np.arange(100, dtype="d") if rank == 0 else None
# Either mpi4py's own Scatterv with hetlb's counts ...
recvbuf = np.empty(plan.counts[rank], dtype="d")
comm.Scatterv([data, plan.counts, plan.displacements, MPI.DOUBLE], recvbuf, root=0)
# ... or hetlb's, which serves the ranks in the planned order (fastest links first, the root last).
mine = hetlb.mpi.scatterv(comm, plan, data)
assert np.array_equal(mine, recvbuf)

partial = comm.gather(mine.sum(), root=0)
back = hetlb.mpi.gatherv(comm, plan, mine * 2)
if rank == 0:
    assert sum(partial) == data.sum() and np.array_equal(back, data * 2)
    print(f"counts {plan.counts.tolist()}, predicted makespan {plan.makespan:.4f} s "
          f"(divmod: {[100 // size + (p < 100 % size) for p in range(size)]})")
