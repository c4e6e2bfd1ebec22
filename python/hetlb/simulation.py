"""SimGrid simulations: asynchronous iterative load balancing (Couturier, Giersch) and scatter replay.

Each simulation runs in a forked child process (SimGrid allows one engine per process) while the GIL
is released: other Python threads go on meanwhile.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

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


def simulate_diffusion(
    *,
    platform: str = "cluster",
    nodes: Optional[int] = None,
    topology: str = "torus",
    strategy: str = "besteffort",
    k: float = 1.0,
    virtual_load: bool = False,
    integer: bool = False,
    residue_equal: bool = False,
    coalesce_data: bool = False,
    estimates: str = "accounted",
    lb_phase: str = "aligned",
    simulate_streaks: bool = False,
    initial: str = "single",
    load_per_node: float = 1000.0,
    ratio: float = 1.0,
    seed: int = 1,
    iterations: int = 2000,
    time_limit: float = 0.0,
    min_comp_iter: float = -1.0,
    min_lb_iter: float = -1.0,
    trace: bool = False,
    trace_interval: float = 0.0,
    balance: str = "load",
    speeds: Union[None, str, Sequence[float]] = None,
    slowdowns: Sequence[Union[str, Tuple[int, float, float, float]]] = (),
    params: Optional[Mapping[str, Union[float, bool]]] = None,
) -> dict:
    """Simulates one run, as ``hetlb simulate diffusion --format json`` (same options, same defaults,
    dashes become underscores; ``nodes=None``: 16, or the topology/initial-load file's count).

    Returns the metrics dict of the command line (converged, avg_idle_time, avg_convergence_date,
    data_transfer_amount, ..., simulated_time, wall_seconds) plus ``initial_loads`` and ``final_loads``
    (numpy arrays) and, with ``trace=True``, ``trace_dates`` (numpy, s) and ``trace_loads`` (numpy,
    one row per date, one column per node) sampled every ``trace_interval`` s (0: every tau).
    ``balance="time"`` balances completion time (load / speed); ``speeds`` gives the cluster's relative
    host speeds (a list, a file, or ``"grid-real"``: ``--speeds``); ``slowdowns`` slows nodes for a
    while (``(node, factor, start, end)`` or ``"NODE:FACTOR:START:END"``: ``--slowdown``); ``params``
    sets the strategy's parameters by name (``{"alpha": 0.5}``: ``--param``, see ``hetlb strategies``).
    ValueError on bad options, with the command line's message.
    """
    text = _hetlb._simulate_diffusion(
        _text(platform, "platform"), -1 if nodes is None else _whole(nodes, "nodes", 1, MAX_NODES),
        _text(topology, "topology"), _text(strategy, "strategy"), _real(k, "k"),
        bool(virtual_load), bool(integer), bool(residue_equal), bool(coalesce_data), _text(estimates, "estimates"),
        _text(lb_phase, "lb_phase"), bool(simulate_streaks), _text(initial, "initial"),
        _real(load_per_node, "load_per_node"), _real(ratio, "ratio"), _whole(seed, "seed", 0, MAX_SEED),
        _whole(iterations, "iterations", 1, 1 << 62), _real(time_limit, "time_limit"),
        _real(min_comp_iter, "min_comp_iter"), _real(min_lb_iter, "min_lb_iter"),
        _real(trace_interval, "trace_interval"), bool(trace), _text(balance, "balance"), _speeds_text(speeds),
        [s if isinstance(s, str) else ":".join(_number_text(x) for x in s)
         for s in slowdowns],
        [f"{name}={_param_text(value)}" for name, value in (params or {}).items()])
    result = json.loads(text)
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
