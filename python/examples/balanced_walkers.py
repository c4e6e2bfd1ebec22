"""An mpi4py iterative program balanced by hetlb's asynchronous runtime.

Random walkers (records of a structured dtype) all start on rank 0; every iteration each rank moves
the walkers it holds. hetlb.mpi.Balancer moves walkers between neighbouring ranks while the program
runs, until every rank holds its share, then the loop ends on every rank. At the end rank 0 checks
that every walker is held exactly once and intact.

    mpirun -np 4 python3 python/examples/balanced_walkers.py [WALKERS]
"""
import sys

from mpi4py import MPI
import numpy as np

import hetlb.mpi

comm = MPI.COMM_WORLD
walker = np.dtype([("id", "u8"), ("x", "f8"), ("y", "f8"), ("steps", "i8")])
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

walkers = None
if comm.rank == 0:  # all the work starts on one rank
    walkers = np.zeros(n, dtype=walker)
    walkers["id"] = np.arange(n)

rng = np.random.default_rng(comm.rank)
lb = hetlb.mpi.Balancer(comm, walkers, topology="auto", virtual_load=True, time_limit=60)
while True:
    w = lb.items                                   # this rank's walkers now (a numpy view)
    for _ in range(20):                            # the iteration's work: 20 steps of every walker
        w["x"] += rng.normal(size=len(w))
        w["y"] += rng.normal(size=len(w))
    w["steps"] += 20
    if not lb.iteration_done():                    # walkers arrive and leave here; False: balanced
        break

m = lb.metrics()                                   # collective; raises if a walker was lost or duplicated
mine = lb.items
ids = comm.gather(mine["id"].copy(), root=0)
intact = comm.allreduce(bool(np.array_equal(mine["id"], lb.ids)), op=MPI.LAND)
lb.free()
if comm.rank == 0:
    every_walker_once = np.array_equal(np.sort(np.concatenate(ids)), np.arange(n))
    date = m["max_convergence_date"]                # None unless every rank converged
    print(f"topology {m['topology']}, converged {m['converged']}" + (f" at {date:.3f} s" if date is not None else ""))
    print(f"walkers per rank {m['final_loads'].tolist()}, moved {m['data_transfer_amount']:.2f} x {n}")
    print(f"every walker once: {every_walker_once}, intact: {intact}")
    if not (every_walker_once and intact):
        sys.exit(1)
