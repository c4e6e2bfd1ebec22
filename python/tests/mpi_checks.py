"""The harness of the programs the MPI tests run under mpirun (balancer_program.py, mpi_program.py):
each check's outcome on each rank, "<check> <rank> ok <result>" or "<check> <rank> ValueError <message>",
printed by rank 0 alone at the end (mpirun may cut lines printed by several ranks at once)."""
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
_lines = []


def outcome(check, call):
    try:
        result = call()
        _lines.append(f"{check} {rank} ok {result}")
    except ValueError as e:
        _lines.append(f"{check} {rank} ValueError {e}")


def report():
    everything = comm.gather(_lines, root=0)
    if rank == 0:
        print("\n".join(line for mine in everything for line in mine), flush=True)
