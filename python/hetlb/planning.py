"""Scatter plans (RR-4770) and ring redistributions (Renard, Robert, Vivien)."""
from __future__ import annotations

import json
import numbers
import os
from typing import Any, Mapping, Optional, Sequence, Union

from . import _hetlb
from ._hetlb import Platform, Ring, ScatterPlan

PlatformLike = Union[Platform, Mapping[str, Any], str, "os.PathLike[str]"]
RingLike = Union[Ring, Mapping[str, Any], str, "os.PathLike[str]"]


def _cost(per_item: float, latency: Optional[float]) -> dict:
    cost = {"per_item": float(per_item)}
    if latency is not None and float(latency) != 0.0:
        cost["latency"] = float(latency)
    return cost


def platform(
    source: Optional[PlatformLike] = None,
    *,
    compute: Optional[Sequence[float]] = None,
    comm: Optional[Sequence[float]] = None,
    comm_latency: Optional[Sequence[float]] = None,
    names: Optional[Sequence[str]] = None,
    root: Union[int, str] = 0,
    items: Optional[int] = None,
    name: str = "",
) -> Platform:
    """A scatter platform from a dict (the platform file's JSON shape), a JSON file path, or arrays.

    With arrays: ``compute[i]`` and ``comm[i]`` are processor i's seconds per item (linear costs),
    ``comm_latency[i]`` an optional latency per message; ``names`` default to ``p0, p1, ...``; ``root``
    is an index or a name. Mistakes raise ValueError naming the field, as ``hetlb scatter`` does.
    """
    if isinstance(source, Platform):
        return source
    if source is not None:
        if compute is not None or comm is not None:
            raise ValueError("platform: give either a dict/file or compute= and comm= arrays, not both")
        if isinstance(source, Mapping):
            return Platform.from_json(json.dumps(source), "platform")
        if isinstance(source, (str, os.PathLike)):
            return Platform.from_file(os.fspath(source))
        raise ValueError(f"platform: {type(source).__name__}: expected a dict, a JSON file path or a hetlb.Platform")
    if compute is None or comm is None:
        raise ValueError("platform: expected a dict, a JSON file path, or compute= and comm= arrays")
    for label, values in (("compute", compute), ("comm", comm), ("comm_latency", comm_latency), ("names", names)):
        if values is not None and hasattr(values, "__len__") and len(values) > _hetlb._max_processors:
            raise ValueError(f"platform: {label} has {len(values)} values: expected at most "
                             f"{_hetlb._max_processors} processors")
    compute = [float(x) for x in compute]
    comm = [float(x) for x in comm]
    if len(compute) != len(comm):
        raise ValueError(f"platform: compute has {len(compute)} values and comm {len(comm)}: expected one per processor")
    latency = [None] * len(comm) if comm_latency is None else [float(x) for x in comm_latency]
    if len(latency) != len(comm):
        raise ValueError(f"platform: comm_latency has {len(latency)} values: expected {len(comm)}, one per processor")
    names = [f"p{i}" for i in range(len(compute))] if names is None else [str(n) for n in names]
    if len(names) != len(compute):
        raise ValueError(f"platform: names has {len(names)} values: expected {len(compute)}, one per processor")
    if isinstance(root, int):
        if not 0 <= root < max(len(names), 1):
            raise ValueError(f"platform: root = {root}: expected an index in [0, {len(names)})")
        root = names[root] if names else ""
    doc: dict = {
        "root": root,
        "processors": [
            {"name": n, "compute": _cost(a, None), "comm": _cost(c, l)}
            for n, a, c, l in zip(names, compute, comm, latency)
        ],
    }
    if name:
        doc["name"] = str(name)
    if items is not None:
        doc["items"] = _whole(items, "items")
    return Platform.from_json(json.dumps(doc), "platform")


_as_platform = platform


