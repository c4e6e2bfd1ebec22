"""SimGrid simulations: asynchronous iterative load balancing (Couturier, Giersch) and scatter replay.

Each simulation runs in a forked child process (SimGrid allows one engine per process) while the GIL
is released: other Python threads go on meanwhile.
"""
from __future__ import annotations

import json
from typing import Optional

import numpy as np

from . import _hetlb
from .planning import MAX_SEED, PlatformLike, _as_platform, _real, _text, _whole


def _speeds_text(speeds) -> str:
    """--speeds' text: "" (the platform's), a list joined by commas, or a file / name as given."""
    if speeds is None:
        return ""
    if isinstance(speeds, str):
        return speeds
    return ",".join(_number_text(s) for s in speeds)


def _number_text(x) -> str:
    """A number as the command line would be given it: 2, not 2.0; 0.1 exactly as repr."""
    if isinstance(x, str):
        return x
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 2**53 else repr(x)


def _param_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return _number_text(value)


# hetlb simulate diffusion --nodes: 1 to 2^20 (the platform's limits then apply).
MAX_NODES = 1 << 20


def _nodes(value):
    return -1 if value is None else _whole(value, "nodes", 1, MAX_NODES)


def _list_of_reals(name):
    def check(values):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError(f"{name} = {values!r}: expected a list of numbers")
        return [_real(v, name) for v in values]
    return check


# Each option of `hetlb simulate diffusion`, dashes as underscores: how a Python value becomes the
# command line's (the checks and messages of the command line then apply, in to_config).
_OPTION_VALUES = {
    "platform": lambda v: _text(v, "platform"),
    "nodes": _nodes,
    "topology": lambda v: _text(v, "topology"),
    "strategy": lambda v: _text(v, "strategy"),
    "k": lambda v: _real(v, "k"),
    "residue_equal": bool,
    "params": lambda v: [f"{name}={_param_text(value)}" for name, value in (v or {}).items()],
    "virtual_load": bool,
    "integer": bool,
    "coalesce_data": bool,
    "estimates": lambda v: _text(v, "estimates"),
    "lb_phase": lambda v: _text(v, "lb_phase"),
    "simulate_streaks": bool,
    "initial": lambda v: _text(v, "initial"),
    "load_per_node": lambda v: _real(v, "load_per_node"),
    "ratio": lambda v: _real(v, "ratio"),
    "seed": lambda v: _whole(v, "seed", 0, MAX_SEED),
    "iterations": lambda v: _whole(v, "iterations", 1, (1 << 63) - 1),
    "time_limit": lambda v: _real(v, "time_limit"),
    "min_comp_iter": lambda v: _real(v, "min_comp_iter"),
    "min_lb_iter": lambda v: _real(v, "min_lb_iter"),
    "trace_interval": lambda v: _real(v, "trace_interval"),
    "balance": lambda v: _text(v, "balance"),
    "balancer": lambda v: _text(v, "balancer"),
    "speeds": _speeds_text,
    "slowdowns": lambda v: [s if isinstance(s, str) else ":".join(_number_text(x) for x in s) for s in v],
    "metrics_at": _list_of_reals("metrics_at"),
    "imbalance_integral": bool,
}


class DiffusionOptions(_hetlb._DiffusionOptions):
    """The options of ``hetlb simulate diffusion``, the same object the command line fills: same names
    (dashes become underscores), same defaults, same checks. ``DiffusionOptions(nodes=64,
    topology="hypercube")``; set more as attributes; ``simulate_diffusion(options)`` runs it.
    ``nodes=None``: 16, or the topology / initial-load file's count. ``params``: ``{"alpha": 0.5}``
    (``--param``); ``speeds``: a list, a file or ``"grid-real"``; ``slowdowns``: ``(node, factor, start,
    end)`` or ``"NODE:FACTOR:START:END"``. An unknown name is a TypeError naming the known ones."""

    def __init__(self, **settings):
        super().__init__()
        for name, value in settings.items():
            setattr(self, name, value)

    def __setattr__(self, name, value):
        convert = _OPTION_VALUES.get(name)
        if convert is None:
            raise TypeError(f"DiffusionOptions has no option {name!r}; expected one of {', '.join(_OPTION_VALUES)}")
        super().__setattr__(name, convert(value))

    def __repr__(self):
        changed = {n: getattr(self, n) for n in _OPTION_VALUES if getattr(self, n) != getattr(_DEFAULTS, n)}
        return "hetlb.DiffusionOptions(" + ", ".join(f"{n}={v!r}" for n, v in changed.items()) + ")"


_DEFAULTS = _hetlb._DiffusionOptions()


def simulate_diffusion(options: Optional[DiffusionOptions] = None, *, trace: bool = False, **settings) -> dict:
    """Simulates one run, as ``hetlb simulate diffusion --format json``: ``options`` (a
    ``DiffusionOptions``, the command line's options object) and/or its options by name
    (``simulate_diffusion(nodes=8, topology="ring")``; names given here override ``options``).

    Returns the metrics dict of the command line (converged, avg_idle_time, avg_convergence_date,
    data_transfer_amount, ..., simulated_time, wall_seconds) plus ``initial_loads`` and ``final_loads``
    (numpy arrays) and, with ``trace=True``, ``trace_dates`` (numpy, s) and ``trace_loads`` (numpy,
    one row per date, one column per node) sampled every ``trace_interval`` s (0: every tau).
    ``balance="time"`` balances completion time (load / speed); ``balancer`` diffusion, global or hybrid;
    ``metrics_at`` and ``imbalance_integral`` as ``--metrics-at`` and ``--imbalance-integral``.
    ValueError on bad options, with the command line's message.
    """
    merged = DiffusionOptions()
    if options is not None:
        if not isinstance(options, _hetlb._DiffusionOptions):
            raise TypeError(f"options = {options!r}: expected a hetlb.DiffusionOptions")
        for name in _OPTION_VALUES:
            _hetlb._DiffusionOptions.__setattr__(merged, name, getattr(options, name))
    for name, value in settings.items():
        setattr(merged, name, value)
    result = json.loads(_hetlb._simulate_diffusion(merged, bool(trace)))
    result["initial_loads"] = np.asarray(result["initial_loads"], dtype=float)
    result["final_loads"] = np.asarray(result["final_loads"], dtype=float)
    samples = result.pop("trace", None)
    if samples is not None:
        result["trace_dates"] = np.asarray(samples["dates"], dtype=float)
        result["trace_loads"] = np.asarray(samples["loads"], dtype=float).reshape(len(samples["dates"]), -1)
    return result


def simulate_scatter(
    platform: PlatformLike,
    items: Optional[int] = None,
    algorithm: str = "exact",
    order: str = "bandwidth",
    root: Optional[str] = None,
) -> dict:
    """Plans a scatter and replays it on SimGrid, as ``hetlb simulate scatter --format json``: the
    predicted and simulated makespans, their relative gap and per share the predicted and simulated
    dates."""
    p = _as_platform(platform)
    return json.loads(_hetlb._simulate_scatter(p.to_json(), p.source,
                                               0 if items is None else _whole(items, "items", 0, 1 << 40),
                                               _text(algorithm, "algorithm"), _text(order, "order"),
                                               "" if root is None else _text(root, "root")))
