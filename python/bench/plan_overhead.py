"""What the binding adds to the planner: plan_scatter on Table 1 through Python against the C++ solve
time the plan reports (its solve_seconds), both the best of 5 rounds; the target is 20 us at most.

    PYTHONPATH=build/python python3 python/bench/plan_overhead.py [examples/grid1999.json]
"""
import sys
import timeit

import hetlb

platform = hetlb.platform(sys.argv[1] if len(sys.argv) > 1 else "examples/grid1999.json")
n = 5000
python_call = min(timeit.repeat(lambda: hetlb.plan_scatter(platform), number=n, repeat=5)) / n
solve = min(min(hetlb.plan_scatter(platform).solve_seconds for _ in range(n)) for _ in range(5))
print(f"plan_scatter through Python: {python_call * 1e6:.1f} us; the planner itself: {solve * 1e6:.1f} us; "
      f"the binding adds {(python_call - solve) * 1e6:.1f} us (target: at most 20 us: "
      f"{'met' if python_call - solve <= 20e-6 else 'NOT met'})")
