"""Refusals instead of crashes, hangs or silent substitutes: objects made by __new__ alone, integers past
64 bits, arguments of the wrong type, a NUL byte in a path, a negative node count, a platform of too many
processors from arrays. Each is a ValueError or TypeError in the library's own words, never pybind11's
"Invoked with"."""
import os
import subprocess
import sys
import time

import pytest

import hetlb
from conftest import example

GRID = example("grid1999.json")
RING = example("ring-heterogeneous.json")


def test_objects_made_by_new_alone_are_refused_not_a_crash():
    script = """
import hetlb
names = [("Platform", "hetlb.platform()"), ("ScatterPlan", "hetlb.plan_scatter()"), ("Ring", "hetlb.ring()")]
try:
    import hetlb.mpi
    from hetlb import _hetlb_mpi
    classes = [(hetlb.mpi.MpiPlan, "hetlb.mpi.Plan()"), (_hetlb_mpi._Balancer, "hetlb.mpi.Balancer")]
    try:  # the runtime's class has no constructor of its own either
        _hetlb_mpi._Balancer()
        print("no error")
    except TypeError as e:
        assert "cannot be created directly: use hetlb.mpi.Balancer" in str(e), e
except ImportError:
    classes = []
classes += [(getattr(hetlb, n), how) for n, how in names]
for cls, how in classes:
    try:
        obj = cls.__new__(cls)
        obj.to_json() if hasattr(obj, "to_json") else obj.counts
        print("no error")
    except TypeError as e:
        assert str(e) == f"hetlb.{cls.__name__}: cannot be created directly: use {how}", e
print("done")
"""
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "done", (p.returncode, p.stdout, p.stderr)


@pytest.mark.parametrize("call,error,message", [
    (lambda: hetlb.plan_scatter(GRID, items=2**65), ValueError, "items = 36893488147419103232: expected a whole number "
                                                               "from 0 to 4611686018427387904"),
    (lambda: hetlb.plan_scatter(GRID, order_evaluations=2**70), ValueError,
     "order_evaluations = 1180591620717411303424: expected a whole number from 1 to 1099511627776"),
    (lambda: hetlb.plan_scatter(GRID, algorithm=None), TypeError, "algorithm = None: expected a string"),
    (lambda: hetlb.plan_scatter(GRID).perturb(percent=5, seed=-1), ValueError,
     "--seed: value -1: expected a whole number from 0 to 18446744073709551615"),
    (lambda: hetlb.plan_scatter(GRID).perturb(percent=5, samples=2**70), ValueError,
     "--samples: value 1180591620717411303424: expected a whole number from 1 to 1000000"),
    (lambda: hetlb.plan_scatter(GRID).item_ids(2**70), ValueError, "rank = 1180591620717411303424: expected a rank in"),
    (lambda: hetlb.plan_ring(RING, max_transfers=2**70), ValueError, "max_transfers = 1180591620717411303424"),
    (lambda: hetlb.simulate_diffusion(nodes=4, seed=-1), ValueError,
     "seed = -1: expected a whole number from 0 to 18446744073709551615"),
    (lambda: hetlb.simulate_diffusion(nodes=4, topology=None), TypeError, "topology = None: expected a string"),
    (lambda: hetlb.simulate_diffusion(nodes=4, k=None), TypeError, "k = None: expected a number"),
    (lambda: hetlb.simulate_diffusion(nodes=-5), ValueError, "nodes = -5: expected a whole number from 1 to 1048576"),
    (lambda: hetlb.simulate_scatter(GRID, items=2**70), ValueError, "items = 1180591620717411303424"),
])
def test_out_of_range_and_wrong_types_in_the_library_s_words(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert message in str(e.value) and "Invoked with" not in str(e.value), str(e.value)


@pytest.mark.parametrize("call,shown", [
    (lambda: hetlb.plan_scatter(GRID + "\0/etc/shadow"), GRID + "\\0/etc/shadow"),
    (lambda: hetlb.plan_ring(RING + "\0x"), RING + "\\0x"),
    (lambda: hetlb.plan_scatter(GRID).perturb(factors=GRID + "\0"), GRID + "\\0"),
    (lambda: hetlb.simulate_diffusion(nodes=4, topology="ring\0"), "ring\\0"),
])
def test_a_nul_byte_in_a_path_is_refused_not_cut(call, shown):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == f"{shown}: a file name with a NUL byte: expected a name without one"


def test_too_many_processors_from_arrays_are_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(ValueError, match="platform: compute has 1000001 values: expected at most 1000000 processors"):
        hetlb.platform(compute=[1e-3] * 1_000_001, comm=[1e-3] * 1_000_001)
    assert time.perf_counter() - start < 2
