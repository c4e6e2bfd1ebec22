#!/usr/bin/env python3
"""expect_converged.py SECONDS COMMAND...: runs an hetlb-diffuse command (--format json) and passes when it
exits 0 having converged on every rank (converged, converged_nodes = nodes) within SECONDS of wall time, with
every item held once and intact (items_checked) and as many items at the end as at the start. The regression
tests of tests/perturb/CMakeLists.txt (runs the perturbed runs found never to converge)."""
import json
import subprocess
import sys

limit = float(sys.argv[1])
p = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=limit + 60)
if p.returncode != 0:
    sys.exit(f"exit status {p.returncode}\n{p.stdout}\n{p.stderr}")
j = json.loads(p.stdout)
ranks = [r["items"] for r in j["ranks"]]
print(f"converged {j['converged']} ({j['converged_nodes']} of {j['nodes']} ranks) in {j['wall_seconds']:.2f} s, "
      f"items per rank {ranks}, {len(j['global_steps'])} global steps")
if j["items_checked"] is not True or sum(ranks) != j["items"]:
    sys.exit("items not checked, or not conserved")
if j["converged"] is not True or j["converged_nodes"] != j["nodes"] or not j["wall_seconds"] < limit:
    sys.exit(f"expected every rank converged within {limit:g} s")
