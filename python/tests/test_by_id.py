"""hetlb.mpi.Balancer's gather and scatter by id and item costs under mpirun -np 4 (by_id_program.py):
every record once at the root in id order after records moved, each rank's rows scattered back to it,
costs carried and balanced; misuse the same ValueError on every rank."""
import pytest

from conftest import mpi_checks_of

pytest.importorskip("mpi4py")


@pytest.fixture(scope="module")
def lines():
    return mpi_checks_of("by_id_program.py", timeout=240)


@pytest.mark.parametrize("check", ["frames", "async-end", "costs"])
def test_every_record_once_in_id_order(lines, check):
    assert lines[check] == {r: "ok True" for r in range(4)}


@pytest.mark.parametrize("check,message", [
    ("short-values", "gather_by_id: rank 2: values: 1 rows for 0 records"),
    ("roots-differ", "gather_by_id: root 0 on rank 0, 1 on rank 1: expected the same root on every rank"),
    ("bad-root", "gather_by_id: rank 0: root 4: expected a rank from 0 to 3"),
    ("frame-rows", "scatter_by_id: rank 0: frame: 3 rows"),
    ("bad-costs", "rank 3: costs[2] = 0.0: expected a finite cost > 0"),
])
def test_same_error_on_every_rank(lines, check, message):
    outcomes = lines[check]
    assert len(outcomes) == 4 and len(set(outcomes.values())) == 1, outcomes
    assert outcomes[0].startswith("ValueError ") and message in outcomes[0], outcomes[0]


def test_set_cost_of_a_record_not_held_is_refused_locally(lines):
    assert all(o.startswith("ValueError ") for o in lines["set-cost-not-held"].values())
