"""Load-balanced Scatterv / Gatherv in mpi4py programs.

``scatterv(comm, plan, sendbuf)`` sends each rank its share of the root's buffer as planned by
``hetlb.plan_scatter`` (processor k of the platform is rank k of ``comm``; the root sends in the plan's
order, its own block last), through hetlb's MPI library (hetlb/mpi/plan.h). Buffers are numpy arrays
or any buffer-protocol object whose first axis is the item axis: ``sendbuf`` holds ``plan.items``
items at the root. An error on any rank (an argument, a MemoryError, a plan freed on one rank, different
plans) raises the same ValueError on every rank (no hang): one agreement collective runs before the data
moves (hetlb/_agreement.py). Buffers of Python objects (numpy object dtypes) are refused; every buffer
of a call holds the same dtype and item shape, and a block allocated here has the root's dtype.

Plans of weighted items (``hetlb.plan_scatter(pf, weights=w, layout=...)``) are honoured: the root's
buffers stay in item order; each rank's block holds the items ``plan.item_ids(rank)`` (a range with the
contiguous layout, any items with the any layout, packed and put back in place at the root).

``Plan(comm, plan)`` is the persistent form: planned once (collective), reused by many calls.

``Balancer(comm, items)`` balances an iterative program's records (a numpy array) between the ranks
while it runs: the asynchronous diffusion runtime (hetlb.balancer).
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _hetlb
from ._hetlb import ScatterPlan
from ._hetlb_mpi import MpiPlan, _make_plan
from . import _agreement
from .balancer import Balancer
from .planning import _no_new, _whole


def Plan(comm: Any, plan: ScatterPlan) -> MpiPlan:  # noqa: N802 (a constructor for the reader)
    """A persistent MPI plan of ``plan`` over ``comm`` (collective: every rank passes the same plan).

    The root (``plan.root_rank``) plans again with the plan's platform, items, algorithm and order and
    broadcasts the result, so every rank holds the same counts. ``comm.Get_size()`` must equal the
    platform's processor count, and every rank must pass the same plan (compared by a digest of its
    platform, items, options and weights). ValueError on every rank otherwise.
    """
    if isinstance(plan, MpiPlan):
        return plan
    _agreement.check_comm(comm)
    digest = None

    def check():
        nonlocal digest
        if not isinstance(plan, ScatterPlan):
            raise ValueError(f"plan: {type(plan).__name__}: expected a hetlb.ScatterPlan or a hetlb.mpi.Plan")
        weights = plan.weights
        digest = _agreement.fingerprint(plan.platform.to_json(), plan.items, plan.root_rank,
                                        plan._algorithm_argument, plan._order_argument, plan._dp_fallback,
                                        plan._order_evaluations, plan.layout,
                                        b"" if weights is None else weights.tobytes())
    (same,) = _agreement.agree(comm, 1, _agreement.attempt(check), [digest])[:1]
    if same is not None and same[0] != same[1]:
        digests = comm.allgather(digest)
        differ = [r for r, d in enumerate(digests) if d != digests[0]]
        raise ValueError(f"plan: rank(s) {differ} passed another plan than rank 0's (its platform, items, options "
                         "or weights differ): expected the same plan on every rank")
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
        raise ValueError(f"{name}: expected a C-contiguous buffer")
    if a.ndim == 0:
        raise ValueError(f"{name}: a scalar: expected an array whose first axis holds the items")
    return a.dtype, tuple(a.shape[1:]), int(a.shape[0])


def _writable(buf: Any, name: str) -> None:
    """A receive buffer must take the blocks: a read-only one is refused before any rank moves data."""
    readonly = not buf.flags.writeable if isinstance(buf, np.ndarray) else memoryview(buf).readonly
    if readonly:
        raise ValueError(f"{name}: read-only: expected a writable buffer")


def _itemsize(dtype: np.dtype, shape: Tuple[int, ...]) -> int:
    return int(dtype.itemsize * int(np.prod(shape, dtype=np.int64)))


def _kind(dtype: np.dtype, shape: Tuple[int, ...]) -> int:
    """A digest of an item's dtype (its fields, byte order) and shape, compared between the ranks."""
    return _agreement.fingerprint(dtype.descr if dtype.fields is None else (dtype.descr, dtype.itemsize),
                                  dtype.str, shape)


