"""Run under mpirun -np 4 by test_mpi.py: hetlb.mpi on records, persistent plans, and agreed errors.
Rank 0 prints one line per check and rank: "<check> <rank> <outcome>"."""
import time
import warnings

import numpy as np

import hetlb
import hetlb.mpi

from mpi_checks import comm, outcome, rank, report, size
platform = hetlb.platform(compute=[3e-3, 1e-3, 2e-3, 1e-3][:size], comm=[0, 1e-4, 3e-4, 2e-4][:size], root=0)
plan = hetlb.plan_scatter(platform, items=1000)




# records of 3 float32 each, scattered and gathered back through a persistent plan, twice
records = np.arange(3000, dtype=np.float32).reshape(1000, 3) if rank == 0 else None
persistent = hetlb.mpi.Plan(comm, plan)


def roundtrip():
    for _ in range(2):
        mine = hetlb.mpi.scatterv(comm, persistent, records)
        assert mine.shape == (plan.counts[rank], 3) and mine.dtype == np.float32
        start = plan.displacements[rank]
        assert np.array_equal(mine[:, 0], 3 * np.arange(start, start + plan.counts[rank], dtype=np.float32))
        back = hetlb.mpi.gatherv(comm, persistent, mine + 1)
        if rank == 0:
            assert np.array_equal(back, records + 1)
    return persistent.counts == plan.counts.tolist()


outcome("roundtrip", roundtrip)


def same_counts_as_the_plan():  # the MPI plan is the local plan, whatever its options
    ok = True
    for kwargs in (dict(order="reverse-bandwidth", root="auto"), dict(algorithm="lp", order="best"),
                   dict(algorithm="uniform", order="given")):
        local = hetlb.plan_scatter(platform, items=777, **kwargs)
        p = hetlb.mpi.Plan(comm, local)
        ok = ok and p.counts == local.counts.tolist() and p.send_order == local.send_order.tolist()
        ok = ok and p.root == local.root_rank
        p.free()
    return ok


outcome("same-counts", same_counts_as_the_plan)


def buffer_protocol():  # array.array in and out: no numpy needed by the caller
    import array
    send = array.array("d", range(1000)) if rank == 0 else None
    recv = array.array("d", [0.0] * int(plan.counts[rank]))
    assert hetlb.mpi.scatterv(comm, plan, send, recv) is recv
    start = int(plan.displacements[rank])
    return list(recv) == [float(x) for x in range(start, start + len(recv))]


outcome("buffer-protocol", buffer_protocol)
def fast_path():  # a persistent plan after a call with receive buffers everywhere: errors still agreed
    p = hetlb.mpi.Plan(comm, plan)
    data = np.arange(1000.0) if rank == 0 else None
    mine = np.empty(plan.counts[rank])
    results = []
    for recv in (mine, mine, np.empty(3) if rank == 2 else mine, None, mine, mine):
        try:
            got = hetlb.mpi.scatterv(comm, p, data, recv)
            start = int(plan.displacements[rank])
            results.append(bool(np.array_equal(got, np.arange(start, start + plan.counts[rank], dtype=float))))
        except ValueError as e:
            results.append(str(e))
    fast = p._fast
    p.free()
    return results + [fast]


outcome("fast-path", fast_path)


def gather_direct():  # a persistent plan's gather goes straight to the C library; errors still agreed
    p = hetlb.mpi.Plan(comm, plan)
    start, count = int(plan.displacements[rank]), int(plan.counts[rank])
    block = np.arange(start, start + count, dtype=float)
    whole = np.empty(1000) if rank == 0 else None
    results = []
    for send, recv in ((block, whole), (block[:-1] if rank == 1 else block, whole), (block, None),
                       (block, np.empty(999) if rank == 0 else None), (block.astype(np.float32), whole)):
        try:
            got = hetlb.mpi.gatherv(comm, p, send, recv)
            results.append(bool(np.array_equal(got, np.arange(1000.0))) if rank == 0 else got is None)
        except ValueError as e:
            results.append(str(e))
    p.free()
    return results


outcome("gather-direct", gather_direct)
outcome("short-sendbuf", lambda: hetlb.mpi.scatterv(comm, plan, np.zeros(999) if rank == 0 else None))
outcome("bad-recvbuf", lambda: hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None,
                                                  np.zeros(1) if rank == 2 else None))
outcome("bad-dtype", lambda: hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None,
                                                np.zeros(plan.counts[rank], dtype=np.float32 if rank == 3 else float)))
def read_only(shape):
    a = np.zeros(shape)
    a.flags.writeable = False
    return a


outcome("readonly-recvbuf", lambda: hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None,
                                                       read_only(plan.counts[rank]) if rank == 3 else None))
outcome("readonly-gather", lambda: hetlb.mpi.gatherv(comm, plan, np.zeros(plan.counts[rank]),
                                                     read_only(1000) if rank == 0 else None))
outcome("gather-short", lambda: hetlb.mpi.gatherv(comm, plan, np.zeros(plan.counts[rank] - (rank == 1))))


