"""hetlb.mpi under mpirun -np 4 (agreement_program.py): an error raised on one rank only (an argument,
a MemoryError, a KeyboardInterrupt in calibrate's function, a plan freed on one rank, different plans
or calibrate arguments) reaches every rank instead of hanging the others; dtypes are kept and compared;
the Balancer's balancer option. The run has a timeout: a regression fails instead of hanging."""
import pytest

from conftest import mpi_checks_of

pytest.importorskip("mpi4py")


@pytest.fixture(scope="module")
def lines():
    return mpi_checks_of("agreement_program.py", timeout=150)


@pytest.mark.parametrize("check,message", [
    ("plans-differ", "plan: rank(s) [1] passed another plan than rank 0's"),
    ("gather-reinterpreted", "rank 0: recvbuf: dtype int64 and item shape () at the root: expected float64"),
    ("gather-dtypes-differ", "sendbuf: items of dtype int64 and shape () on rank 2, sendbuf of dtype float64"),
    ("list-at-root", "rank 0: sendbuf: list: expected a numpy array or a buffer-protocol object"),
    ("memory-error", "rank 2: MemoryError: no memory for the block"),
    ("freed-on-one-rank", "rank 1: the plan was freed: create another"),
    ("intercommunicator", "comm: an intercommunicator: expected an intracommunicator"),
    ("calibrate-repeats", "calibrate: repeats = 2 on rank 3, 1 on rank 0: expected the same repeats on every rank"),
    ("calibrate-root", "calibrate: root = 1 on rank 1, 0 on rank 0"),
    ("calibrate-itemsize", "calibrate: itemsize = 16 on rank 1, 8 on rank 0"),
    ("balancer-ids-on-some-ranks", "ids: given on rank(s) [0, 1, 3], not on rank(s) [2]"),
    ("balancer-unknown", 'balancer "fastest": unknown; expected diffusion, global or hybrid'),
    ("balancer-async-global", "balancer global without bulk_synchronous"),
    ("balancer-speeds-device", "/dev/zero: is not a regular file"),
    ("scatter-by-id-objects", "scatter_by_id: rank 1: out: dtype object holds Python objects"),
    ("balancer-freed-on-one-rank", "rank 1: metrics(): the balancer was freed: create another"),
])
def test_same_error_on_every_rank(lines, check, message):
    outcomes = lines[check]
    assert len(outcomes) == 4 and len(set(outcomes.values())) == 1, outcomes
    assert outcomes[0].startswith("ValueError ") and message in outcomes[0], outcomes[0]


def test_a_keyboard_interrupt_in_calibrate_stops_its_rank_and_reaches_the_others(lines):
    assert lines["calibrate-interrupt"][2].startswith("KeyboardInterrupt")
    assert {lines["calibrate-interrupt"][r] for r in (0, 1, 3)} == {"ValueError rank 2: fn raised KeyboardInterrupt"}


def test_structured_dtypes_come_back_as_they_went(lines):
    assert lines["structured"] == {r: "ok True" for r in range(4)}


def test_a_persistent_plan_refuses_another_dtype_of_the_same_size(lines):
    assert lines["direct-dtype"] == {r: "ok ['recvbuf', 'sendbuf']" for r in range(4)}


def test_the_global_balancer_takes_global_steps(lines):
    assert lines["global-steps"] == {r: "ok ['global', True, True]" for r in range(4)}