def _same_items(comm: Any, agreed: List[Optional[Tuple[int, int]]],
                item: Optional[Tuple[str, np.dtype, tuple]]) -> None:
    """ValueError on every rank when the ranks' item sizes (agreed[0]) or dtypes (agreed[1]) differ."""
    sizes, kinds = agreed[0], agreed[1]
    if sizes is not None and sizes[0] != sizes[1]:
        raise ValueError(f"item sizes differ between ranks ({sizes[0]} to {sizes[1]} bytes): expected the same "
                         "dtype and item shape everywhere")
    if kinds is not None and kinds[0] != kinds[1]:
        everyone = comm.allgather(None if item is None else (item[0], str(item[1]), item[2]))
        given = [(r, x) for r, x in enumerate(everyone) if x is not None]
        (r0, (n0, d0, s0)) = given[0]
        r1, (n1, d1, s1) = next((r, x) for r, x in given if (x[1], x[2]) != (d0, s0))
        raise ValueError(f"{n1}: items of dtype {d1} and shape {s1} on rank {r1}, {n0} of dtype {d0} and shape {s0} "
                         f"on rank {r0}: expected the same dtype and item shape everywhere (the bytes would be "
                         "reinterpreted)")


def scatterv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any = None, recvbuf: Any = None) -> Any:
    """Scatters the root's ``sendbuf`` (``plan.items`` items) by the plan; returns this rank's block
    (``recvbuf``, or a new numpy array of the root's dtype and item shape). Collective over ``comm``.

    A persistent plan whose previous scatter had receive buffers on every rank goes straight to the C
    library, whose own agreement checks the arguments (no Allreduce of this module's): a rank whose
    buffers do not fit (or whose dtype is not the one agreed before) makes it fail on every rank, and the
    checked path then runs and says why."""
    if isinstance(plan, MpiPlan) and plan._fast and plan._scatter_fast(sendbuf, recvbuf):
        return recvbuf
    _agreement.check_comm(comm)
    mp = Plan(comm, plan)
    try:
        return _scatterv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _scatterv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    root = False
    layout = None
    itemsize = kind = None
    item = None

    def check():
        nonlocal root, layout, itemsize, kind, item
        root = comm.Get_rank() == mp.root
        count, items = mp.count, mp.items
        if root:
            if sendbuf is None:
                raise ValueError("sendbuf: None at the root: expected the items to scatter")
            dtype, shape, n = _layout(sendbuf, "sendbuf")
            if n != items:
                raise ValueError(f"sendbuf: {n} items at the root: expected {items}, the plan's items")
            layout, itemsize, kind, item = (dtype, shape), _itemsize(dtype, shape), _kind(dtype, shape), \
                ("sendbuf", dtype, shape)
        if recvbuf is not None:
            rdtype, rshape, n = _layout(recvbuf, "recvbuf")
            _writable(recvbuf, "recvbuf")
            if n != count:
                raise ValueError(f"recvbuf: {n} items: expected {count}, this rank's share")
            if itemsize is not None and _itemsize(rdtype, rshape) != itemsize:
                raise ValueError(f"recvbuf: items of {_itemsize(rdtype, rshape)} bytes: expected {itemsize}, "
                                 "the send buffer's")
            if kind is not None and _kind(rdtype, rshape) != kind:
                raise ValueError(f"recvbuf: dtype {rdtype} and item shape {rshape} at the root: expected "
                                 f"{layout[0]} and {layout[1]}, the send buffer's")
            itemsize, kind = _itemsize(rdtype, rshape), _kind(rdtype, rshape)
            item = item or ("recvbuf", rdtype, rshape)
    failure = _agreement.attempt(check)
    agreed = _agreement.agree(comm, 2, failure, [itemsize, kind, int(recvbuf is None)])
    _same_items(comm, agreed, item)
    size = agreed[0][1] if agreed[0] is not None else 0
    needed = agreed[2] is not None and agreed[2][1] == 1
    out = recvbuf
    if needed:  # some rank allocates its block: the root's dtype and item shape
        layout = comm.bcast(layout, root=mp.root)
        dtype, shape = layout

        def allocate():
            nonlocal out
            if out is None:
                out = np.empty((mp.count,) + tuple(shape), dtype=dtype)
        _agreement.agree(comm, 6, _agreement.attempt(allocate))
        size = _itemsize(dtype, tuple(shape))
    mp._scatter(sendbuf if root else None, out, size)
    mp._fast = not needed  # agreed: every rank had its receive buffer, and no rank an error
    return out


