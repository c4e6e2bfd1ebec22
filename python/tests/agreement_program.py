"""Run under mpirun -np 4 by test_agreement.py: an error on one rank only reaches every rank of every
hetlb.mpi call (no hang), dtypes are kept and compared, plans compared, and the Balancer's global steps.
Rank 0 prints one line per check and rank: "<check> <rank> <outcome>"."""
import numpy as np

import hetlb
import hetlb.mpi

from mpi_checks import _lines, comm, outcome, rank, report, size

platform = hetlb.platform(compute=[3e-3, 1e-3, 2e-3, 1e-3][:size], comm=[0, 1e-4, 3e-4, 2e-4][:size], root=0)
plan = hetlb.plan_scatter(platform, items=1000)
count = int(plan.counts[rank])


def any_outcome(check, call):
    """As outcome(), and any other exception by its type (a KeyboardInterrupt raised again on its rank)."""
    try:
        outcome(check, call)
    except BaseException as e:  # noqa: BLE001
        _lines.append(f"{check} {rank} {type(e).__name__} {e}")


# plans
outcome("plans-differ", lambda: hetlb.mpi.scatterv(
    comm, plan if rank != 1 else hetlb.plan_scatter(platform, items=1000, algorithm="uniform"),
    np.zeros(1000) if rank == 0 else None))

# dtypes
record = np.dtype([("key", "<i4"), ("value", "<f8")])


def structured():
    data = np.zeros(1000, dtype=record) if rank == 0 else None
    if rank == 0:
        data["key"] = np.arange(1000)
    mine = hetlb.mpi.scatterv(comm, plan, data)
    back = hetlb.mpi.gatherv(comm, plan, mine)
    return mine.dtype == record and (rank != 0 or bool(np.array_equal(back["key"], np.arange(1000))))


outcome("structured", structured)
outcome("gather-reinterpreted", lambda: hetlb.mpi.gatherv(comm, plan, np.zeros(count),
                                                          np.zeros(1000, dtype=np.int64) if rank == 0 else None))
outcome("gather-dtypes-differ", lambda: hetlb.mpi.gatherv(comm, plan, np.zeros(count, dtype=np.int64 if rank == 2
                                                                                  else np.float64)))


def direct_dtype():  # after an agreed call, a rank's buffer of another dtype of the same size is refused
    p = hetlb.mpi.Plan(comm, plan)
    data = np.zeros(1000) if rank == 0 else None
    hetlb.mpi.scatterv(comm, p, data, np.empty(count))
    hetlb.mpi.gatherv(comm, p, np.zeros(count))
    results = []
    for call in (lambda: hetlb.mpi.scatterv(comm, p, data, np.empty(count, dtype=np.int64 if rank == 2 else float)),
                 lambda: hetlb.mpi.gatherv(comm, p, np.zeros(count, dtype=np.int64 if rank == 3 else float))):
        try:
            call()
            results.append("no error")
        except ValueError as e:
            results.append(str(e).split(":")[0])
    return results


outcome("direct-dtype", direct_dtype)

# an error of one rank only
outcome("list-at-root", lambda: hetlb.mpi.scatterv(comm, plan, [0.0] * 1000 if rank == 0 else None))


def memory_error():
    real = np.empty

    def empty(*args, **kwargs):
        raise MemoryError("no memory for the block")
    if rank == 2:
        np.empty = empty
    try:
        return hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None)
    finally:
        np.empty = real


outcome("memory-error", memory_error)


def freed_on_one_rank():
    p = hetlb.mpi.Plan(comm, plan)
    hetlb.mpi.scatterv(comm, p, np.zeros(1000) if rank == 0 else None, np.empty(count))  # then direct
    if rank == 1:
        p.free()
    return hetlb.mpi.scatterv(comm, p, np.zeros(1000) if rank == 0 else None, np.empty(count))


outcome("freed-on-one-rank", freed_on_one_rank)


def intercommunicator():
    local = comm.Split(rank % 2, rank)
    inter = local.Create_intercomm(0, comm, 1 - rank % 2, tag=5)
    try:
        return hetlb.mpi.scatterv(inter, plan, np.zeros(1000))
    finally:
        inter.Free()
        local.Free()


outcome("intercommunicator", intercommunicator)
outcome("calibrate-repeats", lambda: hetlb.mpi.calibrate(comm, abs, [10], repeats=1 + (rank == 3)))
outcome("calibrate-root", lambda: hetlb.mpi.calibrate(comm, abs, [10], repeats=1, root=rank % 2))
outcome("calibrate-itemsize", lambda: hetlb.mpi.calibrate(comm, abs, [10], repeats=1, itemsize=8 + 8 * (rank == 1)))


def interrupted(x):
    if rank == 2:
        raise KeyboardInterrupt


any_outcome("calibrate-interrupt", lambda: hetlb.mpi.calibrate(comm, interrupted, [10], repeats=1))

# the Balancer
records = np.arange(40, dtype=np.float64)[10 * rank:10 * rank + 10]
outcome("balancer-ids-on-some-ranks", lambda: hetlb.mpi.Balancer(
    comm, records, ids=None if rank == 2 else np.arange(10 * rank, 10 * rank + 10)))
outcome("balancer-unknown", lambda: hetlb.mpi.Balancer(comm, records, balancer="fastest"))
outcome("balancer-speeds-device", lambda: hetlb.mpi.Balancer(comm, records, speeds="/dev/zero"))
outcome("balancer-async-global", lambda: hetlb.mpi.Balancer(comm, records, balancer="global"))


def global_steps():
    """All records on rank 0, given speeds: the global balancer moves them in a global step."""
    lb = hetlb.mpi.Balancer(comm, np.arange(400.0) if rank == 0 else None, mode="bulk_synchronous",
                            balancer="global", speeds=[1, 1, 1, 1], integer=True, time_limit=20)
    while lb.iteration_done(1e-3):
        pass
    m = lb.metrics()
    lb.free()
    return [m["balancer"], len(m["global_steps"]) >= 1, int(m["final_loads"].max()) <= 101]


outcome("global-steps", global_steps)


def scatter_by_id_into_objects():
    with hetlb.mpi.Balancer(comm, records, mode="bulk_synchronous", iterations=1) as lb:
        lb.stop()
        out = np.empty(len(lb), dtype=object if rank == 1 else float)
        return lb.scatter_by_id(np.zeros(40) if rank == 0 else None, out=out)


outcome("scatter-by-id-objects", scatter_by_id_into_objects)


def balancer_freed_on_one_rank():
    lb = hetlb.mpi.Balancer(comm, records, mode="bulk_synchronous", iterations=1)
    lb.stop()
    if rank == 1:
        lb.free()
    try:
        return lb.metrics()
    finally:
        lb.free()


outcome("balancer-freed-on-one-rank", balancer_freed_on_one_rank)
report()
