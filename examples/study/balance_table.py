#!/usr/bin/env python3
"""Time-balanced against load-balanced runs of twin campaign specs (same settings, `balance` differs).

  balance_table.py LOAD.csv TIME.csv [NODES]
      pairs the rows of the two results files by their key columns (the version aside) and prints, per
      strategy variant and ratio, how many runs converged each way and, over the pairs where both did,
      the median and range of time / load for the maximum convergence date and the data moved.
Balancing by load, converged nodes hold the average: their iteration times spread as their speeds do,
which `hetlb simulate diffusion --format json` reports as `final_time_imbalance`; by time it is 1.
"""
import csv
import statistics
import sys

KEY = ['mode', 'strategy', 'k', 'virtual_load', 'integer', 'estimates', 'platform', 'nodes', 'topology', 'initial',
       'ratio', 'seed', 'load_per_node', 'iterations', 'time_limit', 'min_comp_iter', 'min_lb_iter']


def rows(path, nodes):
    return {tuple(r[c] for c in KEY): r for r in csv.DictReader(open(path)) if nodes is None or r['nodes'] == nodes}


def ok(r):
    return r['status'] == 'ok' and r['converged'] == '1'


def spread(values):
    if not values:
        return '-'
    return f'{statistics.median(values):.3f} ({min(values):.3f} to {max(values):.3f})'


def main():
    load, time = rows(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 else None), rows(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    groups = {}
    for key, a in load.items():
        b = time.get(key)
        if b is None:
            continue
        variant = a['strategy'] + (f" k={a['k']}" if a['strategy'] == 'besteffort' else '') + \
            (' +virtual' if a['virtual_load'] == 'true' else '')
        groups.setdefault((variant, float(a['ratio'])), []).append((a, b))
    print('| variant | ratio | pairs | converged by load / by time | max convergence date, time / load: median (range) '
          '| data moved, time / load: median (range) |')
    print('|---|---|---|---|---|---|')
    for (variant, ratio), pairs in sorted(groups.items(), key=lambda g: (g[0][0], -g[0][1])):
        both = [(a, b) for a, b in pairs if ok(a) and ok(b)]
        dates = [float(b['max_convergence_date']) / float(a['max_convergence_date']) for a, b in both]
        moved = [float(b['data_transfer_amount']) / float(a['data_transfer_amount']) for a, b in both]
        print(f'| {variant} | {ratio:g} | {len(pairs)} | {sum(ok(a) for a, _ in pairs)} / {sum(ok(b) for _, b in pairs)} '
              f'| {spread(dates)} | {spread(moved)} |')


if __name__ == '__main__':
    main()
