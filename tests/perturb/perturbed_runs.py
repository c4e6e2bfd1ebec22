#!/usr/bin/env python3
"""Schedule-perturbed runs of the diffusion runtime (issue 65, item 3; docs/runtime.md, "Perturbed runs and
the soak").

    tests/perturb/perturbed_runs.py BUILD COUNT        seeds 1..COUNT (make bench: 300)
    tests/perturb/perturbed_runs.py BUILD --sample     the ctest sample (perturbed_runs_sample): 18 seeds
    tests/perturb/perturbed_runs.py BUILD --seeds 7,12 these seeds only (a replay)
    options: --first S (seeds S..S+COUNT-1), --jobs J (runs at once, default 1), --verbose, --heavy

Run k (its seed) runs BUILD/bin/hetlb-diffuse under mpirun with BUILD/tests/libhetlb-perturb-mpi.so preloaded
(perturb_mpi.c: seeded random delays before and after the MPI calls the runtime makes, and polls answered
"nothing yet"), HETLB_PERTURB_SEED = k. The seed also picks the run's settings, with random.Random(k): the
protocol case cycles with k over the nine below (so any 9 consecutive seeds cover them all), the rest is drawn:
3 to 5 ranks, the topology (ring, line, complete, auto; torus and hypercube on 4), calls or a progress thread,
the strategy, integer load, the initial loads, items kept by the program, unlike speeds, and the perturbation's
strength: a call delayed with probability 0.05 to 0.4, delays of up to 0.1 to 5 ms, polls answered "nothing
yet" with probability 0, 0.25 or 0.5.

    async-diffusion, async-hybrid   the asynchronous mode to convergence (termination waves, closing exchange)
    async-stop                      the asynchronous mode ended by stop() after 0.3 s
    bsp-diffusion, -hybrid, -global the bulk-synchronous mode to convergence (agreement sums, hand-overs,
                                    global steps)
    work-diffusion, -hybrid, -global  bulk-synchronous with --work: every item processed 30 times, stop()

Every run must: exit 0 within TIMEOUT s (else it is killed: a hang); say items_checked (every id held exactly
once, payloads intact, results the kernel's, with --work every item processed exactly 30 times); hold as many
items at the end as at the start (ranks[].items summed) and the same total load; have converged on every rank
(converged, converged_nodes = nodes) where the case ends on convergence, with the final loads in the 1% band
for integer load balanced by load; end within the time limit (wall_seconds < --time-limit); and show every
rank perturbed (one "hetlb-perturb:" line per rank). A failure prints the seed, the reason and the exact
command that replays it; the run's output is kept in BUILD/perturb-failures/seed-K.{out,err}. Exit 1 when a
run failed.

--heavy answers 4 polls in 5 "nothing yet" (HETLB_PERTURB_DEFER=0.8), beyond what the runtime is made for: a
data message is then seen completed several polls late, while a rank near balance sends a data message of a
tiny amount to a neighbour at nearly every iteration; receiving (one data message at a time, as the model's
receiving activity) falls behind sending; in some runs the backlog then holds a fifth of the load in flight,
the loads never reach the band, and the closing exchange at the time limit takes seconds to drain it (8 of 76
such runs in seeds 301..600 of an earlier version: docs/runtime.md, "Perturbed runs and the soak").
"""
import argparse
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import threading
import time

CASES = ["async-diffusion", "async-hybrid", "async-stop", "bsp-diffusion", "bsp-hybrid", "bsp-global",
         "work-diffusion", "work-hybrid", "work-global"]
TOPOLOGIES = {3: ["ring", "line", "complete", "auto"], 4: ["ring", "line", "complete", "torus", "hypercube", "auto"],
              5: ["ring", "line", "complete", "auto"]}
TIME_LIMIT = 60   # hetlb-diffuse --time-limit: a run past it has not converged (the slowest run: 25 s)
TIMEOUT = 150     # the run is killed (a hang) past this many seconds
SAMPLE = 18       # --sample: seeds 1..18, every case twice


HEAVY = False     # --heavy: polls also answer "nothing yet" 4 times in 5 (see the docstring)