def weighted_roundtrip(layout):
    """A weighted plan: the root's array in item order goes out and comes back at its place (twice
    through a persistent plan: its checked path, then the C library's direct one); each rank's block
    holds the items item_ids names."""
    w = np.ones(1000)
    w[::10] = 10.0  # a heavy item every ten: the any layout beats the contiguous ranges
    wp = hetlb.plan_scatter(platform, weights=w, layout=layout)
    data = np.arange(2000, dtype=np.float64).reshape(1000, 2) if rank == 0 else None
    ids = wp.item_ids(rank)
    p = hetlb.mpi.Plan(comm, wp)
    assert p.layout == layout and np.array_equal(p.item_ids(), ids) and p.counts == wp.counts.tolist()
    assert p.displacements == wp.displacements.tolist()
    block = np.empty((len(ids), 2))
    for plan_, recv in ((wp, None), (p, None), (p, block), (p, block)):
        mine = hetlb.mpi.scatterv(comm, plan_, data, recv)
        assert np.array_equal(mine[:, 0], 2 * ids), (rank, mine[:5], ids[:5])
        back = hetlb.mpi.gatherv(comm, plan_, mine * 3)
        if rank == 0:
            assert np.array_equal(back, data * 3)
        else:
            assert back is None
    direct = p._fast  # the last scatter went straight to the C library
    p.free()
    permuted = layout == "any" and not np.array_equal(wp.permutation, np.arange(1000))
    return [layout == "contiguous" or permuted, direct, len(ids) > 0]


outcome("weighted-contiguous", lambda: weighted_roundtrip("contiguous"))
outcome("weighted-any", lambda: weighted_roundtrip("any"))


def objects(n):
    return np.array([object()] * n, dtype=object)


def object_refusals():
    """Arrays of Python objects are refused on every rank, by the checked and the direct paths."""
    results = []
    p = hetlb.mpi.Plan(comm, plan)
    hetlb.mpi.scatterv(comm, p, np.zeros(1000) if rank == 0 else None, np.empty(plan.counts[rank]))
    assert p._fast  # the next scatter goes straight to the C library
    for call in (lambda: hetlb.mpi.scatterv(comm, plan, objects(1000) if rank == 0 else None),
                 lambda: hetlb.mpi.scatterv(comm, p, objects(1000) if rank == 0 else None,
                                            np.empty(plan.counts[rank])),
                 lambda: hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None,
                                            objects(plan.counts[rank]) if rank == 1 else None),
                 lambda: hetlb.mpi.gatherv(comm, p, objects(plan.counts[rank]) if rank == 2
                                           else np.zeros(plan.counts[rank])),
                 lambda: hetlb.mpi.gatherv(comm, p, np.zeros(plan.counts[rank], dtype=object) if rank == 0
                                           else np.zeros(plan.counts[rank]), objects(1000) if rank == 0 else None),
                 lambda: hetlb.mpi.scatterv(comm, plan, [1.0] * 1000 if rank == 0 else None)):
        try:
            call()
            results.append("no error")
        except ValueError as e:
            results.append(str(e))
    ok = hetlb.mpi.scatterv(comm, p, np.arange(1000.0) if rank == 0 else None, np.empty(plan.counts[rank]))
    p.free()
    return results + [bool(ok[0] == plan.displacements[rank])]


outcome("object-dtype", object_refusals)
small = hetlb.plan_scatter(hetlb.platform(compute=[1e-3] * (size - 1), comm=[0] + [1e-4] * (size - 2)), items=10)
outcome("wrong-size", lambda: hetlb.mpi.scatterv(comm, small, np.zeros(10) if rank == 0 else None))
persistent.free()


def calibrated():
    pf = hetlb.mpi.calibrate(comm, lambda x: np.sqrt(np.ones(x)), [100, 1000, 10000], repeats=2)
    assert [p["name"] for p in pf["processors"]] == [f"rank-{r}" for r in range(size)]
    assert all(p["compute"]["per_item"] >= 0 for p in pf["processors"])
    table = hetlb.mpi.calibrate(comm, lambda x: np.sqrt(np.ones(x)), [100, 1000], repeats=1, model="table")
    assert [len(p["compute"]["table"]) for p in table["processors"]] == [2] * size
    return int(hetlb.plan_scatter(pf, items=1000).counts.sum())


def flat_warnings(model):
    """Calibrates a kernel whose time falls with x (50 ms / x: a preemption of the small size, even on a
    loaded machine, stays far below the 49.5 ms between the two), and gives the warnings the root shows."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        hetlb.mpi.calibrate(comm, lambda x: time.sleep(0.05 / x), [1, 100], repeats=3, model=model)
    return "|".join(str(w.message) for w in seen if w.category is RuntimeWarning) or "none"


outcome("calibrate", calibrated)
outcome("calibrate-flat", lambda: flat_warnings("affine"))
outcome("calibrate-flat-table", lambda: flat_warnings("table"))
outcome("calibrate-fails", lambda: hetlb.mpi.calibrate(comm, (lambda x: 1 / 0) if rank == 2 else abs, [10]))
outcome("calibrate-sizes", lambda: hetlb.mpi.calibrate(comm, abs, [10, 0]))
report()