def plan_scatter(
    platform: PlatformLike,
    items: Optional[int] = None,
    algorithm: str = "exact",
    order: str = "bandwidth",
    root: Optional[str] = None,
    *,
    dp_fallback: bool = False,
    order_evaluations: int = 2000,
    weights: Optional[Any] = None,
    layout: str = "contiguous",
) -> ScatterPlan:
    """Plans a load-balanced scatter of ``items`` items (default: the platform's ``items``).

    ``algorithm``: uniform, dp-basic, dp, exact, lp, closed-form; ``order``: given, bandwidth,
    reverse-bandwidth, best, or the non-root processors by name ("a,b,c"); ``root``: a processor name,
    "auto" (RR-4770 Section 3.4) or None for the platform's root. The same choices and defaults as
    ``hetlb scatter``; ``plan.to_dict()`` is its ``--format json`` output. ValueError on bad input.

    ``weights``: items of unequal cost (docs/weighted-items.md), a sequence or numpy array of one
    finite number >= 0 per item in item order, the work of each (the platform's per-item costs become
    per unit of work); ``items`` is then its length. ``layout``: "contiguous" (each processor a range of
    items, the ranges in send order) or "any" (any item anywhere: ``plan.permutation`` and
    ``plan.item_ids(rank)`` say where). ``algorithm`` exact (the layout's optimum) or uniform (equal
    counts). As ``hetlb scatter --weights FILE --layout L``; unit weights give the plan of counts.
    """
    p = _as_platform(platform)
    if not isinstance(layout, str):
        raise TypeError(f"layout = {layout!r}: expected \"contiguous\" or \"any\"")
    n = 0 if items is None else _whole(items, "items", 0, MAX_ITEMS)
    evaluations = _whole(order_evaluations, "order_evaluations", 1, MAX_ORDER_EVALUATIONS)
    w = None if weights is None else _weights(weights)
    return _hetlb._plan_scatter(p, n, _text(algorithm, "algorithm"), _text(order, "order"),
                                "" if root is None else _text(root, "root"), bool(dp_fallback), evaluations, w, layout)


def _weights(weights: Any) -> "np.ndarray":
    """The weights as a 1-D float64 array; TypeError naming the first item that is not a real number,
    ValueError for a shape that is not one number per item (the values are checked by the library)."""
    import numpy as np

    sequence = hasattr(weights, "__len__") or hasattr(weights, "__array__")
    if isinstance(weights, (str, bytes, Mapping)) or not sequence:
        raise TypeError(f"weights: {type(weights).__name__}: expected a sequence or numpy array of numbers, "
                        "one per item")
    try:
        a = np.asarray(weights)
    except ValueError as e:  # ragged nesting
        raise ValueError(f"weights: {e}: expected one number per item") from None
    if a.ndim != 1:
        raise ValueError(f"weights: shape {a.shape}: expected one number per item (a 1-D sequence or array)")
    if a.dtype.kind in "iuf":
        return np.ascontiguousarray(a, dtype=np.float64)
    for k, x in enumerate(a.tolist()):  # object, bool, complex, strings: name the first non-number
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"weights: item {k}: {x!r} is not a number")
    if isinstance(weights, np.ndarray):  # an object array of numbers: say how to give it
        raise TypeError(f"weights: dtype {a.dtype}: expected an array of numbers (give weights.astype(float))")
    return np.ascontiguousarray(a.astype(np.float64))


# The command line's ranges (hetlb scatter --items, --order-evaluations, --samples, --seed).
MAX_ITEMS = 1 << 62
MAX_ORDER_EVALUATIONS = 1 << 40
MAX_SEED = (1 << 64) - 1


def _whole(value: Any, name: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """A whole number (an integer, or a float that is one) within [low, high] when given; ValueError
    naming the argument, its value and the range otherwise (never a conversion error further down)."""
    number = None
    if not isinstance(value, bool):
        if isinstance(value, numbers.Integral):
            number = int(value)
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
    if number is None:
        raise ValueError(f"{name} = {value!r}: expected a whole number")
    if (low is not None and number < low) or (high is not None and number > high):
        lo = "" if low is None else f" from {low}"
        hi = "" if high is None else f" to {high}"
        raise ValueError(f"{name} = {value!r}: expected a whole number{lo}{hi}")
    return number


def _real(value: Any, name: str) -> float:
    """A real number (int, float, numpy scalar) as a float: TypeError naming the argument otherwise
    (the library checks its range)."""
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} = {value!r}: expected a number")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} = {value!r}: out of a double's range") from None


