#!/usr/bin/env python3
"""The results files of tests/slurm/slurm_campaign_test.sh.

  rows.py count RESULTS.csv         prints the number of rows after checking that every row is whole
                                    (ends with a newline, as many cells as the header) and that no
                                    setting (the key columns, those before "status") has two rows
  rows.py same LOCAL.csv OTHER.csv  the same settings with the same cells, wall_seconds aside (the runs'
                                    own wall time); one line per difference, exit status 1 if any
"""
import csv
import sys


def read(path):
    with open(path, newline='') as f:
        text = f.read()
    if text and not text.endswith('\n'):
        sys.exit(f'{path}: the last row is cut short (no newline at the end)')
    lines = list(csv.reader(text.splitlines()))
    if not lines:
        return [], {}
    header = lines[0]
    if 'status' not in header:
        sys.exit(f'{path}: no status column in the header')
    keys = header.index('status')
    rows = {}
    for n, cells in enumerate(lines[1:], start=2):
        if len(cells) != len(header):
            sys.exit(f'{path}:{n}: {len(cells)} cells, the header has {len(header)}')
        key = tuple(cells[:keys])
        if key in rows:
            sys.exit(f'{path}:{n}: a second row for setting {",".join(key)}')
        rows[key] = dict(zip(header, cells))
    return header, rows


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'count':
        print(len(read(sys.argv[2])[1]))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == 'same':
        (header_a, a), (header_b, b) = read(sys.argv[2]), read(sys.argv[3])
        if header_a != header_b:
            print(f'headers differ: {header_a} and {header_b}')
            return 1
        differences = 0
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                print(f'{",".join(key)}: only in {sys.argv[2] if key in a else sys.argv[3]}')
                differences += 1
                continue
            for column in header_a:
                if column != 'wall_seconds' and a[key][column] != b[key][column]:
                    print(f'{",".join(key)}: {column} {a[key][column]!r} and {b[key][column]!r}')
                    differences += 1
        print(f'{len(a)} and {len(b)} rows, {differences} differences')
        return 1 if differences else 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
