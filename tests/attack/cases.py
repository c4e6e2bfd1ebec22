"""The Python cases of tests/attack/attack.sh: `python3 cases.py NAME [ARG]` runs one case and prints its
outcome in one line, "ok <result>" or "<exception type> <message>" (a crash or a hang shows as such to the
script). The cases of hetlb.mpi run under mpirun: every rank runs the case and rank 0 prints "every rank:
<outcome>" when the ranks agree, else one line "rank R: <outcome>" per rank."""
import os
import sys
import time


def outcome(call):
    try:
        return f"ok {call()}"
    except BaseException as e:  # noqa: BLE001 (KeyboardInterrupt and SystemExit are outcomes too)
        return f"{type(e).__name__} {e}".replace("\n", " ")


# Serial cases ------------------------------------------------------------------------------------------
def serial_cases(example):
    import hetlb
    grid = example("grid1999.json")

    def new_alone(name):
        cls = getattr(hetlb, name)
        obj = cls.__new__(cls)
        return obj.to_json() if hasattr(obj, "to_json") else obj.counts

    def read_results(path):
        import hetlb.study
        return len(hetlb.study.read_results(path))

    def too_many_processors():
        start = time.perf_counter()
        try:
            hetlb.platform(compute=[1e-3] * 1_000_001, comm=[1e-3] * 1_000_001)
        finally:
            if time.perf_counter() - start > 2:
                raise RuntimeError(f"refused after {time.perf_counter() - start:.1f} s: expected at once")

    return {
        "platform-new-alone": lambda arg: new_alone("Platform"),
        "scatterplan-new-alone": lambda arg: new_alone("ScatterPlan"),
        "read-results": read_results,
        "items-past-64-bits": lambda arg: hetlb.plan_scatter(grid, items=2**65),
        "order-evaluations-2-70": lambda arg: hetlb.plan_scatter(grid, order_evaluations=2**70),
        "algorithm-none": lambda arg: hetlb.plan_scatter(grid, algorithm=None),
        "negative-seed": lambda arg: hetlb.simulate_diffusion(nodes=4, seed=-1),
        "nodes-negative": lambda arg: hetlb.simulate_diffusion(nodes=-5),
        "nul-in-path": lambda arg: hetlb.plan_scatter(grid + "\0/etc/shadow"),
        "too-many-processors": lambda arg: too_many_processors(),
        "study-after-import": lambda arg: callable(hetlb.study.read_results),
        "simulate-small": lambda arg: hetlb.simulate_diffusion(nodes=4, iterations=20)["converged"],
    }


