"""What every rank of a hetlb.mpi call agrees on before any data moves: one small Allreduce carrying
whether a rank failed, which call each rank is in, and values every rank must share (item sizes, dtypes,
plans, options). A failure on one rank (an argument error, a MemoryError, a KeyboardInterrupt in the
program's function) is then raised on every rank instead of leaving the others waiting in a collective."""
from __future__ import annotations

import hashlib
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

# The calls, as the first agreed value: ranks in different calls learn it instead of mismatching them.
CALLS = {1: "hetlb.mpi.Plan", 2: "hetlb.mpi.scatterv", 3: "hetlb.mpi.gatherv", 4: "hetlb.mpi.calibrate",
         5: "hetlb.mpi.calibrate (measured)", 6: "hetlb.mpi.scatterv (allocation)", 7: "hetlb.mpi.Balancer"}
_VALUES = 3  # values agreed besides the call
_UNKNOWN = -(1 << 62)


class Failure:
    """A rank's failure: its one-line message, and the exception to raise again on that rank when it is
    not an Exception (KeyboardInterrupt, SystemExit: they end the program there as they would alone)."""

    def __init__(self, message: str, original: Optional[BaseException] = None):
        self.message = message
        self.original = original


def describe(e: BaseException) -> str:
    if isinstance(e, ValueError):
        return str(e)
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def attempt(step: Callable[[], Any], prefix: str = "") -> Optional[Failure]:
    """Runs this rank's part; any failure becomes a Failure for the agreement (never raised here)."""
    try:
        step()
    except Exception as e:  # noqa: BLE001 (every failure is agreed, whatever its type)
        return Failure(prefix + describe(e))
    except BaseException as e:  # noqa: BLE001 (KeyboardInterrupt, SystemExit: agreed, raised again here)
        return Failure(prefix + describe(e), e)
    return None


def fingerprint(*parts: Any) -> int:
    """A 62-bit digest of the parts' text, the same in every process (unlike hash())."""
    h = hashlib.blake2b(digest_size=8)
    for p in parts:
        h.update(p if isinstance(p, (bytes, bytearray, memoryview)) else repr(p).encode())
        h.update(b"\x1f")
    return int.from_bytes(h.digest(), "little") >> 2


def agree(comm: Any, call: int, failure: Optional[Failure],
          values: Sequence[Optional[int]] = ()) -> List[Optional[Tuple[int, int]]]:
    """Collective over ``comm``: raises the first failing rank's error on every rank (ValueError
    "rank R: ..."; on rank R itself its KeyboardInterrupt or SystemExit as it was), or ValueError on every
    rank when the ranks are in different calls. Returns, per value, (smallest, largest) over the ranks
    that gave one (None: no rank did)."""
    from mpi4py import MPI

    vals = list(values) + [None] * (_VALUES - len(values))
    v = np.zeros(2 + 2 * (_VALUES + 1), dtype=np.int64)
    v[0] = failure is not None
    v[1] = 0
    v[2], v[3] = call, -call
    for i, x in enumerate(vals):
        v[4 + 2 * i], v[5 + 2 * i] = (_UNKNOWN, _UNKNOWN) if x is None else (int(x), -int(x))
    comm.Allreduce(MPI.IN_PLACE, v, op=MPI.MAX)
    if v[2] != -v[3]:
        calls = comm.allgather(call)
        where = ", ".join(f"{CALLS.get(c, c)} on rank {r}" for r, c in enumerate(calls) if c != calls[0] or r == 0)
        raise ValueError(f"the ranks are in different calls ({where}): expected the same call on every rank")
    if v[0]:
        messages = comm.allgather(None if failure is None else failure.message)
        first = next(r for r, m in enumerate(messages) if m is not None)
        if first == comm.Get_rank() and failure.original is not None:
            raise failure.original
        raise ValueError(f"rank {first}: {messages[first]}")
    out: List[Optional[Tuple[int, int]]] = []
    for i in range(_VALUES):
        largest, smallest = int(v[4 + 2 * i]), -int(v[5 + 2 * i])
        out.append(None if largest == _UNKNOWN else (smallest, largest))
    return out


def check_comm(comm: Any) -> None:
    """An mpi4py intracommunicator (local: every rank holds the same kind of communicator)."""
    from mpi4py import MPI

    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"comm: {type(comm).__name__}: expected an mpi4py intracommunicator (MPI.COMM_WORLD, ...)")
    if comm == MPI.COMM_NULL:
        raise ValueError("comm: MPI.COMM_NULL: expected an mpi4py intracommunicator (MPI.COMM_WORLD, ...)")
    if comm.Is_inter():
        raise ValueError("comm: an intercommunicator: expected an intracommunicator (MPI.COMM_WORLD, a Split or "
                         "Dup of it)")
