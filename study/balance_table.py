#!/usr/bin/env python3
"""Time-balanced against load-balanced runs of twin campaign specs (same settings, `balance` differs).

  balance_table.py LOAD.csv TIME.csv [NODES]
      pairs the rows of the two results files by their key columns (the version aside) and prints, per
      strategy variant and ratio, how many runs converged each way and, over the pairs where both did,
      the median and range of time / load for the maximum convergence date and the data moved.
Balancing by load, converged nodes hold the average: their iteration times spread as their speeds do,
which `hetlb simulate diffusion --format json` reports as `final_time_imbalance`; by time it is 1.

  balance_table.py LOAD.csv TIME.csv NODES --hetlb HETLB [--work W]
      adds what an iterative application gains. Its bulk-synchronous iteration takes I x t* once the
      load is balanced, where t* = total load x ratio x 1e6 / sum of the host speeds (flop/s) is the
      time-balanced ideal and I the time imbalance: 1 by time, sum(s) / (N min(s)) by load (every node
      holding the average; the platform's speeds come from HETLB). Counting the balancing phase as lost
      time, W iterations take T(W) = D + W I t* with D the maximum convergence date, so balancing by time
      is ahead after W* = (D_time - D_load) / ((I_load - 1) t*) iterations (0 when it also converges
      first). Columns: W* (median, range) and T(W) time / load for W iterations (default 1000).
"""
import json
import os
import subprocess
import tempfile
import csv
import statistics
import sys

KEY = ['mode', 'strategy', 'k', 'virtual_load', 'integer', 'estimates', 'platform', 'nodes', 'topology', 'initial',
       'ratio', 'seed', 'load_per_node', 'iterations', 'time_limit', 'min_comp_iter', 'min_lb_iter']


def rows(path, nodes):
    return {tuple(r[c] for c in KEY): r for r in csv.DictReader(open(path)) if nodes is None or r['nodes'] == nodes}


def ok(r):
    return r['status'] == 'ok' and r['converged'] == '1'


def spread(values, digits=3):
    if not values:
        return '-'
    return f'{statistics.median(values):.{digits}f} ({min(values):.{digits}f} to {max(values):.{digits}f})'


