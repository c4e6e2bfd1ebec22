"""simulate_diffusion / simulate_scatter against `hetlb simulate ... --format json`; the GIL is
released during a simulation."""
import threading
import time

import numpy as np
import pytest

import hetlb
from conftest import cli_error, cli_json, example

WALL = ("wall_seconds", "events_per_wall_second")


def without_wall(d):
    return {k: v for k, v in d.items() if k not in WALL}


@pytest.mark.parametrize("options,args", [
    (dict(nodes=4, topology="ring", iterations=10), ["--nodes", 4, "--topology", "ring", "--iterations", 10]),
    (dict(nodes=8, topology="hypercube", strategy="simple", integer=True, initial="random", seed=3, ratio=0.1,
          iterations=20),
     ["--nodes", 8, "--topology", "hypercube", "--strategy", "simple", "--integer", "--initial", "random",
      "--seed", 3, "--ratio", 0.1, "--iterations", 20]),
    (dict(nodes=6, topology="line", k=2, virtual_load=True, lb_phase="staggered", iterations=15),
     ["--nodes", 6, "--topology", "line", "--k", 2, "--virtual-load", "--lb-phase", "staggered",
      "--iterations", 15]),
    (dict(nodes=4, topology="ring", balance="time", speeds=[1, 2, 1, 0.5], iterations=10),
     ["--nodes", 4, "--topology", "ring", "--balance", "time", "--speeds", "1,2,1,0.5", "--iterations", 10]),
    (dict(nodes=4, topology="ring", strategy="simple", params={"residue_equal": True}, balance="time",
          slowdowns=[(1, 4.0, 0.5, 2.5), "2:2:1:3"], iterations=10),
     ["--nodes", 4, "--topology", "ring", "--strategy", "simple", "--param", "residue_equal=true", "--balance",
      "time", "--slowdown", "1:4:0.5:2.5", "--slowdown", "2:2:1:3", "--iterations", 10]),
])
def test_diffusion_equals_cli(options, args):
    r = hetlb.simulate_diffusion(**options)
    expected = cli_json("simulate", "diffusion", *args, "--format", "json")
    got = {k: v for k, v in r.items() if k not in ("initial_loads", "final_loads")}
    assert np.allclose(r["final_loads"], expected.pop("final_loads"), rtol=1e-12)
    assert without_wall(got) == without_wall(expected)
    assert isinstance(r["final_loads"], np.ndarray)
    assert r["final_loads"].sum() == pytest.approx(r["initial_loads"].sum())


def test_diffusion_trace_equals_the_cli_trace(tmp_path):
    loads = example("diffusion-skewed.loads")
    r = hetlb.simulate_diffusion(initial=loads, topology="ring", iterations=10, trace=True)
    csv = tmp_path / "trace.csv"
    cli_json("simulate", "diffusion", "--initial", loads, "--topology", "ring", "--iterations", 10, "--trace", csv,
             "--format", "json")
    table = np.loadtxt(csv, delimiter=",", skiprows=1, ndmin=2)
    assert r["trace_loads"].shape == (len(r["trace_dates"]), r["nodes"])
    assert np.allclose(r["trace_dates"], table[:, 0], rtol=1e-8)
    assert np.allclose(r["trace_loads"], table[:, 1:1 + r["nodes"]], rtol=1e-8)  # then the time imbalance


@pytest.mark.parametrize("options,args", [
    (dict(strategy="fastest"), ["--strategy", "fastest"]),
    (dict(topology="/nonexistent.edges"), ["--topology", "/nonexistent.edges"]),
    (dict(k=0.5), ["--k", 0.5]),
    (dict(platform="/nonexistent.xml"), ["--platform", "/nonexistent.xml"]),
    (dict(balance="speed"), ["--balance", "speed"]),
    (dict(nodes=4, speeds=[1, 2]), ["--nodes", 4, "--speeds", "1,2"]),
    (dict(nodes=4, speeds=[1, 0, 1, 1]), ["--nodes", 4, "--speeds", "1,0,1,1"]),
    (dict(nodes=4, slowdowns=["9:2:0:1"]), ["--nodes", 4, "--slowdown", "9:2:0:1"]),
    (dict(params={"alpha": 0.5}), ["--param", "alpha=0.5"]),
    (dict(params={"k": 0.5}), ["--param", "k=0.5"]),
])
def test_diffusion_bad_options_have_the_cli_message(options, args):
    with pytest.raises(ValueError) as e:
        hetlb.simulate_diffusion(**options)
    assert str(e.value) == cli_error("simulate", "diffusion", *args)


