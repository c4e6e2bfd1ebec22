"""Asynchronous iterative load balancing of a numpy array of records in an mpi4py program.

``Balancer(comm, items)`` hands the records of every rank to hetlb's diffusion runtime (Couturier &
Giersch's strategies, docs/runtime.md): between two ``iteration_done()`` calls the program computes on
``lb.items`` (this rank's records, a numpy array of the dtype it gave) and the runtime moves records
between neighbouring ranks until every rank holds its share. Each record keeps its 64-bit id
(``lb.ids``): none is lost or duplicated (``check_conservation()``, also run by ``metrics()``).
"""
from __future__ import annotations

import json
import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _agreement
from ._hetlb import Platform
from ._hetlb_mpi import (_Balancer, _default_balance, _default_balancer, _default_topology, _make_balancer,
                         _speeds_of_platform)
from .planning import _no_new, _text, _whole

# The runtime's object comes from _make_balancer only (through Balancer): one made by __new__ alone would
# hold no runtime.
_no_new(_Balancer, "use hetlb.mpi.Balancer")

SpeedsLike = Union[None, str, "os.PathLike[str]", Sequence[float], dict, Platform]

_MODES = {"async": False, "bulk_synchronous": True, "bsp": True}


def _layout(items: Any):
    """(records as a C-contiguous array, dtype, item shape) of one rank's items, or None."""
    if items is None:
        return None
    a = items if isinstance(items, np.ndarray) else np.asarray(memoryview(items))
    if a.ndim == 0:
        raise ValueError("items: a scalar: expected an array whose first axis holds the records")
    if a.dtype.hasobject:
        raise ValueError(f"items: dtype {a.dtype} holds Python objects: expected records of plain bytes "
                         "(numbers, fixed-size strings, structured dtypes of them)")
    if a.dtype.itemsize == 0 or 0 in a.shape[1:]:
        raise ValueError(f"items: records of 0 bytes (dtype {a.dtype}, shape {a.shape}): expected at least 1 byte")
    return np.ascontiguousarray(a), a.dtype, tuple(int(x) for x in a.shape[1:])


def _costs(costs: Any, count: int) -> np.ndarray:
    """One finite cost > 0 per record, as float64."""
    try:
        c = np.asarray(costs, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"costs: {costs!r}: expected numbers") from None
    if c.shape != (count,):
        raise ValueError(f"costs: shape {c.shape} for {count} records: expected one cost per record")
    bad = np.flatnonzero(~(np.isfinite(c) & (c > 0)))
    if len(bad):
        raise ValueError(f"costs[{bad[0]}] = {c[bad[0]]}: expected a finite cost > 0")
    return c


def _rows(a: Any, what: str) -> np.ndarray:
    """An array whose first axis holds rows of plain bytes, C-contiguous."""
    a = np.asarray(a)
    if a.ndim == 0:
        raise ValueError(f"{what}: a scalar: expected an array whose first axis holds one row per item")
    if a.dtype.hasobject:
        raise ValueError(f"{what}: dtype {a.dtype} holds Python objects: expected rows of plain bytes")
    return np.ascontiguousarray(a)


def _row_bytes(a: np.ndarray) -> int:
    return a.dtype.itemsize * int(np.prod(a.shape[1:], dtype=np.int64))


def _root(root: Any, comm: Any) -> int:
    """A rank of ``comm`` (the collective calls' root)."""
    r = _whole(root, "root")
    if not 0 <= r < comm.Get_size():
        raise ValueError(f"root {root}: expected a rank from 0 to {comm.Get_size() - 1}")
    return r


def _agreed(comm: Any, step: Any, prefix: str = "") -> None:
    """Collective: runs this rank's part and raises the lowest failing rank's error on every rank, as a
    ValueError (any failure: a MemoryError, a TypeError too), or on the failing rank itself its
    KeyboardInterrupt or SystemExit as it was."""
    from mpi4py import MPI

    failure = _agreement.attempt(step)
    rank, size = comm.Get_rank(), comm.Get_size()
    first = comm.allreduce(rank if failure is not None else size, op=MPI.MIN)
    if first < size:
        message = comm.bcast(None if failure is None else prefix + failure.message, root=first)
        if first == rank and failure.original is not None:
            raise failure.original
        raise ValueError(message)