def plot(path, curves):
    """T(W) time / load against W (log scale), the median over the pairs of each variant and ratio, drawn
    by gnuplot from a data file; nothing of the data reaches the script as code."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, 'curves.dat')
        with open(data, 'w') as f:
            for label, points in curves:
                for w, v in points:
                    f.write(f'{w} {v}\n')
                f.write('\n\n')
        titles = [label for label, _ in curves]
        plots = ', '.join(f"'{data}' index {i} with lines lw 2 dt {2 if 'virtual' in curves[i][0] else 1} "
                          f"title word(titles, {i + 1}) noenhanced" for i in range(len(curves)))
        terminal = 'pngcairo size 800,520' if path.endswith('.png') else 'svg size 800,520 dynamic'
        script = (f"set terminal {terminal}\nset output ARG1\nset logscale x\n"
                  "set xlabel 'application iterations W'\nset ylabel 'time to solution, by time / by load (median)'\n"
                  "set grid\nset key top right font ',9'\ntitles = ARG2\nplot " + plots + ", 1 with lines dt 2 lc 'black' notitle\n")
        script_path = os.path.join(tmp, 'plot.gp')
        with open(script_path, 'w') as f:
            f.write(script)
        subprocess.run(['gnuplot', '-c', script_path, path, ' '.join(t.replace(' ', '\u00a0') for t in titles)], check=True)


def speeds(hetlb, platform, nodes):
    out = subprocess.run([hetlb, 'simulate', 'diffusion', '--platform', platform, '--nodes', nodes, '--iterations', '1',
                          '--time-limit', '0.001', '--format', 'json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out)['node_speeds']


def main():
    args = sys.argv[1:]
    hetlb, work = None, 1000
    if '--hetlb' in args:
        i = args.index('--hetlb')
        hetlb = args[i + 1]
        del args[i:i + 2]
    figure = None
    if '--plot' in args:
        i = args.index('--plot')
        figure = args[i + 1]
        del args[i:i + 2]
    if '--work' in args:
        i = args.index('--work')
        work = int(args[i + 1])
        del args[i:i + 2]
    if len(args) not in (2, 3) or (hetlb and len(args) != 3) or (figure and not hetlb):
        raise SystemExit('usage: balance_table.py LOAD.csv TIME.csv [NODES [--hetlb HETLB [--work W] [--plot OUT.svg]]]')
    nodes = args[2] if len(args) > 2 else None
    load, time = rows(args[0], nodes), rows(args[1], nodes)
    gain = {}
    groups = {}
    for key, a in load.items():
        b = time.get(key)
        if b is None:
            continue
        variant = a['strategy'] + (f" k={a['k']}" if a['strategy'] == 'besteffort' else '') + \
            (' +virtual' if a['virtual_load'] == 'true' else '')
        groups.setdefault((variant, float(a['ratio'])), []).append((a, b))
    if hetlb:
        for a in load.values():
            if a['platform'] not in gain:
                s = speeds(hetlb, a['platform'], nodes)
                gain[a['platform']] = (sum(s) / (len(s) * min(s)), sum(s))
        print(f"I by load: {', '.join(f'{p} {i:.2f}' for p, (i, _) in sorted(gain.items()))}; W = {work} iterations\n")
    extra = ' | break-even W*: median (range) | T(W), time / load: median (range) |' if hetlb else ' |'
    print('| variant | ratio | pairs | converged by load / by time | max convergence date, time / load: median (range) '
          '| data moved, time / load: median (range)' + extra)
    print('|---|---|---|---|---|---|' + ('---|---|' if hetlb else ''))
    curves = []
    for (variant, ratio), pairs in sorted(groups.items(), key=lambda g: (g[0][0], -g[0][1])):
        both = [(a, b) for a, b in pairs if ok(a) and ok(b)]
        dates = [float(b['max_convergence_date']) / float(a['max_convergence_date']) for a, b in both]
        moved = [float(b['data_transfer_amount']) / float(a['data_transfer_amount']) for a, b in both]
        cells = ''
        if hetlb:
            def model(a, b):
                """(I by load, t*, D by load, D by time) of a pair (the docstring's model)."""
                i_load, total_speed = gain[a['platform']]
                t_star = float(a['load_per_node']) * int(a['nodes']) * float(a['ratio']) * 1e6 / total_speed
                return i_load, t_star, float(a['max_convergence_date']), float(b['max_convergence_date'])

            def solution(a, b, w):
                """T(w) by time over T(w) by load."""
                i_load, t_star, d_load, d_time = model(a, b)
                return (d_time + w * t_star) / (d_load + w * i_load * t_star)

            even = []
            for a, b in both:
                i_load, t_star, d_load, d_time = model(a, b)
                even.append(max(0.0, (d_time - d_load) / ((i_load - 1) * t_star)))
            cells = f' {spread(even, 0)} | {spread([solution(a, b, work) for a, b in both])} |'
            if both:
                points = [(w, statistics.median(solution(a, b, w) for a, b in both))
                          for w in [round(10 ** (e / 4)) for e in range(0, 21)]]
                curves.append((f'{variant} ratio {ratio:g}', points))
        print(f'| {variant} | {ratio:g} | {len(pairs)} | {sum(ok(a) for a, _ in pairs)} / {sum(ok(b) for _, b in pairs)} '
              f'| {spread(dates)} | {spread(moved)} |' + cells)
    # The same pairs per topology, every variant and ratio together.
    topologies = {}
    for pairs in groups.values():
        for a, b in pairs:
            topologies.setdefault(a['topology'], []).append((a, b))
    print('\n| topology | pairs | converged by load / by time | max convergence date, time / load: median (range) '
          '| data moved, time / load: median (range) |')
    print('|---|---|---|---|---|')
    for topology, pairs in sorted(topologies.items()):
        both = [(a, b) for a, b in pairs if ok(a) and ok(b)]
        dates = [float(b['max_convergence_date']) / float(a['max_convergence_date']) for a, b in both]
        moved = [float(b['data_transfer_amount']) / float(a['data_transfer_amount']) for a, b in both]
        print(f'| {topology} | {len(pairs)} | {sum(ok(a) for a, _ in pairs)} / {sum(ok(b) for _, b in pairs)} '
              f'| {spread(dates)} | {spread(moved)} |')
    if figure:
        plot(figure, curves)


if __name__ == '__main__':
    main()
