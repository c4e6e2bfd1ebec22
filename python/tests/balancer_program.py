"""Run under mpirun -np 4 by test_balancer.py: hetlb.mpi.Balancer on structured records (asynchronous,
bulk-synchronous with the program's own collective, given speeds balanced by time, stop()), the GIL
released while a call waits, and agreed errors. Rank 0 prints one line per check and rank:
"<check> <rank> <outcome>"."""
import threading
import time

from mpi4py import MPI
import numpy as np

import hetlb.mpi

from mpi_checks import comm, outcome, rank, report
record = np.dtype([("key", "u8"), ("value", "f8"), ("payload", "f4", (3,)), ("visits", "i4")])


def records(n, first=0):
    r = np.zeros(n, dtype=record)
    r["key"] = np.arange(first, first + n)
    r["value"] = np.sqrt(r["key"])
    r["payload"] = (r["key"][:, None] * np.array([1, 2, 3])).astype(np.float32)
    return r


def every_id_once(lb, total):
    """Exactly, by id, over every rank: ids 0..total-1 once each, each record intact and with its id."""
    items, ids = lb.items, lb.ids
    intact = bool(np.array_equal(items["key"], ids) and np.array_equal(items["value"], np.sqrt(ids.astype(float)))
                  and np.array_equal(items["payload"], (ids[:, None] * np.array([1, 2, 3])).astype(np.float32)))
    everyone = comm.gather(ids.copy(), root=0)
    ok = comm.allreduce(intact, op=MPI.LAND)
    if rank == 0:
        ok = ok and np.array_equal(np.sort(np.concatenate(everyone)), np.arange(total, dtype=np.uint64))
    return comm.bcast(ok, root=0)


def work(items, seconds_per_item=2e-5):
    """One computing iteration: every record visited (and a cost proportional to the records held)."""
    items["visits"] += 1
    end = time.perf_counter() + seconds_per_item * len(items)
    while time.perf_counter() < end:
        pass


def asynchronous():  # all 400 records start on rank 0; the papers' asynchronous loop
    lb = hetlb.mpi.Balancer(comm, records(400) if rank == 0 else None, time_limit=30, virtual_load=True, balance="load")
    assert lb.topology.startswith("torus") and lb.degree > 0
    while True:
        work(lb.items)
        if not lb.iteration_done():
            break
    m = lb.metrics()
    ok = every_id_once(lb, 400) and m["ids_conserved"] and int(m["final_loads"].sum()) == 400
    ok = ok and m["converged"] and m["mode"] == "asynchronous" and m["balance"] == "load"
    ok = ok and all(abs(load - 100) <= 2 for load in m["final_loads"]) and m["data_messages"] > 0
    lb.free()
    return ok


outcome("async", asynchronous)


def defaults():  # the C++ runtime's defaults, read from it
    import inspect
    from hetlb import _hetlb_mpi
    parameters = inspect.signature(hetlb.mpi.Balancer).parameters
    return (parameters["balance"].default == "time" == _hetlb_mpi._default_balance
            and parameters["topology"].default == "auto" == _hetlb_mpi._default_topology
            and parameters["balancer"].default == "hybrid" == _hetlb_mpi._default_balancer)


outcome("defaults", defaults)


def bulk_synchronous():  # records spread unevenly; the program's own Allreduce every iteration
    counts = [300, 20, 60, 20][rank]
    first = [0, 300, 320, 380][rank]
    lb = hetlb.mpi.Balancer(comm, records(counts, first), ids=np.arange(first, first + counts), mode="bulk_synchronous",
                            topology="ring", strategy="makhoul", integer=True, time_limit=30, balance="load")
    calls = 0
    running = True
    while running:
        t0 = time.perf_counter()
        work(lb.items)
        running = lb.iteration_done(time.perf_counter() - t0)
        calls += 1
        total = comm.allreduce(len(lb), op=MPI.SUM)  # between two calls every record is on one rank
        assert total == 400, total
    m = lb.metrics()
    same_calls = len(set(comm.allgather(calls))) == 1
    ok = every_id_once(lb, 400) and same_calls and m["mode"] == "bulk-synchronous" and m["converged"]
    return ok and all(abs(load - 100) <= 1 for load in m["final_loads"])


outcome("bsp", bulk_synchronous)


def given_speeds():  # balanced by time: speed-proportional shares 50 / 50 / 100 / 200
    lb = hetlb.mpi.Balancer(comm, records(100, 100 * rank), mode="bulk_synchronous", balance="time",
                            speeds=[1, 1, 2, 4], integer=True, time_limit=30)
    while lb.iteration_done():
        work(lb.items, 1e-6)
    m = lb.metrics()
    shares = [50, 50, 100, 200]
    ok = every_id_once(lb, 400) and list(m["speeds"]) == [1, 1, 2, 4] and m["balance"] == "time"
    return ok and all(abs(load - s) <= 0.02 * s + 1 for load, s in zip(m["final_loads"], shares))


outcome("speeds", given_speeds)


