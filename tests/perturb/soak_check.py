#!/usr/bin/env python3
"""The checks of tests/perturb/soak.sh (issue 65, item 7). One line on stdout per check; exit 1 on a failure.

    soak_check.py draw SEED RANKS           the kill's date (s after every rank started) and rank, seeded
    soak_check.py async FILE ITERATIONS NAME  hetlb-diffuse's JSON of an asynchronous run to convergence
    soak_check.py work FILE WORK NAME         hetlb-diffuse's JSON of a bulk-synchronous --work run
    soak_check.py pids DIR RANKS            the ranks' PIDs from hetlb-soak-rank's logs (once all started)
    soak_check.py killed DIR RANKS MODE     the logs of a run in which a rank was killed
"""
import json
import os
import random
import sys


def fail(text):
    print(f"soak: FAIL: {text}")
    sys.exit(1)


def common(j, label):
    if j.get("items_checked") is not True:
        fail(f"{label}: items_checked is not true (an id lost, duplicated or corrupted)")
    held = sum(e["items"] for e in j["ranks"])
    if held != j["items"] or j["initial_total_load"] != j["final_total_load"]:
        fail(f"{label}: conservation: {held:g} items held at the end of {j['items']}; total load "
             f"{j['initial_total_load']} -> {j['final_total_load']}")


def read_logs(folder, ranks):
    logs = []
    for r in range(ranks):
        path = os.path.join(folder, f"rank-{r}.log")
        # One write(2) per line: a killed rank leaves whole lines only.
        logs.append([line.split() for line in open(path).read().splitlines()] if os.path.exists(path) else [])
    return logs


def main():
    what = sys.argv[1]
    if what == "draw":
        r = random.Random(int(sys.argv[2]))
        print(f"{r.uniform(1.0, 6.0):.2f} {r.randrange(int(sys.argv[3]))}")
    elif what == "async":
        j = json.load(open(sys.argv[2]))
        iterations, name = int(sys.argv[3]), sys.argv[4]
        common(j, name)
        if j["converged"] is not True or j["converged_nodes"] != j["nodes"]:
            fail(f"{name}: {j['converged_nodes']} of {j['nodes']} ranks converged")
        if j["computing_iterations"] < iterations * j["nodes"]:
            fail(f"{name}: {j['computing_iterations']} computing iterations, expected at least "
                 f"{iterations} per rank")
        print(f"soak: {name}: {j['nodes']} ranks converged after {j['computing_iterations']} computing "
              f"iterations ({iterations} consecutive in the band on every rank), {j['data_messages']} data "
              f"messages, every item held once and intact, {j['wall_seconds']:.1f} s")
    elif what == "work":
        j = json.load(open(sys.argv[2]))
        work, name = int(sys.argv[3]), sys.argv[4]
        common(j, name)
        if j["work_iterations"] != work:
            fail(f"{name}: {j['work_iterations']} iterations, expected {work}")
        print(f"soak: {name}: {j['work_iterations']} iterations, every item processed exactly {work} "
              f"times and held once (items_checked), {j['items_moved']:g} items moved, {len(j['global_steps'])} "
              f"global steps, {j['wall_seconds']:.1f} s")
    elif what == "pids":
        logs = read_logs(sys.argv[2], int(sys.argv[3]))
        if all(log and log[0][0] == "start" for log in logs):
            print(" ".join(log[0][3] for log in logs))
    elif what == "killed":
        folder, ranks, mode = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        logs = read_logs(folder, ranks)
        starts = [log[0] for log in logs]
        total, idsum = int(starts[0][4]), int(starts[0][5])
        calls = [{int(f[1]): (int(f[2]), int(f[3]), int(f[4])) for f in log if f[0] == "c"} for log in logs]
        for r, c in enumerate(calls):
            bad = [k for k, v in c.items() if v[2] != 0]
            if bad:
                fail(f"rank {r}: an item with a wrong id or check word at call {bad[0]}")
        common_calls = sorted(set.intersection(*(set(c) for c in calls)))
        if not common_calls:
            fail("no call was logged by every rank before the kill: kill earlier than the first call")
        if mode == "bsp":
            for k in common_calls:
                items = sum(c[k][0] for c in calls)
                ids = sum(c[k][1] for c in calls) % 2**64
                if items != total or ids != idsum:
                    fail(f"call {k}: the ranks held {items} items (id sum {ids}), expected {total} (id sum {idsum})")
            print(f"soak: nothing lost before the kill: after each of calls 1 to {common_calls[-1]} the {ranks} ranks "
                  f"held the {total} items exactly once (counts and id sums), every item's check word intact")
        else:
            print(f"soak: before the kill: calls 1 to {common_calls[-1]} logged by every rank, every item held "
                  f"intact (asynchronous mode: items in flight between calls, so no global count per call)")
        if any(log and log[-1][0] == "end" for log in logs):
            fail("a rank ended its run normally although a rank was killed")


if __name__ == "__main__":
    main()