def settings(seed):
    """The run of a seed: (case, ranks, hetlb-diffuse arguments, perturbation environment)."""
    r = random.Random(seed)
    case = CASES[(seed - 1) % len(CASES)]
    np = r.choice([3, 4, 5])
    args = ["--topology", r.choice(TOPOLOGIES[np]), "--progress", r.choice(["calls", "thread"]),
            "--initial", r.choice(["single", "random"]), "--seed", str(seed), "--time-limit", str(TIME_LIMIT),
            "--format", "json"]
    strategy = r.choice(["besteffort", "besteffort", "makhoul"])
    args += ["--strategy", strategy] + (["--k", "2"] if strategy == "besteffort" and r.random() < 0.3 else [])
    if r.random() < 0.25:
        args += ["--virtual-load"]
    if r.random() < 0.25:
        args += ["--app-items", "--item-bytes", "100"]
    mode, balancer = case.split("-")
    balancer = "hybrid" if balancer == "stop" else balancer
    if mode == "work":
        args += ["--work", "30", "--ratio", "0.02", "--load-per-node", "30", "--min-lb-iter", "0.002"]
        if r.random() < 0.6:  # unlike ranks, emulated by waiting; the runtime measures or is told the speeds
            args += ["--speeds", ",".join(str(r.choice([1, 2, 4])) for _ in range(np)), "--balance", "time",
                     "--speed-source", r.choice(["measured", "given"])]
        if r.random() < 0.3:
            args += ["--integer"]
    else:
        integer = r.random() < 0.3
        args += ["--load-per-node", "200" if integer else "40", "--iterations", "8", "--min-lb-iter", "0.002",
                 "--min-comp-iter", "0.0005", "--ratio", "0.001"] + (["--integer"] if integer else [])
        if mode == "bsp":
            args += ["--mode", "bsp"]
        if case == "async-stop":
            args += ["--iterations", "1000000", "--stop-after", "0.3"]
        elif r.random() < 0.25:  # balanced by time on given speeds (measured ones do not settle within 1%)
            args += ["--speeds", ",".join(str(r.choice([1, 2, 4])) for _ in range(np)), "--balance", "time",
                     "--speed-source", "given"]
            if integer:  # whole units on slow ranks: shares of hundreds of units to fit the 1% band, as
                # diffuse_np4_async_time_given_integer (DASUD's rules leave every domain within a unit: a
                # slow rank one unit above a share of 80 is out of its band for ever)
                args[args.index("--load-per-node") + 1] = "1000"
    if balancer != "diffusion" or r.random() < 0.5:
        args += ["--balancer", balancer]
    if "--balance" not in args:  # the papers' model by name (the runtime's default is time, on measured speeds)
        args += ["--balance", "load"]
    env = {"HETLB_PERTURB_SEED": str(seed), "HETLB_PERTURB_PROB": r.choice(["0.05", "0.1", "0.2", "0.4"]),
           "HETLB_PERTURB_MAX_US": r.choice(["100", "500", "2000", "5000"]),
           "HETLB_PERTURB_DEFER": r.choice(["0", "0.25", "0.5"]), "HETLB_PERTURB_REPORT": "1"}
    if HEAVY:
        env["HETLB_PERTURB_DEFER"] = "0.8"
    return case, np, args, env


def command(build, seed):
    case, np, args, env = settings(seed)
    library = os.path.join(build, "tests", "libhetlb-perturb-mpi.so")
    exports = ["-x", "LD_PRELOAD=" + library] + [x for k, v in env.items() for x in ("-x", f"{k}={v}")]
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(np)] + exports + \
          [os.path.join(build, "bin", "hetlb-diffuse")] + args
    return case, np, args, cmd


