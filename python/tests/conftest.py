"""Shared helpers: the command line (HETLB_CLI) is the reference for every result and message."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

SOURCE_DIR = os.environ.get("HETLB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(SOURCE_DIR, "examples")
PYTHON_EXAMPLES = os.path.join(SOURCE_DIR, "python", "examples")


def example(name):
    return os.path.join(EXAMPLES, name)


def cli_path():
    path = os.environ.get("HETLB_CLI") or shutil.which("hetlb")
    if not path:
        pytest.skip("the hetlb command line is needed as the reference (HETLB_CLI)")
    return path


def run_cli(*args):
    """(exit code, parsed JSON stdout or None, stderr)."""
    p = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True, timeout=300)
    out = None
    if p.returncode == 0 and p.stdout.strip().startswith("{"):
        out = json.loads(p.stdout)
    return p.returncode, out, p.stderr


def cli_json(*args):
    """The CLI's JSON without its `build` object (the build's identity: the binding's dictionaries do
    not carry it), whose id is checked for its form."""
    code, out, err = run_cli(*args)
    assert code == 0, err
    if isinstance(out, dict) and "build" in out:
        assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?|unknown", out.pop("build")["id"])
    return out


def cli_error(*args):
    """The CLI's one-line message without its "hetlb: error: " prefix."""
    code, _, err = run_cli(*args)
    assert code != 0
    lines = [l for l in err.splitlines() if l.startswith("hetlb: error: ")]
    assert len(lines) == 1, err
    message = lines[0][len("hetlb: error: "):]
    return message[: -len(" (see hetlb --help)")] if message.endswith(" (see hetlb --help)") else message


def mpirun():
    exe = os.environ.get("HETLB_MPIEXEC") or shutil.which("mpirun")
    if not exe:
        pytest.skip("mpirun not found")
    return [exe, "--allow-run-as-root", "--oversubscribe"]


def python():
    return sys.executable


def mpi_checks_of(program, timeout):
    """{check: {rank: outcome}} of a program of this folder run under mpirun -np 4 (mpi_checks.py)."""
    p = subprocess.run([*mpirun(), "-np", "4", python(), os.path.join(os.path.dirname(__file__), program)],
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr
    out = {}
    for line in p.stdout.splitlines():
        check, rank, rest = line.split(" ", 2)
        out.setdefault(check, {})[int(rank)] = rest
    return out
