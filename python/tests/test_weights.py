"""plan_scatter(weights=..., layout=...): items of unequal cost (docs/weighted-items.md), against
`hetlb scatter --weights FILE --layout L --format json`, and its refusals."""

import numpy as np
import pytest

import hetlb
from conftest import cli_json, example

# Four processors, the root (p0) last in the send order; p3 is twice as slow as the others.
PLATFORM = dict(compute=[1e-3, 1e-3, 1e-3, 2e-3], comm=[0, 1e-5, 2e-5, 3e-5], root=0)


def heavy_middle(n=600):
    w = np.ones(n)
    w[n // 3: 2 * n // 3] = 20.0
    return w


def without(d, *keys):
    d = dict(d)
    for k in ("solve_seconds",) + keys:
        d.pop(k, None)
    return d


def test_unit_weights_give_the_plan_of_counts():
    pf = hetlb.platform(**PLATFORM)
    for layout in ("contiguous", "any"):
        counted = hetlb.plan_scatter(pf, items=1000)
        unit = hetlb.plan_scatter(pf, weights=np.ones(1000), layout=layout)
        assert unit.layout == layout and counted.layout is None and counted.weights is None
        assert unit.counts.tolist() == counted.counts.tolist()
        assert unit.makespan == counted.makespan and unit.optimal == counted.optimal
        assert unit.send_order.tolist() == counted.send_order.tolist() and unit.order == counted.order
        assert unit.work.tolist() == counted.counts.astype(float).tolist() == counted.work.tolist()
        shares = [without(s, "work", "first") for s in unit.to_dict()["shares"]]
        assert shares == counted.to_dict()["shares"]
        assert without(unit.to_dict(), "layout", "shares", "assignment", "contiguous_makespan", "method") == \
            without(counted.to_dict(), "shares", "method")
        assert np.array_equal(unit.permutation, np.arange(1000))


def test_a_plan_of_counts_keeps_its_rank_order_blocks():
    plan = hetlb.plan_scatter(example("grid1999.json"), items=5000)
    assert plan.displacements.tolist() == np.concatenate([[0], np.cumsum(plan.counts)[:-1]]).tolist()
    assert np.array_equal(plan.permutation, np.arange(5000)) and plan.layout is None
    assert plan.item_ids(2).tolist() == list(range(plan.displacements[2], plan.displacements[2] + plan.counts[2]))


@pytest.mark.parametrize("layout", ["contiguous", "any"])
def test_weighted_plan_equals_cli(tmp_path, layout):
    pf = hetlb.platform(**PLATFORM)
    platform_file, weights_file = tmp_path / "pf.json", tmp_path / "w.txt"
    platform_file.write_text(pf.to_json())
    w = heavy_middle(300)
    weights_file.write_text("\n".join(repr(float(x)) for x in w) + "\n")
    plan = hetlb.plan_scatter(pf, weights=w, layout=layout)
    assert without(plan.to_dict()) == without(
        cli_json("scatter", platform_file, "--weights", weights_file, "--layout", layout, "--format", "json"))


def test_heavy_middle_weights_beat_equal_counts():
    pf = hetlb.platform(**PLATFORM)
    w = heavy_middle()
    equal = hetlb.plan_scatter(pf, weights=w, algorithm="uniform")  # equal counts, priced with the weights
    plan = hetlb.plan_scatter(pf, weights=w)
    assert plan.makespan < 0.6 * equal.makespan
    assert plan.optimal and plan.layout == "contiguous"
    assert plan.work.sum() == pytest.approx(w.sum()) and plan.counts.sum() == len(w) == plan.items


def block_order_checks(plan, w):
    """Blocks in send order; each rank's items and work as the plan says."""
    ranks = plan.send_order.tolist()
    start = 0
    for r in ranks:  # the blocks follow the send order in the root's buffer
        assert plan.displacements[r] == start
        start += plan.counts[r]
    assert start == plan.items
    perm = plan.permutation
    assert perm.dtype == np.int64 and sorted(perm.tolist()) == list(range(plan.items))
    assert np.array_equal(np.concatenate([plan.item_ids(r) for r in ranks]), perm)
    for r in ranks:
        assert plan.item_ids(r).dtype == np.int64
        assert w[plan.item_ids(r)].sum() == pytest.approx(plan.work[r])


def test_contiguous_ranges_follow_the_send_order():
    pf = hetlb.platform(**PLATFORM)
    w = heavy_middle()
    plan = hetlb.plan_scatter(pf, weights=w)
    block_order_checks(plan, w)
    assert np.array_equal(plan.permutation, np.arange(len(w)))
    firsts = {s["name"]: s["first"] for s in plan.shares}
    assert [firsts[n] for n in pf.names] == plan.displacements.tolist()


def test_any_layout_is_a_permutation_no_worse_than_contiguous():
    pf = hetlb.platform(**PLATFORM)
    rng = np.random.default_rng(7)
    w = rng.pareto(1.5, 200) + 0.1
    contiguous = hetlb.plan_scatter(pf, weights=w)
    anywhere = hetlb.plan_scatter(pf, weights=w, layout="any")
    assert anywhere.layout == "any"
    assert anywhere.makespan < contiguous.makespan  # here the largest-deficit fill wins
    assert not np.array_equal(anywhere.permutation, np.arange(len(w)))
    assert anywhere.to_dict()["contiguous_makespan"] == pytest.approx(contiguous.makespan)
    block_order_checks(anywhere, w)
    # the assignment of the JSON: each item's position in send order, as item_ids say
    assignment = anywhere.to_dict()["assignment"]
    for position, r in enumerate(anywhere.send_order.tolist()):
        assert anywhere.item_ids(r).tolist() == [k for k, p in enumerate(assignment) if p == position]


def test_weights_from_a_list_and_items_that_agree():
    pf = hetlb.platform(**PLATFORM)
    a = hetlb.plan_scatter(pf, 4, weights=[1, 2, 3, 4])
    b = hetlb.plan_scatter(pf, weights=np.array([1, 2, 3, 4], dtype=np.int32))
    assert a.counts.tolist() == b.counts.tolist() and a.items == 4
    assert a.weights.tolist() == [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(weights=[1, 2, -1, 4]), ValueError, "weights: item 2: -1 is not a finite number >= 0"),
    (dict(weights=[1, float("nan")]), ValueError, "weights: item 1: nan is not a finite number >= 0"),
    (dict(weights=np.array([1, np.inf])), ValueError, "weights: item 1: inf is not a finite number >= 0"),
    (dict(weights=[]), ValueError, "weights: expected at least one item"),
    (dict(weights=np.empty(0)), ValueError, "weights: expected at least one item"),
    (dict(weights="1 2 3"), TypeError, "weights: str: expected a sequence or numpy array of numbers"),
    (dict(weights=3.0), TypeError, "weights: float: expected a sequence or numpy array of numbers"),
    (dict(weights=[1, None, 3]), TypeError, "weights: item 1: None is not a number"),
    (dict(weights=[1, "2"]), TypeError, "weights: item 0: '1' is not a number"),
    (dict(weights=np.array([True, False])), TypeError, "weights: item 0: True is not a number"),
    (dict(weights=np.array([1.0, 2.0], dtype=object)), TypeError,
     "weights: dtype object: expected an array of numbers"),
    (dict(weights=np.ones((2, 3))), ValueError, "weights: shape (2, 3): expected one number per item"),
    (dict(weights=[1, 2, 3, 4], items=5), ValueError,
     "items = 5: the weights give 4 items; leave the count out or make them agree"),
    (dict(weights=[1, 2], layout="bogus"), ValueError, "layout 'bogus': expected contiguous or any"),
    (dict(weights=[1, 2], layout=1), TypeError, "layout = 1: expected"),
    (dict(items=10, layout="any"), ValueError, "layout any: needs weights= (items of equal cost have one layout)"),
    (dict(weights=[1, 2], algorithm="lp"), ValueError, "algorithm lp: with weights, expected exact"),
    (dict(weights=[1, 2], order="best"), ValueError, "order best: not available with weights"),
])
def test_bad_weights_are_refused_in_one_line(kwargs, error, message):
    with pytest.raises(error) as e:
        hetlb.plan_scatter(hetlb.platform(**PLATFORM), **kwargs)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert type(e.value) is error


def test_a_weighted_plan_refuses_the_robustness_study_and_bad_ranks():
    plan = hetlb.plan_scatter(hetlb.platform(**PLATFORM), weights=heavy_middle())
    with pytest.raises(ValueError, match="plans on item counts only"):
        plan.perturb(percent=10)
    with pytest.raises(ValueError, match=r"rank = 4: expected a rank in \[0, 4\)"):
        plan.item_ids(4)
