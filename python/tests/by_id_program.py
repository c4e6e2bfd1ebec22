"""Run under mpirun -np 4 by test_by_id.py: hetlb.mpi.Balancer's gather and scatter by id, and item
costs. Rank 0 prints one line per check and rank: "<check> <rank> <outcome>"."""
import numpy as np

import hetlb.mpi

from mpi_checks import comm, outcome, rank, report, size

record = np.dtype([("key", "u8"), ("frame", "i8"), ("payload", "f4", (3,))])
ROOT = 1


def shuffled_records(n, seed, here=True):
    """n records with ids 0..n-1 in a seeded random order (none, and no ids, where not `here`)."""
    if not here:
        return None, np.zeros(0, dtype=np.uint64)
    keys = np.random.default_rng(seed).permutation(n).astype(np.uint64)
    r = np.zeros(n, dtype=record)
    r["key"] = keys
    r["payload"] = (keys[:, None] * np.array([1, 2, 3])).astype(np.float32)
    return r, keys


def frames():  # every iteration: gather at the root in id order, next frame scattered back to the holders
    recs, keys = shuffled_records(400, seed=5, here=rank == 0)
    lb = hetlb.mpi.Balancer(comm, recs, keys, mode="bulk_synchronous", integer=True, time_limit=30)
    ok, frame, running = lb.total_items == 400, 0, True
    while running:
        whole, ids = lb.gather_by_id(root=ROOT, return_ids=True) or (None, None)
        doubled = lb.gather_by_id(lb.ids.astype(np.float64) * 2, root=ROOT)
        if rank == ROOT:
            ok = ok and np.array_equal(ids, np.arange(400, dtype=np.uint64))  # every id once, in id order
            ok = ok and np.array_equal(whole["key"], ids) and bool(np.all(whole["frame"] == frame))
            ok = ok and np.array_equal(whole["payload"], (ids[:, None] * np.array([1, 2, 3])).astype(np.float32))
            ok = ok and np.array_equal(doubled, 2.0 * np.arange(400))
            whole["frame"] = frame + 1
        else:
            ok = ok and whole is None and doubled is None
        lb.scatter_by_id(whole, root=ROOT)  # over the records themselves
        ok = ok and np.array_equal(lb.items["key"], lb.ids) and bool(np.all(lb.items["frame"] == frame + 1))
        mine = lb.scatter_by_id(-np.arange(400, dtype=np.int64) if rank == ROOT else None, root=ROOT,
                                out=np.zeros(len(lb), dtype=np.int64))
        ok = ok and np.array_equal(mine, -lb.ids.astype(np.int64))
        frame += 1
        running = lb.iteration_done()
    moved = comm.allreduce(len(lb) if rank == 0 else 0) < 400
    ok = comm.allreduce(ok and moved, op=__import__("mpi4py").MPI.LAND)
    return ok and lb.metrics()["ids_conserved"] and frame > 1


outcome("frames", frames)


def after_async_end():  # the asynchronous mode: refused while running, every record once after the end
    lb = hetlb.mpi.Balancer(comm, *shuffled_records(200, seed=6, here=rank == 0), time_limit=30)
    try:
        lb.gather_by_id(root=0)
        refused = ""
    except ValueError as e:
        refused = str(e)
    while lb.iteration_done():
        pass
    whole = lb.gather_by_id(root=0)
    ok = rank != 0 or np.array_equal(whole["key"], np.arange(200, dtype=np.uint64))
    return ok and "asynchronous run goes on" in refused


outcome("async-end", after_async_end)


def costs():  # costs given at the start, read back in the records' order, carried, loads balanced by cost
    n = 200
    recs, keys = shuffled_records(n, seed=7, here=rank == 0)
    cost_of = lambda ids: np.where(ids % 4 == 0, 10.0, 1.0)  # noqa: E731
    lb = hetlb.mpi.Balancer(comm, recs, keys, mode="bulk_synchronous", tolerance=0.05, iterations=10, balance="load",
                            time_limit=30, costs=None if rank != 0 else cost_of(keys))
    ok = comm.allreduce(lb.load) == 650.0  # all on rank 0: none lost in start()
    while lb.iteration_done():
        ok = ok and np.array_equal(lb.costs, cost_of(lb.ids))
    ok = ok and np.array_equal(lb.costs, cost_of(lb.ids)) and abs(lb.load - 650.0 / size) <= 0.05 * 650 / size + 20
    counts = comm.allgather(len(lb))
    if len(lb):
        lb.set_costs(np.full(len(lb), 2.0))
        lb.set_cost(int(lb.ids[0]), 3.0)
        ok = ok and lb.load == 2.0 * len(lb) + 1.0 and lb.costs[0] == 3.0
    lb.metrics()
    return ok and max(counts) > min(counts)


outcome("costs", costs)


def misuse(check, call):
    lb = hetlb.mpi.Balancer(comm, *shuffled_records(20, seed=8, here=rank == 0), mode="bulk_synchronous",
                            end_on_convergence=False)
    try:
        outcome(check, lambda: call(lb))
    finally:
        lb.stop()
        lb.free()


misuse("short-values", lambda lb: lb.gather_by_id(np.zeros(len(lb) + (1 if rank == 2 else 0))))
misuse("roots-differ", lambda lb: lb.gather_by_id(root=rank % 2))
misuse("bad-root", lambda lb: lb.gather_by_id(root=size))
misuse("frame-rows", lambda lb: lb.scatter_by_id(np.zeros(3, dtype=record) if rank == 0 else None, root=0))
misuse("bad-costs", lambda lb: hetlb.mpi.Balancer(comm, shuffled_records(4, 9)[0], np.arange(4) + 4 * rank,
                                                  costs=[1, 1, 0 if rank == 3 else 1, 1]))
misuse("set-cost-not-held", lambda lb: lb.set_cost(10**9, 1.0))
report()
