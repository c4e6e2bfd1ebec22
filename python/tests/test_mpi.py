"""hetlb.mpi under mpirun -np 4: records round trip through a persistent plan, and every argument
error is the same ValueError on every rank (no hang)."""
import pytest

from conftest import mpi_checks_of

pytest.importorskip("mpi4py")


@pytest.fixture(scope="module")
def lines():
    return mpi_checks_of("mpi_program.py", timeout=120)


def test_roundtrip(lines):
    assert lines["roundtrip"] == {r: "ok True" for r in range(4)}


def test_the_mpi_plan_is_the_local_plan(lines):
    assert lines["same-counts"] == {r: "ok True" for r in range(4)}


def test_any_buffer_protocol_object(lines):
    assert lines["buffer-protocol"] == {r: "ok True" for r in range(4)}


def test_a_persistent_plan_goes_straight_to_the_c_library_and_still_agrees_on_errors(lines):
    error = "rank 2: recvbuf: 3 items: expected 149, this rank's share"
    assert lines["fast-path"] == {r: f"ok [True, True, {error!r}, True, True, True, True]" for r in range(4)}


def test_a_persistent_plan_gathers_straight_through_the_c_library_and_still_agrees_on_errors(lines):
    short = "rank 1: sendbuf: 409 items: expected 410, this rank's share"
    small = "rank 0: recvbuf: 999 items at the root: expected 1000, the plan's items"
    sizes = "rank 0: recvbuf: items of 8 bytes at the root: expected 4, the send buffer's"
    assert lines["gather-direct"] == {r: f"ok [True, {short!r}, True, {small!r}, {sizes!r}]" for r in range(4)}


def test_calibrate_gives_a_platform_on_every_rank(lines):
    assert lines["calibrate"] == {r: "ok 1000" for r in range(4)}


@pytest.mark.parametrize("check", ["calibrate-flat", "calibrate-flat-table"])
def test_calibrate_warns_of_a_kernel_too_fast_for_its_sizes(lines, check):
    warning = lines[check][0]
    assert warning.startswith("ok calibrate: rank(s) [0, 1, 2, 3]: the time of fn does not grow from 1 to 100"), warning
    assert all(lines[check][r] == "ok none" for r in (1, 2, 3)), lines[check]


@pytest.mark.parametrize("check,message", [
    ("short-sendbuf", "rank 0: sendbuf: 999 items at the root: expected 1000, the plan's items"),
    ("bad-recvbuf", "rank 2: recvbuf: 1 items: expected 149, this rank's share"),
    ("bad-dtype", "item sizes differ between ranks (4 to 8 bytes)"),
    ("gather-short", "rank 1: sendbuf: 409 items: expected 410, this rank's share"),
    ("readonly-recvbuf", "rank 3: recvbuf: read-only: expected a writable buffer"),
    ("readonly-gather", "rank 0: recvbuf: read-only: expected a writable buffer"),
    ("wrong-size", "processors"),
    ("calibrate-fails", "rank 2: fn raised ZeroDivisionError: division by zero"),
    ("calibrate-sizes", "sizes = [10, 0]: expected item counts > 0"),
])
def test_same_error_on_every_rank(lines, check, message):
    outcomes = lines[check]
    assert len(outcomes) == 4 and len(set(outcomes.values())) == 1, outcomes
    assert outcomes[0].startswith("ValueError ") and message in outcomes[0]


@pytest.mark.parametrize("layout", ["contiguous", "any"])
def test_weighted_plans_scatter_and_gather_every_item_at_its_place(lines, layout):
    assert lines[f"weighted-{layout}"] == {r: "ok [True, True, True]" for r in range(4)}


def test_arrays_of_python_objects_are_refused_on_every_rank(lines):
    objects = "holds Python objects: expected items of plain bytes (numbers, fixed-size strings, structured " \
              "dtypes of them)"
    expected = [f"rank 0: sendbuf: dtype object {objects}", f"rank 0: sendbuf: dtype object {objects}",
                f"rank 1: recvbuf: dtype object {objects}", f"rank 2: sendbuf: dtype object {objects}",
                f"rank 0: sendbuf: dtype object {objects}",
                "rank 0: sendbuf: list: expected a numpy array or a buffer-protocol object", True]
    assert lines["object-dtype"] == {r: f"ok {expected!r}" for r in range(4)}
