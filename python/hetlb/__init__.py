"""hetlb: load balancing on heterogeneous platforms, from Python.

Plan the load-balanced scatter of RR-4770 (``plan_scatter``), redistribute data on processor rings
(``plan_ring``), simulate asynchronous iterative load balancing on SimGrid (``simulate_diffusion``,
``simulate_scatter``), read study results (``hetlb.study``), run plans in mpi4py programs and balance
their iterations (``hetlb.mpi``, ``hetlb.mpi.Balancer``). Every refusal is a ``ValueError`` carrying the
command line's one-line message.
"""
from ._hetlb import Platform, Ring, ScatterPlan, __version__
from .planning import RingPlan, platform, plan_ring, plan_scatter, ring
from .simulation import DiffusionOptions, simulate_diffusion, simulate_scatter
from . import study  # hetlb.study.read_results after `import hetlb`, as the docs use it

__all__ = [
    "__version__",
    "DiffusionOptions",
    "Platform",
    "Ring",
    "RingPlan",
    "ScatterPlan",
    "platform",
    "plan_ring",
    "plan_scatter",
    "ring",
    "simulate_diffusion",
    "simulate_scatter",
    "study",
]