def gatherv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any, recvbuf: Any = None) -> Any:
    """Gathers every rank's block (``sendbuf``: this rank's ``count`` items) into the root's
    ``recvbuf`` (``plan.items`` items of the blocks' dtype; a new numpy array of its own block's dtype
    when None), receiving in the plan's gather order. Returns the root's buffer at the root, None
    elsewhere. Collective.

    With a persistent plan, after a first gather through the checked path, the call goes straight to
    the C library, whose own agreement checks the arguments; when they do not fit (or a dtype is not the
    one agreed before), the checked path runs and raises the same ValueError everywhere."""
    if isinstance(plan, MpiPlan) and plan._direct:
        root = plan._is_root
        out = recvbuf
        if root and out is None and isinstance(sendbuf, np.ndarray) and sendbuf.ndim >= 1:
            out = np.empty((plan.items,) + sendbuf.shape[1:], dtype=sendbuf.dtype)
        if plan._gather_fast(sendbuf, out):
            return out if root else None
    _agreement.check_comm(comm)
    mp = Plan(comm, plan)
    try:
        return _gatherv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _gatherv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    root = False
    out = recvbuf
    itemsize = kind = None
    item = None

    def check():
        nonlocal root, out, itemsize, kind, item
        root = comm.Get_rank() == mp.root
        count, items = mp.count, mp.items
        if sendbuf is None:
            raise ValueError("sendbuf: None: expected this rank's block")
        dtype, shape, n = _layout(sendbuf, "sendbuf")
        if n != count:
            raise ValueError(f"sendbuf: {n} items: expected {count}, this rank's share")
        itemsize, kind, item = _itemsize(dtype, shape), _kind(dtype, shape), ("sendbuf", dtype, shape)
        if root:
            if out is None:
                out = np.empty((items,) + shape, dtype=dtype)
            rdtype, rshape, n = _layout(out, "recvbuf")
            _writable(out, "recvbuf")
            if n != items:
                raise ValueError(f"recvbuf: {n} items at the root: expected {items}, the plan's items")
            if _itemsize(rdtype, rshape) != itemsize:
                raise ValueError(f"recvbuf: items of {_itemsize(rdtype, rshape)} bytes at the root: expected "
                                 f"{itemsize}, the send buffer's")
            if _kind(rdtype, rshape) != kind:
                raise ValueError(f"recvbuf: dtype {rdtype} and item shape {rshape} at the root: expected {dtype} and "
                                 f"{shape}, the send buffer's (the bytes would be reinterpreted)")
    agreed = _agreement.agree(comm, 3, _agreement.attempt(check), [itemsize, kind])
    _same_items(comm, agreed, item)
    mp._gather(sendbuf, out if root else None, agreed[0][1])
    return out if root else None


