"""hetlb.mpi.Balancer under mpirun -np 4 (balancer_program.py): records moved by the diffusion runtime
and conserved by id in both modes, with given speeds, stop(), a progress thread; the GIL released
while a call waits; every refusal the same ValueError on every rank, with the C library's message."""
import pytest

from conftest import mpi_checks_of

pytest.importorskip("mpi4py")


@pytest.fixture(scope="module")
def lines():
    return mpi_checks_of("balancer_program.py", timeout=240)


@pytest.mark.parametrize("check", ["async", "bsp", "speeds", "platform-speeds", "stop-gil", "thread", "stale-view", "views-no-leak"])
def test_runs_conserve_every_record(lines, check):
    assert lines[check] == {r: "ok True" for r in range(4)}


@pytest.mark.parametrize("check,message", [
    ("bad-strategy", 'strategy "fastest": unknown; expected none, simple, makhoul, besteffort, first_order or plugin:PATH'),
    ("bad-k", "k = 0.5: expected k >= 1"),
    ("bad-speeds", "speeds: 2 values for 4 ranks; expected one speed per rank"),
    ("bad-topology", "line-of-sight"),
    ("bad-mode", 'mode "sometimes": unknown; expected async or bulk_synchronous'),
    ("k-not-a-number", "k = 'two': expected a number"),
    ("bad-balance", 'balance "speed": unknown; expected load or time'),
    ("duplicate-ids", "item id 5 added on ranks 0 and 1"),
    ("short-ids", "rank 2: ids: shape (9,) for 10 records: expected one id per record"),
    ("dtype-differs", "on rank 3"),
    ("object-dtype", "rank 1: items: dtype object holds Python objects"),
    ("no-items", "items: None on every rank"),
    ("options-differ", "option strategy differs between ranks"),
])
def test_same_error_on_every_rank(lines, check, message):
    outcomes = lines[check]
    assert len(outcomes) == 4 and len(set(outcomes.values())) == 1, outcomes
    assert outcomes[0].startswith("ValueError ") and message in outcomes[0], outcomes[0]



def test_the_defaults_are_the_runtime_s(lines):
    """A program on unlike ranks gets speed-proportional shares without asking: the C++ runtime's defaults
    (checked inside the MPI program: importing hetlb.mpi here would start MPI in the test process)."""
    assert lines["defaults"] == {r: "ok True" for r in range(4)}