# Cases under mpirun ------------------------------------------------------------------------------------
def mpi_cases(example):
    from mpi4py import MPI
    import numpy as np
    import hetlb
    import hetlb.mpi

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    platform = hetlb.platform(compute=[3e-3, 1e-3, 2e-3, 1e-3][:size], comm=[0, 1e-4, 3e-4, 2e-4][:size], root=0)
    plan = hetlb.plan_scatter(platform, items=1000)
    count = int(plan.counts[rank])

    def scatter_objects():
        data = np.array([object() for _ in range(1000)], dtype=object) if rank == 0 else None
        return hetlb.mpi.scatterv(comm, plan, data).sum()

    def memory_error_on_one_rank():
        real = np.empty

        def empty(*args, **kwargs):
            raise MemoryError("no memory for the block")
        if rank == size - 1:
            np.empty = empty
        try:
            return hetlb.mpi.scatterv(comm, plan, np.zeros(1000) if rank == 0 else None).sum()
        finally:
            np.empty = real

    def interrupted(x):
        if rank == size - 1:
            raise KeyboardInterrupt

    def intercommunicator():
        local = comm.Split(rank % 2, rank)
        inter = local.Create_intercomm(0, comm, 1 - rank % 2, tag=5)
        try:
            return hetlb.mpi.scatterv(inter, plan, np.zeros(1000))
        finally:
            inter.Free()
            local.Free()

    def freed_on_one_rank():
        p = hetlb.mpi.Plan(comm, plan)
        hetlb.mpi.scatterv(comm, p, np.zeros(1000) if rank == 0 else None, np.empty(count))
        if rank == 1:
            p.free()
        return hetlb.mpi.scatterv(comm, p, np.zeros(1000) if rank == 0 else None, np.empty(count))

    def structured():
        record = np.dtype([("key", "<i4"), ("value", "<f8")])
        data = np.zeros(1000, dtype=record) if rank == 0 else None
        if rank == 0:
            data["key"] = np.arange(1000)
        mine = hetlb.mpi.scatterv(comm, plan, data)
        back = hetlb.mpi.gatherv(comm, plan, mine)
        return mine.dtype == record and (rank != 0 or bool(np.array_equal(back["key"], np.arange(1000))))

    def stop_after(iterations, end_on_convergence):
        """The docs' pattern, records on rank 0, ended by stop() after a fixed number of iterations."""
        records = np.arange(400, dtype=np.float64) if rank == 0 else None
        lb = hetlb.mpi.Balancer(comm, records, end_on_convergence=end_on_convergence, time_limit=0)
        for _ in range(iterations):
            lb.items[:] += 1
            lb.iteration_done()
        lb.stop()
        total = comm.allreduce(len(lb), op=MPI.SUM)
        lb.free()
        return total

    def no_records():
        lb = hetlb.mpi.Balancer(comm, np.zeros(0), time_limit=0)
        calls = 0
        while lb.iteration_done():
            calls += 1
        lb.free()
        return "ended"

    def balancer(**options):
        lb = hetlb.mpi.Balancer(comm, np.arange(10.0), **options)
        lb.free()

    return {
        "scatter-objects": scatter_objects,
        "list-at-root": lambda: hetlb.mpi.scatterv(comm, plan, [0.0] * 1000 if rank == 0 else None),
        "memory-error-on-one-rank": memory_error_on_one_rank,
        "plans-differ": lambda: hetlb.mpi.scatterv(
            comm, plan if rank != 1 else hetlb.plan_scatter(platform, items=1000, algorithm="uniform"),
            np.zeros(1000) if rank == 0 else None).sum(),
        "gather-reinterpreted": lambda: hetlb.mpi.gatherv(comm, plan, np.zeros(count),
                                                          np.zeros(1000, dtype=np.int64) if rank == 0 else None),
        "structured-dtype": structured,
        "intercommunicator": intercommunicator,
        "plan-freed-on-one-rank": freed_on_one_rank,
        "calibrate-sizes-differ": lambda: hetlb.mpi.calibrate(comm, abs, [10] if rank == 0 else [20], repeats=1),
        "calibrate-repeats-differ": lambda: hetlb.mpi.calibrate(comm, abs, [10], repeats=1 + (rank == 1)),
        "calibrate-interrupt": lambda: hetlb.mpi.calibrate(comm, interrupted, [10], repeats=1),
        "balancer-speeds-dev-zero": lambda: balancer(speeds="/dev/zero"),
        "balancer-speeds-fifo": lambda: balancer(speeds=os.environ["ATTACK_FIFO"]),
        "balancer-period-huge": lambda: balancer(min_balancing_period=1e300),
        "balancer-sync-interval-huge": lambda: balancer(mode="bulk_synchronous", sync_interval=2**62),
        "balancer-stop-after-5": lambda: stop_after(5, True),
        "balancer-stop-after-5-no-end": lambda: stop_after(5, False),
        "balancer-no-records": no_records,
    }


def main():
    name = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 2 else None
    source = os.environ.get("HETLB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

    def example(file):
        return os.path.join(source, "examples", file)

    serial = serial_cases(example)
    if name in serial:
        print(outcome(lambda: serial[name](arg)), flush=True)
        return
    cases = mpi_cases(example)
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    mine = outcome(cases[name])
    everyone = comm.gather(mine, root=0)
    if comm.Get_rank() == 0:
        if len(set(everyone)) == 1:
            print(f"every rank: {everyone[0]}", flush=True)
        else:
            print("\n".join(f"rank {r}: {o}" for r, o in enumerate(everyone)), flush=True)


if __name__ == "__main__":
    main()