def calibrate(comm: Any, fn: Callable[[int], Any], sizes: Sequence[int], *, itemsize: int = 8,
              repeats: int = 5, root: int = 0, model: str = "affine", names: Optional[Sequence[str]] = None) -> dict:
    """Measures the cost models a plan takes (RR-4770 Section 5.1: Tcomp and Tcomm "from a series of
    benchmarks"), collectively over ``comm``.

    Every rank times ``fn(x)`` (processing x items) for each x of ``sizes``; the root times sending
    x items of ``itemsize`` bytes to every other rank (and a 1-byte reply). Each point is the median of
    ``repeats`` timings; the points are fitted (``model="affine"``: least squares latency + per item,
    ``"table"``: the measured points). Returns, on every rank, a platform dict for ``hetlb.platform``:
    processor r is rank r, named ``names[r]`` (default "rank-r"), the root is ``root``. Every rank must
    pass the same sizes, itemsize, repeats, root, model and names. A failure of ``fn`` on any rank raises
    the same ValueError on every rank (a KeyboardInterrupt or SystemExit in ``fn`` is raised again on
    its own rank, the ValueError on the others). A rank whose measured time does not grow with x (a cost
    per item of 0: ``fn`` too fast for ``sizes``) gives a RuntimeWarning on the root, since a plan would
    take its items as free.
    """
    from mpi4py import MPI

    _agreement.check_comm(comm)
    rank, size = comm.Get_rank(), comm.Get_size()
    arguments: dict = {}

    def check():
        if not isinstance(model, str) or model not in ("affine", "table"):
            raise ValueError(f"model {model!r}: expected affine or table")
        if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__") or not len(sizes):
            raise ValueError(f"sizes = {sizes!r}: expected a list of item counts > 0")
        xs_ = [_whole(x, "sizes") for x in sizes]
        if any(x <= 0 for x in xs_):
            raise ValueError(f"sizes = {list(sizes)!r}: expected item counts > 0")
        arguments["sizes"] = [_whole(x, "sizes", 1, 1 << 40) for x in xs_]
        arguments["repeats"] = _whole(repeats, "repeats", 1, 1 << 20)
        arguments["itemsize"] = _whole(itemsize, "itemsize", 1, 1 << 30)
        arguments["root"] = _whole(root, "root", 0, size - 1)
        arguments["model"] = model
        if names is not None:
            if isinstance(names, (str, bytes)) or len(names) != size:
                raise ValueError(f"names: {len(names)} names: expected {size}, one per rank")
            arguments["names"] = [str(n) for n in names]
    failure = _agreement.attempt(check)
    digest = None if failure is not None else _agreement.fingerprint(sorted(arguments.items()))
    same = _agreement.agree(comm, 4, failure, [digest])[0]
    if same[0] != same[1]:
        everyone = comm.allgather(arguments)
        for key in ("sizes", "repeats", "itemsize", "root", "model", "names"):
            differ = [r for r, a in enumerate(everyone) if a.get(key) != everyone[0].get(key)]
            if differ:
                raise ValueError(f"calibrate: {key} = {everyone[differ[0]].get(key)!r} on rank {differ[0]}, "
                                 f"{everyone[0].get(key)!r} on rank 0: expected the same {key} on every rank")
    xs, repeats_, itemsize_, root_ = arguments["sizes"], arguments["repeats"], arguments["itemsize"], arguments["root"]

    compute: list = []
    buffers: dict = {}

    def allocate():  # the transfers' buffer, before any rank sends
        buffers["data"] = np.zeros(max(xs) * itemsize_, dtype=np.uint8)

    def measure():
        for x in xs:
            times = []
            for _ in range(repeats_):
                start = MPI.Wtime()
                fn(x)
                times.append(MPI.Wtime() - start)
            compute.append((float(x), float(np.median(times))))
    failure = _agreement.attempt(allocate) or _agreement.attempt(measure, "fn raised ")
    _agreement.agree(comm, 5, failure)

    comm_points: dict = {r: [] for r in range(size)}
    ack = np.zeros(1, dtype=np.uint8)
    for r in range(size):
        if r == root_:
            continue
        for x in xs:
            data = buffers["data"][: x * itemsize_]
            times = []
            for _ in range(repeats_):
                if rank == root_:
                    start = MPI.Wtime()
                    comm.Send(data, dest=r, tag=77)
                    comm.Recv(ack, source=r, tag=78)
                    times.append(MPI.Wtime() - start)
                elif rank == r:
                    comm.Recv(data, source=root_, tag=77)
                    comm.Send(ack, dest=root_, tag=78)
            if rank == root_:
                comm_points[r].append((float(x), float(np.median(times))))

    everyone = comm.gather(compute, root=root_)
    platform = None
    if rank == root_:
        def fit():
            nonlocal platform
            processors = []
            for r in range(size):
                processors.append({
                    "name": arguments["names"][r] if names is not None else f"rank-{r}",
                    "compute": _hetlb._fit_cost(everyone[r], model),
                    "comm": {"per_item": 0.0} if r == root_ else _hetlb._fit_cost(comm_points[r], model),
                })
            platform = {"root": processors[root_]["name"], "processors": processors}
            flat = [r for r in range(size) if not _hetlb._grows_with_items(everyone[r], model, min(xs), max(xs))]
            if flat:
                warnings.warn(f"calibrate: rank(s) {flat}: the time of fn does not grow from {min(xs)} to {max(xs)} "
                              "items (cost per item 0): a plan takes their items as free; use larger sizes",
                              RuntimeWarning, stacklevel=4)
        failed = _agreement.attempt(fit)
        platform = platform if failed is None else failed
    result = comm.bcast(platform, root=root_)
    if isinstance(result, _agreement.Failure):
        if rank == root_ and result.original is not None:
            raise result.original
        raise ValueError(f"rank {root_}: {result.message}")
    return result


_no_new(MpiPlan, "use hetlb.mpi.Plan()")

__all__ = ["Plan", "MpiPlan", "Balancer", "scatterv", "gatherv", "calibrate"]
_ = _hetlb  # the planning module is loaded first (its exception translation)
