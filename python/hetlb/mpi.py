"""Load-balanced Scatterv / Gatherv in mpi4py programs.

``scatterv(comm, plan, sendbuf)`` sends each rank its share of the root's buffer as planned by
``hetlb.plan_scatter`` (processor k of the platform is rank k of ``comm``; the root sends in the plan's
order, its own block last), through hetlb's MPI library (hetlb/mpi/plan.h). Buffers are numpy arrays
or any buffer-protocol object whose first axis is the item axis: ``sendbuf`` holds ``plan.items``
items at the root. Every argument error raises the same ValueError on every rank (no hang); buffers
of Python objects (numpy object dtypes) are refused.

Plans of weighted items (``hetlb.plan_scatter(pf, weights=w, layout=...)``) are honoured: the root's
buffers stay in item order; each rank's block holds the items ``plan.item_ids(rank)`` (a range with the
contiguous layout, any items with the any layout, packed and put back in place at the root).

``Plan(comm, plan)`` is the persistent form: planned once (collective), reused by many calls.

``Balancer(comm, items)`` balances an iterative program's records (a numpy array) between the ranks
while it runs: the asynchronous diffusion runtime (hetlb.balancer).
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _hetlb
from ._hetlb import ScatterPlan
from ._hetlb_mpi import MpiPlan, _make_plan
from .balancer import Balancer
from .planning import _whole


def Plan(comm: Any, plan: ScatterPlan) -> MpiPlan:  # noqa: N802 (a constructor for the reader)
    """A persistent MPI plan of ``plan`` over ``comm`` (collective: every rank passes the same plan).

    The root (``plan.root_rank``) plans again with the plan's platform, items, algorithm and order and
    broadcasts the result, so every rank holds the same counts. ``comm.Get_size()`` must equal the
    platform's processor count. ValueError on every rank otherwise.
    """
    if isinstance(plan, MpiPlan):
        return plan
    if not isinstance(plan, ScatterPlan):
        raise ValueError(f"plan: {type(plan).__name__}: expected a hetlb.ScatterPlan or a hetlb.mpi.Plan")
    weights = plan.weights
    return _make_plan(comm, plan.platform.to_json(), "platform", plan.items, plan.root_rank,
                      plan._algorithm_argument, plan._order_argument, plan._dp_fallback, plan._order_evaluations,
                      None if weights is None else weights.tolist(), plan.layout or "contiguous")


def _layout(buf: Any, name: str = "buffer") -> Tuple[np.dtype, Tuple[int, ...], int]:
    """dtype, shape of one item and number of items of a buffer (first axis: items)."""
    if isinstance(buf, np.ndarray):
        a = buf
    else:
        try:
            a = np.asarray(memoryview(buf))
        except TypeError:
            raise ValueError(f"{name}: {type(buf).__name__}: expected a numpy array or a buffer-protocol "
                             "object") from None
    if a.dtype.hasobject:  # the objects' pointers would travel as bytes (issue 66)
        raise ValueError(f"{name}: dtype {a.dtype} holds Python objects: expected items of plain bytes (numbers, "
                         "fixed-size strings, structured dtypes of them)")
    if not a.flags.c_contiguous:
        raise ValueError("buffer: expected a C-contiguous buffer")
    if a.ndim == 0:
        raise ValueError("buffer: a scalar: expected an array whose first axis holds the items")
    return a.dtype, tuple(a.shape[1:]), int(a.shape[0])


def _writable(buf: Any, name: str) -> None:
    """A receive buffer must take the blocks: a read-only one is refused before any rank moves data."""
    readonly = not buf.flags.writeable if isinstance(buf, np.ndarray) else memoryview(buf).readonly
    if readonly:
        raise ValueError(f"{name}: read-only: expected a writable buffer")


def _local(check) -> Optional[str]:
    try:
        check()
    except ValueError as e:
        return str(e)
    return None


def _itemsize(dtype: np.dtype, shape: Tuple[int, ...]) -> int:
    return int(dtype.itemsize * int(np.prod(shape, dtype=np.int64)))


_UNKNOWN = 1 << 62


def _agree(comm: Any, error: Optional[str], itemsize: Optional[int]) -> Tuple[bool, int]:
    """One small Allreduce: any rank's error (then raised on every rank, the first rank's message),
    whether a rank needs the root's item layout (itemsize None), and the item size every other rank
    uses (ValueError on every rank when they differ). Returns (layout needed, item size or 0)."""
    from mpi4py import MPI

    known = itemsize is not None
    v = np.array([error is not None, not known, itemsize if known else 0, -itemsize if known else -_UNKNOWN],
                 dtype=np.int64)
    comm.Allreduce(MPI.IN_PLACE, v, op=MPI.MAX)
    if v[0]:
        for rank, e in enumerate(comm.allgather(error)):
            if e is not None:
                raise ValueError(f"rank {rank}: {e}")
    largest, smallest = int(v[2]), int(-v[3])
    if smallest != _UNKNOWN and largest != smallest:
        raise ValueError(f"item sizes differ between ranks ({smallest} to {largest} bytes): expected the same "
                         "dtype and item shape everywhere")
    return bool(v[1]), largest


def scatterv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any = None, recvbuf: Any = None) -> Any:
    """Scatters the root's ``sendbuf`` (``plan.items`` items) by the plan; returns this rank's block
    (``recvbuf``, or a new numpy array of the root's dtype and item shape). Collective over ``comm``.

    A persistent plan whose previous scatter had receive buffers on every rank goes straight to the C
    library, whose own agreement checks the arguments (no Allreduce of this module's): a rank whose
    buffers do not fit makes it fail on every rank, and the checked path then runs and says why."""
    if isinstance(plan, MpiPlan) and plan._fast and plan._scatter_fast(sendbuf, recvbuf):
        return recvbuf
    mp = Plan(comm, plan)
    try:
        return _scatterv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _scatterv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    root = comm.Get_rank() == mp.root
    layout = None
    itemsize = None

    def check():
        nonlocal layout, itemsize
        if root:
            if sendbuf is None:
                raise ValueError("sendbuf: None at the root: expected the items to scatter")
            dtype, shape, n = _layout(sendbuf, "sendbuf")
            if n != mp.items:
                raise ValueError(f"sendbuf: {n} items at the root: expected {mp.items}, the plan's items")
            layout, itemsize = (dtype.str, shape), _itemsize(dtype, shape)
        if recvbuf is not None:
            rdtype, rshape, n = _layout(recvbuf, "recvbuf")
            _writable(recvbuf, "recvbuf")
            if n != mp.count:
                raise ValueError(f"recvbuf: {n} items: expected {mp.count}, this rank's share")
            if itemsize is not None and _itemsize(rdtype, rshape) != itemsize:
                raise ValueError(f"recvbuf: items of {_itemsize(rdtype, rshape)} bytes: expected {itemsize}, "
                                 "the send buffer's")
            itemsize = _itemsize(rdtype, rshape)
    error = _local(check)
    needed, size = _agree(comm, error, itemsize)
    out = recvbuf
    if needed:  # some rank allocates its block: the root's dtype and item shape
        layout = comm.bcast(layout, root=mp.root)
        if out is None:
            out = np.empty((mp.count,) + tuple(layout[1]), dtype=np.dtype(layout[0]))
        size = _itemsize(np.dtype(layout[0]), tuple(layout[1]))
    mp._scatter(sendbuf if root else None, out, size)
    mp._fast = not needed  # agreed: every rank had its receive buffer, and no rank an error
    return out


def gatherv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any, recvbuf: Any = None) -> Any:
    """Gathers every rank's block (``sendbuf``: this rank's ``count`` items) into the root's
    ``recvbuf`` (``plan.items`` items; a new numpy array of its own block's dtype when None), receiving
    in the plan's gather order. Returns the root's buffer at the root, None elsewhere. Collective.

    With a persistent plan the call goes straight to the C library, whose own agreement checks the
    arguments; when they do not fit, the checked path runs and raises the same ValueError everywhere."""
    if isinstance(plan, MpiPlan) and plan._direct:
        root = plan._is_root
        out = recvbuf
        if root and out is None and isinstance(sendbuf, np.ndarray) and sendbuf.ndim >= 1:
            out = np.empty((plan.items,) + sendbuf.shape[1:], dtype=sendbuf.dtype)
        if plan._gather_fast(sendbuf, out):
            return out if root else None
    mp = Plan(comm, plan)
    try:
        return _gatherv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _gatherv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    root = comm.Get_rank() == mp.root
    out = recvbuf
    itemsize = None

    def check():
        nonlocal out, itemsize
        if sendbuf is None:
            raise ValueError("sendbuf: None: expected this rank's block")
        dtype, shape, n = _layout(sendbuf, "sendbuf")
        if n != mp.count:
            raise ValueError(f"sendbuf: {n} items: expected {mp.count}, this rank's share")
        itemsize = _itemsize(dtype, shape)
        if root:
            if out is None:
                out = np.empty((mp.items,) + shape, dtype=dtype)
            rdtype, rshape, n = _layout(out, "recvbuf")
            _writable(out, "recvbuf")
            if n != mp.items:
                raise ValueError(f"recvbuf: {n} items at the root: expected {mp.items}, the plan's items")
            if _itemsize(rdtype, rshape) != itemsize:
                raise ValueError(f"recvbuf: items of {_itemsize(rdtype, rshape)} bytes at the root: expected "
                                 f"{itemsize}, the send buffer's")
    _, size = _agree(comm, _local(check), itemsize)
    mp._gather(sendbuf, out if root else None, size)
    return out if root else None


def calibrate(comm: Any, fn: Callable[[int], Any], sizes: Sequence[int], *, itemsize: int = 8,
              repeats: int = 5, root: int = 0, model: str = "affine", names: Optional[Sequence[str]] = None) -> dict:
    """Measures the cost models a plan takes (RR-4770 Section 5.1: Tcomp and Tcomm "from a series of
    benchmarks"), collectively over ``comm``.

    Every rank times ``fn(x)`` (processing x items) for each x of ``sizes``; the root times sending
    x items of ``itemsize`` bytes to every other rank (and a 1-byte reply). Each point is the median of
    ``repeats`` timings; the points are fitted (``model="affine"``: least squares latency + per item,
    ``"table"``: the measured points). Returns, on every rank, a platform dict for ``hetlb.platform``:
    processor r is rank r, named ``names[r]`` (default "rank-r"), the root is ``root``. A failure of
    ``fn`` on any rank raises the same ValueError on every rank. A rank whose measured time does not grow
    with x (a cost per item of 0: ``fn`` too fast for ``sizes``) gives a RuntimeWarning on the root,
    since a plan would take its items as free.
    """
    from mpi4py import MPI

    rank, size = comm.Get_rank(), comm.Get_size()

    def check():
        if model not in ("affine", "table"):
            raise ValueError(f"model '{model}': expected affine or table")
        if not sizes or any(_whole(x, "sizes") <= 0 for x in sizes):
            raise ValueError(f"sizes = {list(sizes)!r}: expected item counts > 0")
        if _whole(repeats, "repeats") < 1 or _whole(itemsize, "itemsize") < 1:
            raise ValueError(f"repeats = {repeats}, itemsize = {itemsize}: expected at least 1")
        if not 0 <= _whole(root, "root") < size:
            raise ValueError(f"root = {root}: expected a rank in [0, {size})")
        if names is not None and len(names) != size:
            raise ValueError(f"names: {len(names)} names: expected {size}, one per rank")
    _agree(comm, _local(check), 0)
    xs = [int(x) for x in sizes]

    compute: list = []

    def measure():
        for x in xs:
            times = []
            for _ in range(repeats):
                start = MPI.Wtime()
                fn(x)
                times.append(MPI.Wtime() - start)
            compute.append((float(x), float(np.median(times))))
    error = None
    try:
        measure()
    except Exception as e:  # noqa: BLE001 (any failure of the user's function, agreed below)
        error = f"fn raised {type(e).__name__}: {e}"
    _agree(comm, error, 0)

    comm_points: dict = {r: [] for r in range(size)}
    ack = np.zeros(1, dtype=np.uint8)
    for r in range(size):
        if r == root:
            continue
        for x in xs:
            data = np.zeros(x * itemsize, dtype=np.uint8)
            times = []
            for _ in range(repeats):
                if rank == root:
                    start = MPI.Wtime()
                    comm.Send(data, dest=r, tag=77)
                    comm.Recv(ack, source=r, tag=78)
                    times.append(MPI.Wtime() - start)
                elif rank == r:
                    comm.Recv(data, source=root, tag=77)
                    comm.Send(ack, dest=root, tag=78)
            if rank == root:
                comm_points[r].append((float(x), float(np.median(times))))

    everyone = comm.gather(compute, root=root)
    platform = None
    if rank == root:
        processors = []
        for r in range(size):
            processors.append({
                "name": str(names[r]) if names is not None else f"rank-{r}",
                "compute": _hetlb._fit_cost(everyone[r], model),
                "comm": {"per_item": 0.0} if r == root else _hetlb._fit_cost(comm_points[r], model),
            })
        platform = {"root": processors[root]["name"], "processors": processors}
        flat = [r for r in range(size) if not _hetlb._grows_with_items(everyone[r], model, min(xs), max(xs))]
        if flat:
            warnings.warn(f"calibrate: rank(s) {flat}: the time of fn does not grow from {min(xs)} to {max(xs)} "
                          "items (cost per item 0): a plan takes their items as free; use larger sizes",
                          RuntimeWarning, stacklevel=2)
    return comm.bcast(platform, root=root)


__all__ = ["Plan", "MpiPlan", "Balancer", "scatterv", "gatherv", "calibrate"]
_ = _hetlb  # the planning module is loaded first (its exception translation)
