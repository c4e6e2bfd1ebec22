"""The examples run as written: the heterogeneous Scatterv and the balanced walkers under mpirun -np 4,
the notebook script."""
import os
import subprocess

import pytest

from conftest import PYTHON_EXAMPLES, mpirun, python


def env():
    e = dict(os.environ)
    e.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    return e


def test_heterogeneous_scatterv_example():
    pytest.importorskip("mpi4py")
    p = subprocess.run([*mpirun(), "-np", "4", python(), os.path.join(PYTHON_EXAMPLES, "heterogeneous_scatterv.py")],
                       capture_output=True, text=True, timeout=120, env=env())
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("counts [") and "divmod: [25, 25, 25, 25]" in p.stdout


def test_balanced_walkers_example():
    pytest.importorskip("mpi4py")
    p = subprocess.run([*mpirun(), "-np", "4", python(), os.path.join(PYTHON_EXAMPLES, "balanced_walkers.py"), "2000"],
                       capture_output=True, text=True, timeout=180, env=env())
    assert p.returncode == 0, p.stderr
    assert "converged True" in p.stdout and "every walker once: True, intact: True" in p.stdout, p.stdout


def test_notebook_example(tmp_path):
    figure = tmp_path / "strategies.png"
    p = subprocess.run([python(), os.path.join(PYTHON_EXAMPLES, "compare_strategies.py"), str(figure)],
                       capture_output=True, text=True, timeout=300, env=env())
    assert p.returncode == 0, p.stderr
    assert "besteffort+virtual" in p.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in p.stdout
        pytest.skip("matplotlib is not installed: the figure is not drawn")
    assert figure.stat().st_size > 1000


def test_notebook_example_without_matplotlib(tmp_path):
    """The script's table, and a clean exit without a figure, where matplotlib cannot be imported (a
    package of that name that refuses to load stands first on the path)."""
    shadow = tmp_path / "shadow" / "matplotlib"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    e = env()
    e["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "shadow"), e.get("PYTHONPATH", "")])
    figure = tmp_path / "strategies.png"
    p = subprocess.run([python(), os.path.join(PYTHON_EXAMPLES, "compare_strategies.py"), str(figure)],
                       capture_output=True, text=True, timeout=300, env=e)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "besteffort+virtual" in p.stdout and "matplotlib is not installed: no figure" in p.stdout
    assert not figure.exists()