def test_diffusion_refuses_unknown_options():
    with pytest.raises(TypeError, match="no option 'node'; expected one of platform, nodes,"):
        hetlb.simulate_diffusion(node=4)
    with pytest.raises(TypeError, match="no option 'strategie'"):
        hetlb.DiffusionOptions().strategie = "simple"


def test_the_options_object_is_the_command_lines():
    """One object, one set of defaults: DiffusionOptions' defaults are the command line's, every option of
    the command line is reachable from Python (here the balancer and the imbalance dates), and an options
    object with names given beside it runs as the command line with both."""
    defaults = hetlb.DiffusionOptions()
    assert repr(defaults) == "hetlb.DiffusionOptions()"
    assert (defaults.platform, defaults.topology, defaults.strategy, defaults.balance, defaults.balancer) == \
        ("cluster", "torus", "besteffort", "time", "diffusion")
    options = hetlb.DiffusionOptions(nodes=4, topology="ring", balancer="hybrid", metrics_at=[0.5, 2])
    options.iterations = 10
    assert repr(options) == ("hetlb.DiffusionOptions(nodes=4, topology='ring', iterations=10, balancer='hybrid', "
                             "metrics_at=[0.5, 2.0])")
    r = hetlb.simulate_diffusion(options, ratio=0.1)
    expected = cli_json("simulate", "diffusion", "--nodes", 4, "--topology", "ring", "--iterations", 10, "--balancer",
                        "hybrid", "--metrics-at", "0.5,2", "--ratio", 0.1, "--format", "json")
    assert "load_imbalance_at_0.5" in expected
    got = {k: v for k, v in r.items() if k not in ("initial_loads", "final_loads")}
    expected.pop("final_loads")
    assert without_wall(got) == without_wall(expected)
    assert options.ratio == 1  # the names given beside the object do not change it


def test_scatter_replay_equals_cli():
    r = hetlb.simulate_scatter(example("grid1999.json"), items=2000, algorithm="lp")
    expected = cli_json("simulate", "scatter", example("grid1999.json"), "--items", 2000, "--algorithm", "lp",
                        "--format", "json")
    assert without_wall(r) == without_wall(expected)


def test_scatter_replay_of_an_unknown_root_has_the_cli_message():
    with pytest.raises(ValueError) as e:
        hetlb.simulate_scatter(example("grid1999.json"), root="nobody")
    assert str(e.value) == cli_error("simulate", "scatter", example("grid1999.json"), "--root", "nobody")


def test_scatter_replay_of_a_missing_file_has_the_cli_message():
    with pytest.raises(ValueError) as e:
        hetlb.simulate_scatter("/nonexistent.json")
    assert str(e.value) == cli_error("simulate", "scatter", "/nonexistent.json")


def test_the_gil_is_released_during_a_simulation():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    start = time.monotonic()
    r = hetlb.simulate_diffusion(nodes=4096, topology="torus", iterations=50)
    end = time.monotonic()
    stop.set()
    t.join()
    assert r["nodes"] == 4096
    during = [x for x in ticks if start < x < end]
    assert end - start > 0.2, "the simulation was too short to tell"
    # the other thread kept ticking through the simulation (it would stop dead if the GIL were held)
    assert len(during) > 20 and max(np.diff([start, *during, end])) < 0.5 * (end - start)


def test_ctrl_c_stops_a_long_simulation():
    import os
    import signal
    import subprocess
    import sys

    program = ("import sys, hetlb\nprint('started', flush=True)\n"
               "try:\n    hetlb.simulate_diffusion(nodes=4096, iterations=100000)\n"
               "except KeyboardInterrupt:\n    print('interrupted', flush=True)\n")
    p = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, text=True, env=os.environ)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    start = time.monotonic()
    out, _ = p.communicate(timeout=60)
    assert "interrupted" in out and time.monotonic() - start < 5
