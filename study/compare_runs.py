#!/usr/bin/env python3
"""Checks that a hetlb build reproduces diffusion results (runs `hetlb simulate diffusion`, ships nothing).

  compare_runs.py rows HETLB RESULTS.csv FILTER N [SEED]
      reruns N rows of a campaign results file drawn at random among those FILTER keeps (a Python
      expression on the row `r`, e.g. "r['nodes'] == '64' and r['integer'] == 'true'") and compares
      every recorded metric (relative 1e-6; wall time aside)
  compare_runs.py builds OLD_HETLB NEW_HETLB N [SEED]
      runs N random small settings (4 to 16 nodes, every strategy, integer or real, both phases) with
      two builds and compares their JSON outputs (relative 1e-9; wall time, events and
      streaks_computed aside); a setting whose old run lasts over 60 s is skipped and counted
Prints one line per difference and a total; exit status 1 if any differs.
"""
import csv
import json
import random
import subprocess
import sys

METRICS = ['converged_nodes', 'avg_idle_time', 'avg_convergence_date', 'max_convergence_date',
           'data_transfer_amount', 'computed_load', 'ctrl_messages', 'data_messages', 'simulated_time']
SKIPPED = {'wall_seconds', 'events', 'events_per_wall_second', 'streaks_computed'}


def run(hetlb, args, timeout=None):
    """The run's JSON, {'error': ...} when it is refused, None when it outlasts `timeout` seconds."""
    try:
        p = subprocess.run([hetlb, 'simulate', 'diffusion', *args, '--format', 'json'], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(p.stdout) if p.returncode == 0 else {'error': p.stderr.strip()}


def differ(a, b, tolerance):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) > tolerance * max(1.0, abs(a))
    return a != b


def row_args(r):
    args = ['--platform', r['platform'], '--nodes', r['nodes'], '--topology', r['topology'], '--initial', r['initial'],
            '--ratio', r['ratio'], '--seed', r['seed'], '--strategy', r['strategy'], '--k', r['k'],
            '--estimates', r['estimates'], '--iterations', r['iterations'], '--load-per-node', r['load_per_node']]
    if r['time_limit'] not in ('', '0'):
        args += ['--time-limit', r['time_limit']]
    if r['virtual_load'] == 'true':
        args.append('--virtual-load')
    if r['integer'] == 'true':
        args.append('--integer')
    suffixes = r['spec_version'].split('+')[1:]
    if 'staggered' in suffixes:
        args += ['--lb-phase', 'staggered']
    if 'coalesced' in suffixes:
        args.append('--coalesce-data')
    # Rows without "+time" were balanced by load, which the command line now takes by name.
    args += ['--balance', 'time' if 'time' in suffixes else 'load']
    return args


def compare_rows(hetlb, path, keep, n, seed):
    rows = [r for r in csv.DictReader(open(path)) if eval(keep, {}, {'r': r})]
    random.seed(seed)
    sample = random.sample(rows, min(n, len(rows)))
    bad = 0
    for r in sample:
        out = run(hetlb, row_args(r))
        diffs = []
        for k in METRICS:
            recorded = r[k]
            got = out.get(k)
            if recorded in ('', 'nan') and got is None:
                continue
            try:
                if differ(float(recorded), float(got), 1e-6):
                    diffs.append((k, recorded, got))
            except (TypeError, ValueError):
                diffs.append((k, recorded, got))
        if diffs:
            bad += 1
            print(' '.join(row_args(r)), diffs)
    print(f'{len(sample)} rows rerun, {bad} different')
    return bad


def strategies(hetlb):
    """The built-in strategies of a build (`hetlb strategies --format json`); a build without that
    command has the study's four."""
    p = subprocess.run([hetlb, 'strategies', '--format', 'json'], capture_output=True, text=True)
    if p.returncode != 0:
        return ['besteffort', 'makhoul', 'simple', 'none']
    return [s['name'] for s in json.loads(p.stdout)]


def random_args(rng, names=('besteffort', 'makhoul', 'simple', 'none')):
    nodes = rng.choice([4, 6, 8, 9, 12, 16])
    topologies = ['line', 'ring', 'complete', 'torus'] + (['hypercube'] if nodes in (4, 8, 16) else [])
    topology, initial = rng.choice(topologies), rng.choice(['single', 'random'])
    strategy, k = rng.choice(list(names)), rng.choice([1, 2])
    # k is best effort's (a strategy without k refuses --k other than 1); the draw stays, so that a seed
    # draws the same settings as before.
    args = ['--nodes', str(nodes), '--topology', topology, '--initial', initial,
            '--strategy', strategy, '--k', str(k if strategy == 'besteffort' else 1),
            '--ratio', str(rng.choice([10, 1, 0.1])), '--seed', str(rng.randint(1, 50)),
            '--load-per-node', str(rng.choice([1, 2, 3, 10, 100])), '--iterations', str(rng.choice([20, 200, 2000])),
            '--lb-phase', rng.choice(['aligned', 'staggered'])]
    if rng.random() < 0.6:
        args.append('--integer')
    if rng.random() < 0.5:
        args.append('--virtual-load')
    if rng.random() < 0.3:
        args += ['--platform', 'grid']
    # By name: builds from before 0.3 balanced by load without it, later ones by time.
    return args + ['--balance', 'load']


def compare_builds(old, new, n, seed, timeout=60):
    """Random small settings can run for hours (a stalled integer run to a time limit of 20,000 tau):
    a setting whose run outlasts `timeout` seconds with the old build is skipped, and counted as such."""
    rng = random.Random(seed)
    bad = skipped = 0
    # The strategies both builds know, in the old build's order (the study's four for builds before the
    # registry, so that a seed draws the same settings as before).
    names = [s for s in strategies(old) if s in strategies(new)]
    for i in range(n):
        args = random_args(rng, names)
        a = run(old, args, timeout)
        if a is None:
            skipped += 1
            print(f'[{i + 1}/{n}] skipped (over {timeout} s): ' + ' '.join(args), file=sys.stderr, flush=True)
            continue
        b = run(new, args)
        diffs = [(k, a[k], b.get(k)) for k in a if k not in SKIPPED and differ(a[k], b.get(k), 1e-9)]
        print(f'[{i + 1}/{n}] {"different" if diffs else "same"}', file=sys.stderr, flush=True)
        if diffs:
            bad += 1
            print(' '.join(args), diffs[:4], flush=True)
    print(f'{n} settings, {bad} different, {skipped} skipped (over {timeout} s)')
    return bad


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) >= 5 and a[0] == 'rows':
        bad = compare_rows(a[1], a[2], a[3], int(a[4]), int(a[5]) if len(a) > 5 else 1)
    elif len(a) >= 4 and a[0] == 'builds':
        bad = compare_builds(a[1], a[2], int(a[3]), int(a[4]) if len(a) > 4 else 1)
    else:
        sys.exit(__doc__)
    sys.exit(1 if bad else 0)
