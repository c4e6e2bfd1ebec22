"""plan_scatter and plan_ring against `hetlb scatter|ring --format json`, and their refusals."""
import gc
import json
import tracemalloc

import numpy as np
import pytest

import hetlb
from conftest import cli_error, cli_json, example

GRID = example("grid1999.json")
RINGS = ["ring-homogeneous.json", "ring-heterogeneous.json", "ring-forwarding.json"]


def without_time(d):
    d = dict(d)
    d.pop("solve_seconds", None)
    return d


def test_version():
    assert hetlb.__version__.count(".") == 2
    assert hetlb._hetlb.__version__ == hetlb.__version__


@pytest.mark.parametrize("algorithm", ["uniform", "exact", "lp", "closed-form"])
@pytest.mark.parametrize("order", ["bandwidth", "reverse-bandwidth", "given"])
def test_scatter_equals_cli(algorithm, order):
    plan = hetlb.plan_scatter(GRID, algorithm=algorithm, order=order)
    assert without_time(plan.to_dict()) == without_time(
        cli_json("scatter", GRID, "--algorithm", algorithm, "--order", order, "--format", "json"))


@pytest.mark.parametrize("args,kwargs", [
    (["--items", "1000", "--root", "auto"], dict(items=1000, root="auto")),
    (["--items", "5000", "--order", "best"], dict(items=5000, order="best")),
    (["--items", "300", "--algorithm", "dp"], dict(items=300, algorithm="dp")),
    (["--root", "caseb", "--items", "777"], dict(root="caseb", items=777)),
])
def test_scatter_options_equal_cli(args, kwargs):
    plan = hetlb.plan_scatter(GRID, **kwargs)
    assert without_time(plan.to_dict()) == without_time(cli_json("scatter", GRID, *args, "--format", "json"))


def test_plan_fields():
    plan = hetlb.plan_scatter(GRID)
    d = plan.to_dict()
    pf = hetlb.platform(GRID)
    assert isinstance(plan.counts, np.ndarray) and plan.counts.dtype == np.int64
    assert plan.counts.sum() == d["items"] == 817101
    # counts in rank (platform) order, displacements their prefix sums
    by_name = {s["name"]: s["items"] for s in d["shares"]}
    assert plan.counts.tolist() == [by_name[n] for n in pf.names]
    assert plan.displacements.tolist() == np.concatenate([[0], np.cumsum(plan.counts)[:-1]]).tolist()
    assert plan.order == d["order"] and [pf.names[i] for i in plan.send_order] == plan.order
    assert plan.makespan == d["makespan"] and plan.lower_bound == d["lower_bound"] and plan.optimal
    assert plan.root == "dinadan" and pf.names[plan.root_rank] == "dinadan"
    assert plan.shares == d["shares"]


def test_platform_from_dict_and_arrays():
    with open(GRID) as f:
        doc = json.load(f)
    a = hetlb.plan_scatter(doc).to_dict()
    b = hetlb.plan_scatter(GRID).to_dict()
    assert without_time(a) == without_time(b)
    pf = hetlb.platform(compute=[1e-3, 2e-3, 1e-3], comm=[0, 1e-4, 2e-4], names=["a", "b", "c"], items=1000)
    plan = hetlb.plan_scatter(pf)
    assert plan.counts.sum() == 1000 and plan.order[-1] == "a"
    doc = {"items": 1000, "root": "a", "processors": [
        {"name": "a", "compute": {"per_item": 1e-3}, "comm": {"per_item": 0}},
        {"name": "b", "compute": {"per_item": 2e-3}, "comm": {"per_item": 1e-4}},
        {"name": "c", "compute": {"per_item": 1e-3}, "comm": {"per_item": 2e-4}}]}
    assert plan.counts.tolist() == hetlb.plan_scatter(doc).counts.tolist()


def test_bad_input_has_the_cli_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"processors": [{"name": "a", "compute": {"per_item": -1}, "comm": {"per_item": 0}}]}')
    noitems = tmp_path / "noitems.json"
    noitems.write_text('{"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]}')
    cases = [
        (lambda: hetlb.plan_scatter(str(bad)), ["scatter", bad]),
        (lambda: hetlb.plan_scatter(str(noitems)), ["scatter", noitems]),
        (lambda: hetlb.plan_scatter(str(tmp_path / "missing.json")), ["scatter", tmp_path / "missing.json"]),
        (lambda: hetlb.plan_scatter(GRID, root="nobody"), ["scatter", GRID, "--root", "nobody"]),
        (lambda: hetlb.plan_scatter(GRID, order="caseb,caseb"), ["scatter", GRID, "--order", "caseb,caseb"]),
        (lambda: hetlb.plan_scatter(GRID, order="sideways"), ["scatter", GRID, "--order", "sideways"]),
        (lambda: hetlb.plan_scatter(GRID, order="caseb,sekhmet", root="auto"),
         ["scatter", GRID, "--order", "caseb,sekhmet", "--root", "auto"]),
    ]
    for call, args in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == cli_error(*args)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="algorithm 'fast': expected uniform"):
        hetlb.plan_scatter(GRID, algorithm="fast")
    with pytest.raises(ValueError, match="expected a whole number"):
        hetlb.plan_scatter(GRID, items=1.5)
    with pytest.raises(ValueError, match=r"items = -3: expected a whole number from 0 to 4611686018427387904"):
        hetlb.plan_scatter(GRID, items=-3)
    with pytest.raises(ValueError, match="one per processor"):
        hetlb.platform(compute=[1, 2], comm=[0])


