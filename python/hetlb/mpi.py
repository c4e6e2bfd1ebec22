"""Load-balanced Scatterv / Gatherv in mpi4py programs.

``scatterv(comm, plan, sendbuf)`` sends each rank its share of the root's buffer as planned by
``hetlb.plan_scatter`` (processor k of the platform is rank k of ``comm``; the root sends in the plan's
order, its own block last), through hetlb's MPI library (hetlb/mpi/plan.h). Buffers are numpy arrays
or any buffer-protocol object whose first axis is the item axis: ``sendbuf`` holds ``plan.items``
items at the root. Every argument error raises the same ValueError on every rank (no hang).

``Plan(comm, plan)`` is the persistent form: planned once (collective), reused by many calls.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _hetlb
from ._hetlb import ScatterPlan
from ._hetlb_mpi import MpiPlan, _make_plan


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
    return _make_plan(comm, plan.platform.to_json(), "platform", plan.items, plan.root_rank,
                      plan._algorithm_argument, plan._order_argument)


def _layout(buf: Any) -> Tuple[np.dtype, Tuple[int, ...], int]:
    """dtype, shape of one item and number of items of a buffer (first axis: items)."""
    a = np.asarray(memoryview(buf)) if not isinstance(buf, np.ndarray) else buf
    if not a.flags.c_contiguous:
        raise ValueError("buffer: expected a C-contiguous buffer")
    if a.ndim == 0:
        raise ValueError("buffer: a scalar: expected an array whose first axis holds the items")
    return a.dtype, tuple(a.shape[1:]), int(a.shape[0])


def _agree(comm: Any, error: Optional[str]) -> None:
    """Raises the first rank's error on every rank (an allgather of the local verdicts)."""
    verdicts = comm.allgather(error)
    for rank, e in enumerate(verdicts):
        if e is not None:
            raise ValueError(f"rank {rank}: {e}")


def _local(check) -> Optional[str]:
    try:
        check()
    except ValueError as e:
        return str(e)
    return None


def _itemsize(dtype: np.dtype, shape: Tuple[int, ...]) -> int:
    return int(dtype.itemsize * int(np.prod(shape, dtype=np.int64)))


def scatterv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any = None, recvbuf: Any = None) -> Any:
    """Scatters the root's ``sendbuf`` (``plan.items`` items) by the plan; returns this rank's block
    (``recvbuf``, or a new numpy array of the root's dtype and item shape). Collective over ``comm``."""
    mp = Plan(comm, plan)
    try:
        return _scatterv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _scatterv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    rank = comm.Get_rank()
    meta = None
    error = None
    if rank == mp.root:
        def check_send():
            nonlocal meta
            if sendbuf is None:
                raise ValueError("sendbuf: None at the root: expected the items to scatter")
            dtype, shape, n = _layout(sendbuf)
            if n != mp.items:
                raise ValueError(f"sendbuf: {n} items at the root: expected {mp.items}, the plan's items")
            meta = (dtype.str, shape)
        error = _local(check_send)
    meta, error = comm.bcast((meta, error), root=mp.root)
    if error is not None:
        raise ValueError(error)
    dtype, shape = np.dtype(meta[0]), tuple(meta[1])
    out = recvbuf

    def check_recv():
        nonlocal out
        if out is None:
            out = np.empty((mp.count,) + shape, dtype=dtype)
            return
        rdtype, rshape, n = _layout(out)
        if n != mp.count or _itemsize(rdtype, rshape) != _itemsize(dtype, shape):
            raise ValueError(f"recvbuf: {n} items of {_itemsize(rdtype, rshape)} bytes: expected {mp.count} items "
                             f"of {_itemsize(dtype, shape)} bytes")
    _agree(comm, _local(check_recv))
    mp._scatter(sendbuf if rank == mp.root else None, out, _itemsize(dtype, shape))
    return out


def gatherv(comm: Any, plan: Union[ScatterPlan, MpiPlan], sendbuf: Any, recvbuf: Any = None) -> Any:
    """Gathers every rank's block (``sendbuf``: this rank's ``count`` items) into the root's
    ``recvbuf`` (``plan.items`` items; a new numpy array when None), receiving in the plan's gather
    order. Returns the root's buffer at the root, None elsewhere. Collective over ``comm``."""
    mp = Plan(comm, plan)
    try:
        return _gatherv(comm, mp, sendbuf, recvbuf)
    finally:
        if mp is not plan:
            mp.free()


def _gatherv(comm: Any, mp: MpiPlan, sendbuf: Any, recvbuf: Any) -> Any:
    rank = comm.Get_rank()
    meta = None
    error = None
    out = recvbuf
    if rank == mp.root:
        def check_root():
            nonlocal meta, out
            if out is None:
                if sendbuf is None:
                    raise ValueError("sendbuf: None at the root: expected its block")
                dtype, shape, _ = _layout(sendbuf)
                out = np.empty((mp.items,) + shape, dtype=dtype)
            dtype, shape, n = _layout(out)
            if n != mp.items:
                raise ValueError(f"recvbuf: {n} items at the root: expected {mp.items}, the plan's items")
            meta = (dtype.str, shape)
        error = _local(check_root)
    meta, error = comm.bcast((meta, error), root=mp.root)
    if error is not None:
        raise ValueError(error)
    dtype, shape = np.dtype(meta[0]), tuple(meta[1])

    def check_send():
        if sendbuf is None:
            raise ValueError("sendbuf: None: expected this rank's block")
        sdtype, sshape, n = _layout(sendbuf)
        if n != mp.count or _itemsize(sdtype, sshape) != _itemsize(dtype, shape):
            raise ValueError(f"sendbuf: {n} items of {_itemsize(sdtype, sshape)} bytes: expected {mp.count} items "
                             f"of {_itemsize(dtype, shape)} bytes")
    _agree(comm, _local(check_send))
    mp._gather(sendbuf, out if rank == mp.root else None, _itemsize(dtype, shape))
    return out if rank == mp.root else None


__all__ = ["Plan", "MpiPlan", "scatterv", "gatherv"]
_ = _hetlb  # the planning module is loaded first (its exception translation)