def check(case, np, args, rc, out, err, seconds):
    """The reason the run failed, or None."""
    if rc is None:
        return f"did not end within {TIMEOUT} s (killed): a hang"
    if rc != 0:
        return f"exit status {rc}"
    try:
        j = json.loads(out)
    except ValueError as e:
        return f"no JSON on stdout ({e})"
    reports = sum(1 for line in err.splitlines() if line.startswith("hetlb-perturb: rank"))
    if reports != np:
        return f"{reports} 'hetlb-perturb:' lines on stderr for {np} ranks: the perturbation did not reach every rank"
    if j.get("items_checked") is not True:
        return "items_checked is not true"
    ranks = j.get("ranks", [])
    if len(ranks) != np:
        return f"{len(ranks)} ranks[] entries for {np} ranks"
    held = sum(e["items"] for e in ranks)
    if held != j["items"]:
        return f"conservation: {held:g} items held at the end, {j['items']} at the start"
    if j["initial_total_load"] != j["final_total_load"]:
        return f"conservation: total load {j['initial_total_load']} -> {j['final_total_load']}"
    if not (j["wall_seconds"] < TIME_LIMIT):
        return f"ran {j['wall_seconds']:.1f} s: past the time limit of {TIME_LIMIT} s"
    ends_on_convergence = not case.startswith("work") and case != "async-stop"
    if ends_on_convergence:
        if j["converged"] is not True or j["converged_nodes"] != np:
            return f"converged {j['converged']}, {j['converged_nodes']} of {np} ranks converged"
        if j["integer"] and j.get("balance") == "load":  # whole loads: every rank in the 1% band
            low, high = j["final_min_load"], j["final_max_load"]
            if low * np < 0.99 * j["final_total_load"] or high * np > 1.01 * j["final_total_load"]:
                return f"converged, but final loads {low:g}..{high:g} leave the 1% band"
    if case.startswith("work") and not (j.get("time_to_solution") or 0) > 0:
        return "no time_to_solution"
    return None


def run(build, seed, keep):
    case, np, args, cmd = command(build, seed)
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)  # this run's mpirun and its ranks only (their own session)
        try:
            out, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
        rc = None
    seconds = time.monotonic() - start
    reason = check(case, np, args, rc, out, err, seconds)
    if reason is not None:
        os.makedirs(keep, exist_ok=True)
        for suffix, text in (("out", out), ("err", err)):
            with open(os.path.join(keep, f"seed-{seed}.{suffix}"), "w") as f:
                f.write(text)
    return case, np, args, cmd, seconds, reason, err


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build")
    parser.add_argument("count", nargs="?", type=int)
    parser.add_argument("--sample", action="store_true")
    parser.add_argument("--seeds")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--heavy", action="store_true")
    a = parser.parse_intermixed_args()  # BUILD --heavy 45 as BUILD 45 --heavy
    global HEAVY
    HEAVY = a.heavy
    build = os.path.abspath(a.build)
    for need in ("bin/hetlb-diffuse", "tests/libhetlb-perturb-mpi.so"):
        if not os.path.exists(os.path.join(build, need)):
            sys.exit(f"perturbed_runs: {build}/{need}: not built (ninja hetlb-diffuse hetlb-perturb-mpi)")
    if a.seeds:
        seeds = [int(s) for s in a.seeds.split(",")]
    elif a.sample or a.count is None:
        seeds = list(range(1, SAMPLE + 1))
    else:
        seeds = list(range(a.first, a.first + a.count))
    keep = os.path.join(build, "perturb-failures")
    failures, longest, lock = [], (0.0, 0), threading.Lock()
    started = time.monotonic()
    pending = list(seeds)

    def worker():
        nonlocal longest
        while True:
            with lock:
                if not pending:
                    return
                seed = pending.pop(0)
            case, np, args, cmd, seconds, reason, err = run(build, seed, keep)
            with lock:
                longest = max(longest, (seconds, seed))
                topology = args[args.index("--topology") + 1]
                progress = args[args.index("--progress") + 1]
                line = f"seed {seed:4d}  {case:15s} np {np} {topology:9s} {progress:6s} {seconds:5.1f} s"
                if reason is None:
                    print(f"ok    {line}", flush=True)
                    if a.verbose:
                        print("      " + " | ".join(l for l in err.splitlines() if l.startswith("hetlb-perturb")))
                else:
                    failures.append(seed)
                    print(f"FAIL  {line}: {reason}\n      replay: {shlex.join(cmd)}\n"
                          f"      output: {keep}/seed-{seed}.out, .err", flush=True)

    threads = [threading.Thread(target=worker) for _ in range(max(1, a.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = time.monotonic() - started
    print(f"perturbed runs: {len(seeds) - len(failures)} of {len(seeds)} passed in {total:.0f} s "
          f"(longest run {longest[0]:.1f} s, seed {longest[1]})" +
          (f"; failed seeds: {','.join(map(str, sorted(failures)))}" if failures else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