@pytest.mark.parametrize("name", RINGS)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_ring_equals_cli(name, bidirectional):
    path = example(name)
    flags = ["--bidirectional"] if bidirectional else []
    plan = hetlb.plan_ring(path, bidirectional=bidirectional, verify=True)
    assert plan.to_dict() == cli_json("ring", path, *flags, "--verify", "--format", "json")
    assert plan.verify() is None
    assert plan.time == plan.to_dict()["time"] and len(plan.transfers) == len(plan.to_dict()["transfers"])


def test_ring_verify_finds_a_broken_schedule(tmp_path):
    path = example("ring-heterogeneous.json")
    plan = hetlb.plan_ring(path)
    broken = plan.to_dict()
    broken["transfers"][0]["items"] += 1
    message = plan.verify(broken)
    assert message is not None and message.startswith("schedule: invalid schedule: ")
    f = tmp_path / "schedule.json"
    f.write_text(json.dumps(broken))
    code_message = cli_error("ring", path, "--schedule", f)
    assert code_message.split(": invalid schedule: ")[1] == message.split(": invalid schedule: ")[1]


def test_ring_bad_input_has_the_cli_message(tmp_path):
    bad = tmp_path / "ring.json"
    bad.write_text('{"loads": [1, 2], "targets": [2, 2], "succ_cost": 1}')
    with pytest.raises(ValueError) as e:
        hetlb.plan_ring(str(bad))
    assert str(e.value) == cli_error("ring", bad)


def test_no_leak_over_10000_plans():
    pf = hetlb.platform(GRID)

    def many(n):
        for _ in range(n):
            plan = hetlb.plan_scatter(pf, items=10000)
            plan.counts, plan.displacements, plan.order, plan.to_dict()
            try:
                hetlb.plan_scatter(pf, root="nobody")
            except ValueError:
                pass

    many(200)  # warm-up: caches, interned strings
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    many(10000)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    growth = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert growth < 200_000, growth


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_no_native_leak_over_10000_plans():
    pf = hetlb.platform(GRID)
    for _ in range(500):
        hetlb.plan_scatter(pf, items=10000).to_json()
    before = resident_bytes()
    for _ in range(10000):
        hetlb.plan_scatter(pf, items=10000).to_json()
    assert resident_bytes() - before < 4 * 1024 * 1024


def without_plan_time(d):
    d = dict(d)
    d["plan"] = without_time(d["plan"])
    return d


def test_perturbation_equals_cli(tmp_path):
    plan = hetlb.plan_scatter(GRID, items=20000)
    got = plan.perturb(percent=10, samples=20, seed=7)
    expected = cli_json("scatter", GRID, "--items", 20000, "--perturb", 10, "--samples", 20, "--seed", 7,
                        "--format", "json")
    assert without_plan_time(got) == without_plan_time(expected)
    factors = {"sekhmet": 2, "caseb": {"comm": 1.5}}
    f = tmp_path / "factors.json"
    f.write_text(json.dumps(factors))
    expected = cli_json("scatter", GRID, "--items", 20000, "--factors", f, "--format", "json")
    assert without_plan_time(plan.perturb(factors=factors)) == without_plan_time(expected)
    assert without_plan_time(plan.perturb(factors=str(f))) == without_plan_time(expected)


def test_perturbation_refusals_have_the_cli_message(tmp_path):
    plan = hetlb.plan_scatter(GRID)
    f = tmp_path / "factors.json"
    f.write_text('{"nobody": 2}')
    for kwargs, args in [(dict(percent=150), ["--perturb", 150]),
                         (dict(percent=5, samples=0), ["--perturb", 5, "--samples", 0]),
                         (dict(factors=str(f)), ["--factors", f]),
                         (dict(factors=str(tmp_path / "none.json")), ["--factors", tmp_path / "none.json"])]:
        with pytest.raises(ValueError) as e:
            plan.perturb(**kwargs)
        assert str(e.value) == cli_error("scatter", GRID, *args)
    with pytest.raises(ValueError, match=r"^factors: unknown processor .nobody."):
        plan.perturb(factors={"nobody": 2})