class Balancer:
    """The diffusion runtime over ``comm`` (an mpi4py intracommunicator) and this rank's records.

    Collective: every rank passes its records (``items``: a numpy array, or any buffer, whose first
    axis holds them; a structured dtype makes a record of several fields; None or an empty array on a
    rank that starts with none, every rank with records giving the same dtype and record shape) and the
    same options. ``ids`` (unsigned 64-bit, one per record, unique over every rank) default to the
    records' positions in rank order (rank 0's first). The balancer holds copies of the records from
    then on: ``lb.items`` is the current array (re-read it after each ``iteration_done()``).

    Defaults are the C++ runtime's (docs/runtime.md): ``topology="auto"``, ``balance="time"`` (shares in
    proportion to the ranks' measured speeds), ``balancer="hybrid"``, ``strategy="besteffort"``, ``k=1``,
    ``virtual_load=False``, ``integer=False``, ``mode="async"``, ``progress_thread=False`` ("calls"),
    ``wait_for_load`` on in the asynchronous mode, ``iterations=20`` consecutive iterations within
    ``tolerance=0.01`` of the share to converge, ``time_limit=0``: none, ``min_balancing_period=1e-3`` s,
    ``min_computing_period=0``, ``sync_interval=0``: adaptive, ``end_on_convergence=True``:

    - ``topology``: line, ring, torus, hypercube, complete, an edge-list file, or "auto" (a torus where
      the rank count fits one, else a ring);
    - ``strategy``: none, simple, makhoul, besteffort (``k``: best effort's divisor, >= 1);
    - ``balance``: "load" (equal record counts) or "time" (records / speed: speed-proportional shares);
    - ``speeds``: None (each rank measures its own), one relative speed per rank, a file
      (hetlb-calibrate's output as it is, or numbers), or a platform (``hetlb.mpi.calibrate``'s dict, a
      ``hetlb.Platform``: processor r is rank r, speed = 1 / its compute cost per item);
    - ``mode``: "async" (records move whenever they arrive) or "bulk_synchronous" (every rank calls
      ``iteration_done()`` the same number of times; records move only at agreed calls, the run ends at
      the same call everywhere);
    - ``costs``: one cost per record (finite, > 0; default 1 each), in the records' order. A rank's load
      is the sum of its records' costs: "load" balancing equalises those sums, "time" balances them by
      speed (docs/runtime.md, "Item costs"); ``set_cost``/``set_costs`` change them while running;
    - ``balancer``: "diffusion" (neighbour to neighbour), "global" (bulk-synchronous mode only: global
      steps, any rank to any, planned by hetlb's exact planner) or "hybrid" (diffusion, plus a global step
      when its predicted gain exceeds its cost; diffusion alone in the asynchronous mode); the default is
      the C++ runtime's, "hybrid". ``total_iterations``: the program's number of ``iteration_done()``
      calls for the hybrid rule (0: unknown). docs/runtime.md, "Global steps"; ``metrics()["global_steps"]``
      lists the steps taken.

    A refusal is the same ValueError on every rank: the C library's one-line message for the options,
    ``rank R: ...`` naming the first rank whose records or ids are wrong.
    """

    def __init__(self, comm: Any, items: Any = None, ids: Any = None, *, topology: str = _default_topology,
                 strategy: str = "besteffort", k: float = 1.0, virtual_load: bool = False, integer: bool = False,
                 balance: str = _default_balance, speeds: SpeedsLike = None, mode: str = "async", iterations: int = 20,
                 tolerance: float = 0.01, time_limit: float = 0.0, min_balancing_period: float = 1e-3,
                 min_computing_period: float = 0.0, progress_thread: bool = False,
                 wait_for_load: Optional[bool] = None, end_on_convergence: bool = True,
                 sync_interval: int = 0, costs: Any = None, balancer: str = _default_balancer,
                 total_iterations: int = 0) -> None:
        layout = None
        local: dict = {}

        _agreement.check_comm(comm)

        def check() -> None:
            for name, value in (("topology", topology), ("strategy", strategy), ("balance", balance),
                                ("balancer", balancer)):
                local[name] = _text(value, name)
            if mode not in _MODES:
                raise ValueError(f'mode "{mode}": unknown; expected async or bulk_synchronous')
            for name, value in (("k", k), ("tolerance", tolerance), ("time_limit", time_limit),
                                ("min_balancing_period", min_balancing_period),
                                ("min_computing_period", min_computing_period)):
                try:
                    local[name] = float(value)
                except (TypeError, ValueError):
                    raise ValueError(f"{name} = {value!r}: expected a number") from None
            local["iterations"] = _whole(iterations, "iterations", 1, 2**62)
            local["sync_interval"] = _whole(sync_interval, "sync_interval", 0, 2**62)
            local["total_iterations"] = _whole(total_iterations, "total_iterations", 0, 2**62)
            if speeds is None:
                local["speeds"], local["speeds_file"] = [], ""
            elif isinstance(speeds, (dict, Platform)):  # hetlb.mpi.calibrate's dict, a hetlb.Platform
                text = json.dumps(speeds) if isinstance(speeds, dict) else speeds.to_json()
                local["speeds"], local["speeds_file"] = _speeds_of_platform(text, "speeds"), ""
            elif isinstance(speeds, (str, os.PathLike)):
                local["speeds"], local["speeds_file"] = [], os.fspath(speeds)
                if not isinstance(local["speeds_file"], str):
                    raise TypeError(f"speeds = {speeds!r}: expected a file name (str)")
            else:
                local["speeds"], local["speeds_file"] = [float(s) for s in speeds], ""
            try:
                records_and_ids()
            except (ValueError, TypeError) as e:
                raise ValueError(f"rank {comm.Get_rank()}: {_agreement.describe(e)}") from None

        def records_and_ids() -> None:
            nonlocal layout
            layout = _layout(items)
            count = 0 if layout is None else len(layout[0])
            if ids is not None:
                given = np.asarray(ids)
                if given.shape != (count,):
                    raise ValueError(f"ids: shape {given.shape} for {count} records: expected one id per record")
                if count and given.dtype.kind not in "iu":
                    raise ValueError(f"ids: dtype {given.dtype}: expected integers")
                if count and given.dtype.kind == "i" and given.min() < 0:
                    raise ValueError(f"ids: {given.min()}: expected ids >= 0 (unsigned 64-bit)")
                local["ids"] = np.ascontiguousarray(given, dtype=np.uint64)
            local["costs"] = [] if costs is None else list(_costs(costs, count))
        _agreed(comm, check)

        # Ids given on every rank or on none (a rank computing them from the others' counts would wait).
        given_ids = comm.allgather(ids is not None)
        if len(set(given_ids)) > 1:
            raise ValueError(f"ids: given on rank(s) {[r for r, g in enumerate(given_ids) if g]}, not on rank(s) "
                             f"{[r for r, g in enumerate(given_ids) if not g]}: expected ids on every rank (an empty "
                             "array where a rank has no records) or on none")
        # The record type: every rank with records gives the same; the others take it.
        kinds = comm.allgather(None if layout is None else (layout[1], layout[2]))
        given_kinds = [(r, kind) for r, kind in enumerate(kinds) if kind is not None]
        if not given_kinds:
            raise ValueError("items: None on every rank: expected the records (a numpy array) on at least one rank")
        first_rank, (dtype, shape) = given_kinds[0]
        for r, (d, s) in given_kinds:
            if d != dtype or s != shape:
                raise ValueError(f"items: records of dtype {d} and shape {s} on rank {r}, {dtype} and {shape} on "
                                 f"rank {first_rank}: expected the same record type on every rank")
        records = layout[0] if layout is not None else np.empty((0,) + shape, dtype=dtype)
        if ids is None:
            start = comm.exscan(len(records)) or 0
            local["ids"] = np.arange(start, start + len(records), dtype=np.uint64)
        if wait_for_load is None:
            wait = not _MODES[mode]
        else:
            wait = bool(wait_for_load)
        self._freed = False
        self._lb = _make_balancer(comm, records.reshape(-1).view(np.uint8), local["ids"],
                             dtype.itemsize * int(np.prod(shape, dtype=np.int64)), dtype, list(shape),
                             local["topology"], local["strategy"], local["k"], bool(virtual_load), bool(integer),
                             local["balance"],
                             local["speeds"], local["speeds_file"], _MODES[mode], local["iterations"],
                             local["tolerance"], local["time_limit"], local["min_balancing_period"],
                             local["min_computing_period"], bool(progress_thread), wait, bool(end_on_convergence),
                             local["sync_interval"], local["costs"], local["balancer"], local["total_iterations"])

    @property
    def items(self) -> np.ndarray:
        """This rank's records now: a numpy view (writable, no copy) of the balancer's array, valid until
        the next ``iteration_done()``/``stop()`` (a view kept longer is stale, never invalid memory)."""
        return self._lb.items

    @property
    def ids(self) -> np.ndarray:
        """The ids of ``items``, row for row (read-only uint64 view)."""
        return self._lb.ids

    def __len__(self) -> int:
        return len(self._lb)

    def iteration_done(self, compute_seconds: Optional[float] = None) -> bool:
        """Ends a computing iteration: takes in the records that arrived, sends those owed to the
        neighbours; False once the run has ended (bulk-synchronous mode: on every rank at the same call).
        ``compute_seconds``: this rank's computing time in the iteration (for measured speeds; default the
        time since the previous call). Releases the GIL while it waits."""
        return self._lb.iteration_done(None if compute_seconds is None else float(compute_seconds))

    @property
    def total_items(self) -> int:
        """Every rank's records, summed at the start (conserved)."""
        return self._lb.total_items

    def gather_by_id(self, values: Any = None, root: int = 0, return_ids: bool = False) -> Any:
        """Collective: every rank's records (or ``values``: one row per record, in the order of ``ids``) in
        one array at ``root``, ordered by id (ids 0..N-1: record id at row id); None on the other ranks.
        ``return_ids``: (array, its ids) at the root. In the bulk-synchronous mode between
        ``iteration_done()`` calls, or once the run has ended (docs/runtime.md, "Gather and scatter by id");
        a refusal is the same ValueError on every rank."""
        rows = out = ids = None
        at_root = False

        def check() -> None:
            nonlocal rows, out, ids, at_root
            if self._freed:
                raise ValueError("the balancer was freed: create another")
            at_root = self.comm.Get_rank() == _root(root, self.comm)
            rows = self.items if values is None else _rows(values, "values")
            if len(rows) != len(self):
                raise ValueError(f"values: {len(rows)} rows for {len(self)} records: expected one row per record")
            if at_root:  # allocated before the agreement: a MemoryError reaches every rank
                out = np.empty((self.total_items,) + rows.shape[1:], dtype=rows.dtype)
                ids = np.empty(self.total_items, dtype=np.uint64) if return_ids else None
        _agreed(self.comm, check, f"gather_by_id: rank {self.comm.Get_rank()}: ")
        row = _row_bytes(rows)
        into = None if out is None else out.reshape(-1).view(np.uint8)
        self._lb._gather_by_id(rows.reshape(-1).view(np.uint8), row, into, ids, int(root))
        return (out, ids) if return_ids and at_root else out

    def scatter_by_id(self, frame: Any = None, root: int = 0, out: Any = None) -> np.ndarray:
        """Collective, the reverse of ``gather_by_id``: ``frame`` (at ``root``: ``total_items`` rows in
        ascending id order; ignored elsewhere) goes to the ranks holding the ids. Each rank receives the
        rows of its records, in the order of ``ids``: into ``out`` (a writable C-contiguous array of one
        row per record) or, by default, over its records themselves (``items``). Returns that array."""
        target = None
        source = None

        def check() -> None:
            nonlocal target, source
            if self._freed:
                raise ValueError("the balancer was freed: create another")
            _root(root, self.comm)
            target = self.items if out is None else out
            if not isinstance(target, np.ndarray) or not target.flags.c_contiguous or not target.flags.writeable:
                raise ValueError("out: expected a writable C-contiguous numpy array")
            if target.dtype.hasobject:  # bytes written over the objects' pointers
                raise ValueError(f"out: dtype {target.dtype} holds Python objects: expected rows of plain bytes")
            if target.ndim == 0 or len(target) != len(self):
                raise ValueError(f"out: {len(target) if target.ndim else 0} rows for {len(self)} records: expected "
                                 "one row per record")
            if self.comm.Get_rank() == root:
                source = _rows(frame, "frame")
                if len(source) != self.total_items or _row_bytes(source) != _row_bytes(target):
                    raise ValueError(f"frame: {len(source)} rows of {_row_bytes(source)} bytes: expected "
                                     f"{self.total_items} rows of {_row_bytes(target)} bytes (one per record)")
        _agreed(self.comm, check, f"scatter_by_id: rank {self.comm.Get_rank()}: ")
        self._lb._scatter_by_id(None if source is None else source.reshape(-1).view(np.uint8), _row_bytes(target),
                                target.reshape(-1).view(np.uint8), int(root))
        return target

    def set_cost(self, id: int, cost: float) -> None:
        """The cost of the record ``id`` this rank holds (finite, > 0); local, between ``iteration_done()``
        calls. A cost travels with its record."""
        self._lb.set_cost(_whole(id, "id", 0, (1 << 64) - 1), float(cost))

    def set_costs(self, costs: Any) -> None:
        """The costs of this rank's records, one per record in the order of ``ids``; local."""
        self._lb.set_costs(_costs(costs, len(self)))

    @property
    def costs(self) -> np.ndarray:
        """The costs of this rank's records, in the order of ``ids``."""
        return self._lb.costs

    @property
    def load(self) -> float:
        """This rank's load: the sum of its records' costs."""
        return self._lb.load

    def progress(self) -> None:
        """Receives and balances (progress() mode); call it now and then inside long iterations."""
        self._lb.progress()

    def stop(self) -> None:
        """Collective: ends the run now (every rank calls it once; bulk-synchronous mode: after the same
        number of ``iteration_done()`` calls). Nothing is in flight afterwards."""
        self._lb.stop()

    @property
    def finished(self) -> bool:
        """Whether the run has ended on this rank."""
        return self._lb.finished

    def check_conservation(self) -> int:
        """Collective: the records over every rank, checked against the start by id (every id held by
        exactly one rank: their count and two 64-bit hash sums agree). ValueError on every rank otherwise."""
        self._usable("check_conservation")
        return self._lb.check_conservation()

    def metrics(self) -> dict:
        """Collective, after the end: the runtime's metrics (``hetlb-diffuse --format json``'s keys:
        converged, max_convergence_date, data_transfer_amount, ctrl_messages, ...) plus ``final_loads``
        (records per rank) and ``speeds`` (each rank's speed, given or measured), numpy arrays, and
        ``ids_conserved`` (``check_conservation()``, which raises when ids were lost or duplicated)."""
        self._usable("metrics")
        text, loads, speeds = self._lb._metrics()
        result = json.loads(text)
        result["final_loads"] = np.asarray(loads, dtype=np.int64)
        result["speeds"] = np.asarray(speeds, dtype=float)
        self.check_conservation()
        result["ids_conserved"] = True
        return result

    @property
    def speed(self) -> float:
        """This rank's speed: given, or measured (records per second, 0 before a measurement)."""
        return self._lb.speed

    @property
    def topology(self) -> str:
        """The neighbourhood's name ("torus 2x2", "ring", ...)."""
        return self._lb.topology

    @property
    def threaded(self) -> bool:
        """Whether a progress thread runs (``progress_thread=True`` with MPI_THREAD_MULTIPLE)."""
        return self._lb.threaded

    @property
    def notice(self) -> str:
        """Why a requested progress thread is not used ("" otherwise)."""
        return self._lb.notice

    @property
    def degree(self) -> int:
        """This rank's number of neighbours."""
        return self._lb.degree

    @property
    def average_load(self) -> float:
        """Records over every rank / ranks."""
        return self._lb.average_load

    @property
    def comm(self) -> Any:
        return self._lb.comm

    def free(self) -> None:
        """Collective: frees the runtime and its communicators (``items`` and ``ids`` stay readable)."""
        self._freed = True
        self._lb.free()

    def _usable(self, name: str) -> None:
        """Collective, before a collective call of the runtime: a balancer freed on one rank only is
        refused on every rank (the others would wait for it)."""
        def check() -> None:
            if self._freed:
                raise ValueError(f"{name}(): the balancer was freed: create another")
        _agreed(self.comm, check, f"rank {self.comm.Get_rank()}: ")

    def __enter__(self) -> "Balancer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.free()


__all__ = ["Balancer"]
