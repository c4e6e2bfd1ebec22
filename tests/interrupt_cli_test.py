#!/usr/bin/env python3
"""Long commands stopped by SIGINT or SIGTERM (docs/limits.md, "Interrupting a long run").

Each case starts a command that would run for minutes, signals it once it is under way (its first progress
line on stderr; a campaign: two rows written and its two long runs started), and checks: the exit status
(130 for SIGINT, 143 for SIGTERM), one line on stderr saying it was interrupted, the partial results (marked
so, with some of the work done and not all of it), whole output files, no temporary file and no run left.
Fails on a hetlb without clean stops (killed by the signal, or SimGrid's exit 1 on SIGINT).

Usage: interrupt_cli_test.py HETLB SOURCE_DIR CASE, CASE one of ring-json-sigint, ring-table-sigterm,
ring-simgrid-sigint, diffusion-sigint, campaign-sigterm, campaign-group-sigint.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

HETLB, SRC, CASE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
RING = os.path.join(SRC, "examples", "ring-iterations", "heterogeneous-8.json")


def fail(message):
    print(f"FAIL ({CASE}): {message}")
    sys.exit(1)


def default_signals():
    # A shell that started ctest in the background may have left SIGINT ignored: the command must get it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Run:
    """The command, its standard error read as it comes (the progress lines tell how far it has got)."""

    def __init__(self, args, cwd, env=None, group=False):
        self.p = subprocess.Popen([HETLB] + args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  preexec_fn=default_signals, start_new_session=group)
        self.err, self.out = [], []
        self.readers = [threading.Thread(target=lambda: self.err.extend(l.decode() for l in self.p.stderr)),
                        threading.Thread(target=lambda: self.out.append(self.p.stdout.read().decode()))]
        for r in self.readers:
            r.start()

    def wait_for_line(self, prefix, seconds=120):
        deadline = time.time() + seconds
        while not any(l.startswith(prefix) for l in self.err):
            if time.time() > deadline or self.p.poll() is not None:
                self.p.kill()
                fail(f"no line '{prefix}...' on stderr within {seconds} s: {''.join(self.err)}")
            time.sleep(0.05)

    def finish(self, seconds=60):
        try:
            self.p.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            fail(f"still running {seconds} s after the signal")
        for r in self.readers:
            r.join()
        return self.p.returncode, "".join(self.out), "".join(self.err)


def check_end(rc, err, sig):
    expected = 128 + sig
    if rc != expected:
        fail(f"exit status {rc}, expected {expected}; stderr: {err}")
    lines = [l for l in err.splitlines() if "interrupted" in l]
    name = signal.Signals(sig).name
    if len(lines) != 1 or name not in lines[0]:
        fail(f"expected one line on stderr saying 'interrupted' and {name}, got: {err}")


def no_temporary_files(folder):
    left = [f for f in os.listdir(folder) if f.startswith(".") or f.startswith("hetlb-campaign-")]
    if left:
        fail(f"temporary files left in {folder}: {left}")


def ring(fmt, sig):
    with tempfile.TemporaryDirectory() as d:
        run = Run(["simulate", "ring-iterations", RING, "--policy", "model", "--iterations", "1000000000", "--drift",
                   "walk", "--ratio", "1", "--format", fmt], d)
        run.wait_for_line("hetlb: ring iterations: ")  # every 2 s
        run.p.send_signal(sig)
        rc, out, err = run.finish()
        check_end(rc, err, sig)
        if fmt == "json":
            try:
                j = json.loads(out)
            except ValueError:
                fail(f"stdout is not one JSON document: {out!r}")
            if j.get("interrupted") is not True:
                fail(f"no \"interrupted\": true in {out}")
            done = j.get("iterations_done", -1)
            if not (0 < done < 1000000000) or j.get("iterations") != 1000000000:
                fail(f"iterations_done {done} of {j.get('iterations')}: expected some of the 1e9 iterations")
            if not j["total_time"] > 0 or not j["compute_time"] > 0:
                fail(f"no time summed over the iterations done: {out}")
        else:
            first = out.splitlines()[0] if out else ""
            if not first.startswith("interrupted") or "of 1000000000 iterations" not in first:
                fail(f"the table does not start with the interruption: {out!r}")
            if "total time" not in out:
                fail(f"no partial results in the table: {out!r}")
        no_temporary_files(d)


def ring_replay(sig):
    with tempfile.TemporaryDirectory() as d:
        # The model's 500,000 iterations take a second, their replay on SimGrid half a minute.
        run = Run(["simulate", "ring-iterations", RING, "--policy", "every:1000", "--iterations", "500000", "--drift",
                   "walk", "--ratio", "1", "--engine", "simgrid", "--format", "json"], d)
        run.wait_for_line("hetlb: ring iterations replay: ")  # every 2 s
        run.p.send_signal(sig)
        rc, out, err = run.finish()
        check_end(rc, err, sig)
        try:
            j = json.loads(out)
        except ValueError:
            fail(f"stdout is not one JSON document: {out!r}")
        done = j.get("iterations_done", -1)
        if j.get("interrupted") is not True or j.get("engine") != "simgrid" or not 0 < done < 500000:
            fail(f"expected the replay's iterations done, marked interrupted: {out}")
        if j.get("model_total_time", 0) is not None or j["redistributions"] != (done + 999) // 1000:
            fail(f"expected no model total beside a partial replay, and its redistributions: {out}")
        no_temporary_files(d)


def diffusion(sig):
    with tempfile.TemporaryDirectory() as d:
        # A 64-node line from one loaded node: minutes of simulation.
        run = Run(["simulate", "diffusion", "--nodes", "64", "--topology", "line", "--strategy", "makhoul",
                   "--iterations", "1000000", "--time-limit", "100000", "--format", "json", "--trace", "t.csv",
                   "--plot", "p.svg"], d)
        run.wait_for_line("hetlb: simulated ")  # every 5 s
        run.p.send_signal(sig)
        rc, out, err = run.finish()
        check_end(rc, err, sig)
        try:
            j = json.loads(out)
        except ValueError:
            fail(f"stdout is not one JSON document: {out!r}")
        if j.get("interrupted") is not True or j.get("converged") is not False:
            fail(f"expected \"interrupted\": true and \"converged\": false: {out}")
        if not 0 < j["simulated_time"] < j["time_limit"]:
            fail(f"simulated_time {j['simulated_time']}: expected a date before the limit {j['time_limit']}")
        if abs(j["final_total_load"] - j["initial_total_load"]) > 1e-6 * j["initial_total_load"]:
            fail("the load is not conserved")
        with open(os.path.join(d, "t.csv")) as f:
            text = f.read()
        rows = text.splitlines()
        if len(rows) < 3 or not text.endswith("\n") or len({len(r.split(",")) for r in rows}) != 1:
            fail(f"the trace is not whole: {len(rows)} lines")
        last_date = float(rows[-1].split(",")[0])
        if abs(last_date - j["simulated_time"]) > 1e-6 * max(1.0, last_date):  # the trace prints 9 digits
            fail(f"the trace ends at {last_date}, the run at {j['simulated_time']}")
        if os.path.getsize(os.path.join(d, "p.svg")) == 0:
            fail("the figure is empty")
        no_temporary_files(d)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def is_simulation(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"simulate\0diffusion" in f.read()
    except OSError:
        return False


def campaign(sig, group):
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, "tmp")
        os.mkdir(tmp)
        csv = os.path.join(d, "r.csv")
        spec = os.path.join(d, "spec.json")
        # Two 4-node runs end in a fraction of a second each; the 256-node lines take minutes.
        with open(spec, "w") as f:
            json.dump({"spec_version": 1, "strategies": "makhoul", "virtual_load": False, "integer": False,
                       "platforms": "cluster", "nodes": [4, 256], "topologies": "line", "initial": "single",
                       "ratios": [1, 0.5], "iterations": 1000000, "results": csv}, f)
        env = dict(os.environ, TMPDIR=tmp)
        run = Run(["campaign", spec, "-j", "2", "--smallest-first"], d, env, group)
        p = run.p
        deadline = time.time() + 60
        while time.time() < deadline:  # two rows written, the long runs started
            if os.path.exists(csv):
                with open(csv) as f:
                    if len(f.read().splitlines()) >= 3 and len([c for c in children(p.pid) if is_simulation(c)]) == 2:
                        break
            time.sleep(0.1)
        else:
            fail("the campaign did not write its first two rows and start the long runs within 60 s")
        time.sleep(0.5)
        running = [c for c in children(p.pid) if is_simulation(c)]
        if group:
            os.killpg(p.pid, sig)  # Ctrl-C at a terminal: the campaign and its runs
        else:
            p.send_signal(sig)
        rc, out, err = run.finish()
        check_end(rc, err, sig)
        time.sleep(0.2)
        left = [c for c in running if is_simulation(c)]
        if left:
            for c in left:
                os.kill(c, signal.SIGKILL)
            fail(f"runs left behind: {left}")
        with open(csv) as f:
            text = f.read()
        rows = text.splitlines()
        if not text.endswith("\n") or len(rows) != 3:
            fail(f"expected the header and the two rows done, whole: {text!r}")
        header = rows[0].split(",")
        for r in rows[1:]:
            cells = dict(zip(header, r.split(",")))
            if len(r.split(",")) != len(header) or cells["nodes"] != "4" or cells["status"] != "ok":
                fail(f"an unexpected row: {r}")
        no_temporary_files(tmp)
        no_temporary_files(d)
        # The results read back: the two 256-node settings are what a new run has left to do.
        rep = subprocess.run([HETLB, "campaign", spec, "--report"], cwd=d, capture_output=True, text=True, env=env)
        if rep.returncode != 0 or "2 of 4 settings left to run" not in rep.stderr:
            fail(f"the results do not read back: {rep.stderr}")


if CASE == "ring-json-sigint":
    ring("json", signal.SIGINT)
elif CASE == "ring-table-sigterm":
    ring("table", signal.SIGTERM)
elif CASE == "ring-simgrid-sigint":
    ring_replay(signal.SIGINT)
elif CASE == "diffusion-sigint":
    diffusion(signal.SIGINT)
elif CASE == "campaign-sigterm":
    campaign(signal.SIGTERM, False)
elif CASE == "campaign-group-sigint":
    campaign(signal.SIGINT, True)
else:
    fail("unknown case")
print("ok")