def platform_speeds():  # speeds from a platform (1 / compute cost per item) and from hetlb.mpi.calibrate
    pf = hetlb.platform(compute=[4e-3, 4e-3, 2e-3, 1e-3], comm=[0, 1e-4, 1e-4, 1e-4], root=0)
    lb = hetlb.mpi.Balancer(comm, records(100, 100 * rank), mode="bulk_synchronous", balance="time", speeds=pf,
                            integer=True, time_limit=30)
    while lb.iteration_done():
        pass
    m = lb.metrics()
    ok = every_id_once(lb, 400) and np.allclose(m["speeds"], [250, 250, 500, 1000])
    ok = ok and all(abs(load - s) <= 0.02 * s + 1 for load, s in zip(m["final_loads"], [50, 50, 100, 200]))
    # A kernel whose time grows with x whatever the machine's load (a sleep only overshoots): a few
    # microseconds of arithmetic would let a preempted small size outlast the large one, a cost of 0.
    calibrated = hetlb.mpi.calibrate(comm, lambda x: time.sleep(x * 1e-6), [1000, 20000], repeats=3)
    with hetlb.mpi.Balancer(comm, records(10, 10 * rank), speeds=calibrated, balance="time",
                            mode="bulk_synchronous", end_on_convergence=False) as lb2:
        lb2.stop()
        ok = ok and lb2.speed > 0
    return ok


outcome("platform-speeds", platform_speeds)


def stopped_and_gil():  # stop() on the program's terms; another thread runs while rank 0 waits in it
    with hetlb.mpi.Balancer(comm, records(50, 50 * rank), mode="bulk_synchronous", end_on_convergence=False,
                            topology="auto") as lb:
        for _ in range(6):
            lb.iteration_done()
        ticks = []
        refusals = []
        stop_ticking = threading.Event()

        def tick():
            while not stop_ticking.is_set():
                ticks.append(time.perf_counter())
                if rank == 0 and len(ticks) == 20:  # while the main thread waits in stop(): refused
                    try:
                        lb.progress()
                    except ValueError as e:
                        refusals.append(str(e))
                time.sleep(0.005)
        ticker = threading.Thread(target=tick)
        ticker.start()
        if rank != 0:
            time.sleep(0.5)  # rank 0 waits for the others inside stop()
        t0 = time.perf_counter()
        lb.stop()
        t1 = time.perf_counter()
        stop_ticking.set()
        ticker.join()
        during = sum(t0 < t < t1 for t in ticks)
        gil_released = rank != 0 or (t1 - t0 > 0.2 and during >= 10)
        one_call_at_a_time = rank != 0 or refusals == [
            "progress(): the balancer is in a call from another thread: expected one call at a time"]
        ok = every_id_once(lb, 200) and lb.check_conservation() == 200 and lb.finished
    return ok and gil_released and one_call_at_a_time


outcome("stop-gil", stopped_and_gil)


def thread():  # a progress thread (mpi4py initialises MPI_THREAD_MULTIPLE)
    lb = hetlb.mpi.Balancer(comm, records(100, 50 * rank) if rank % 2 == 0 else records(0), progress_thread=True,
                            topology="hypercube", strategy="besteffort", k=2, time_limit=30, balance="load")
    threaded = lb.threaded
    while lb.iteration_done():
        work(lb.items)
    ok = every_id_once(lb, 200) and lb.metrics()["converged"]
    lb.free()
    return ok and threaded


outcome("thread", thread)


def stale_view():  # a view kept after free() and across moves reads memory that is still there
    lb = hetlb.mpi.Balancer(comm, records(64, 64 * rank), mode="bulk_synchronous", end_on_convergence=False)
    view = lb.items
    lb.stop()
    lb.free()
    after = lb.items
    try:
        lb.iteration_done()
    except ValueError as e:
        freed = "freed" in str(e)
    return bool(view["key"].sum() >= 0 and len(after) == 64 and freed)


outcome("stale-view", stale_view)


def views_do_not_leak():  # 10,000 views of the records and ids (each keeps its block by a capsule)
    import gc
    import tracemalloc
    lb = hetlb.mpi.Balancer(comm, records(64, 64 * rank), mode="bulk_synchronous", end_on_convergence=False)

    def many(n):
        for _ in range(n):
            lb.items["value"].sum(), lb.ids[:1], len(lb)

    many(200)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    many(10000)
    gc.collect()
    growth = sum(d.size_diff for d in tracemalloc.take_snapshot().compare_to(before, "filename"))
    tracemalloc.stop()
    lb.stop()
    lb.free()
    return growth < 100_000


outcome("views-no-leak", views_do_not_leak)


def error(check, **kwargs):
    items = kwargs.pop("items", records(10, 10 * rank))
    ids = kwargs.pop("ids", None)
    outcome(check, lambda: hetlb.mpi.Balancer(comm, items, ids, **kwargs) and "created")


error("bad-strategy", strategy="fastest")
error("bad-k", k=0.5)
error("bad-speeds", speeds=[1, 2])
error("bad-topology", topology="line-of-sight")
error("bad-mode", mode="sometimes")
error("k-not-a-number", k="two" if rank == 1 else 2)
error("bad-balance", balance="speed")
error("duplicate-ids", ids=np.arange(10) + (5 if rank == 1 else 10 * rank))
error("short-ids", ids=np.arange(9 if rank == 2 else 10) + 10 * rank)
error("dtype-differs", items=records(10, 10 * rank) if rank != 3 else np.zeros(10))
error("object-dtype", items=np.array([None] * 3) if rank == 1 else records(3, 3 * rank))
error("no-items", items=None)
error("options-differ", strategy="makhoul" if rank == 2 else "besteffort")
report()