def _text(value: Any, name: str) -> str:
    """A string argument (a name or a path): TypeError naming it otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"{name} = {value!r}: expected a string")
    return value


def _scatter_to_dict(self: ScatterPlan) -> dict:
    """The plan as ``hetlb scatter --format json`` prints it (a fresh dict)."""
    return json.loads(self.to_json())


def _scatter_shares(self: ScatterPlan) -> list:
    """Per processor, in send order: name, items, comm_start, comm_end, finish, idle (seconds)."""
    return self.to_dict()["shares"]


def _scatter_perturb(
    self: ScatterPlan,
    percent: Optional[float] = None,
    samples: Optional[int] = None,
    seed: int = 1,
    factors: Union[None, Mapping[str, Any], str, "os.PathLike[str]"] = None,
) -> dict:
    """How the plan holds when the real costs differ from the model (``hetlb scatter --perturb PCT
    --samples N --seed S --factors F --format json``): each cost off by up to ``percent``% (uniform,
    ``samples`` draws, default 100) and/or fixed ``factors`` ({"NAME": F} multiplies NAME's computation
    cost, {"NAME": {"compute": F, "comm": G}} both), beside re-planning knowing the real costs.
    Returns {"plan": ..., "perturbation": {nominal_makespan, plan_makespan, replanned_makespan,
    regret, per_sample, ...}}."""
    if percent is None and factors is None:
        raise ValueError("perturb: expected percent= or factors= (the real costs' difference from the model)")
    text, path = "", ""
    if isinstance(factors, Mapping):
        text = json.dumps(factors)
    elif factors is not None:
        path = os.fspath(factors)
    return json.loads(self._perturb(None if percent is None else _real(percent, "percent"),
                                    None if samples is None else _whole(samples, "samples"),
                                    _whole(seed, "seed"), text, path))


def _scatter_item_ids(self: ScatterPlan, rank: int) -> "np.ndarray":
    """The items rank ``rank`` holds, in the order of its block (numpy int64)."""
    return self._item_ids(_whole(rank, "rank"))


def _no_new(cls: type, how: str) -> None:
    """Instances of the library's types come from its functions only: one made by ``cls.__new__`` would
    hold no object of the library (and crash the interpreter when used)."""
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise TypeError(f"hetlb.{cls.__name__}: cannot be created directly: {how}")
    cls.__new__ = staticmethod(refuse)


_no_new(Platform, "use hetlb.platform()")
_no_new(ScatterPlan, "use hetlb.plan_scatter()")
_no_new(Ring, "use hetlb.ring()")


ScatterPlan.perturb = _scatter_perturb
ScatterPlan.item_ids = _scatter_item_ids
ScatterPlan.to_dict = _scatter_to_dict
ScatterPlan.shares = property(_scatter_shares)


def ring(source: RingLike, *, bidirectional: bool = False) -> Ring:
    """A ring redistribution problem from a dict (the ring file's JSON shape) or a JSON file path."""
    if isinstance(source, Ring):
        return source
    if isinstance(source, Mapping):
        return Ring.from_json(json.dumps(source), "ring", bool(bidirectional))
    if isinstance(source, (str, os.PathLike)):
        return Ring.from_file(os.fspath(source), bool(bidirectional))
    raise ValueError(f"ring: {type(source).__name__}: expected a dict, a JSON file path or a hetlb.Ring")


class RingPlan:
    """A ring redistribution plan: ``transfers`` (list of dicts: from, to, items, start, end,
    direction), ``time``, ``lower_bound``, ``optimal``, ``final_loads``; ``to_dict()`` is
    ``hetlb ring --format json``; ``verify()`` checks it with the independent verifier."""

    def __init__(self, ring_: Ring, doc: dict):
        self.ring = ring_
        self._doc = doc

    def __getattr__(self, key: str) -> Any:
        try:
            return self.__dict__["_doc"][key]
        except KeyError:
            raise AttributeError(key) from None

    def to_dict(self) -> dict:
        return json.loads(json.dumps(self._doc))

    def verify(self, schedule: Optional[Mapping[str, Any]] = None) -> Optional[str]:
        """None when ``schedule`` (default: this plan) is valid on the ring, else the violation's line."""
        doc = self._doc if schedule is None else schedule
        return _hetlb._verify_ring_schedule(self.ring, json.dumps(doc), "schedule")

    def __repr__(self) -> str:
        return (f"<hetlb.RingPlan {self._doc['algorithm']}: {len(self._doc['transfers'])} transfers, "
                f"time {self._doc['time']:.6g}{' (optimal)' if self._doc['optimal'] else ''}>")


def plan_ring(source: RingLike, *, bidirectional: bool = False, verify: bool = False,
              max_transfers: int = 2_000_000) -> RingPlan:
    """Plans a redistribution on a processor ring (as ``hetlb ring``); ``verify=True`` checks the plan
    with the independent verifier and raises ValueError on a violation."""
    r = ring(source, bidirectional=bidirectional)
    return RingPlan(r, json.loads(_hetlb._plan_ring(r, _whole(max_transfers, "max_transfers", 1, 1 << 62),
                                                    bool(verify))))
