#!/usr/bin/env python3
"""The study's verdicts, cell by cell, from the committed convergence rows (runs no simulation).

    python3 study/verdicts.py [--out DIR] [--rows DIR] [--check]

One definition of "faster" everywhere: the paired ratio of convergence dates, the other side's date over
the subject's (above 1: the subject converges earlier). A pair is two runs that differ only in what is
compared (same platform, size, topology, initial load, ratio, load kind, virtual-load setting, seed).

* Question 1: each k of best effort (1, 2, 4) against Makhoul and against simple, separately.
* Question 2: each strategy variant with virtual load against the same variant without it.
* Best effort's k: k = 2 and k = 4 against k = 1.

A cell is (nodes, platform, topology, initial, ratio, load kind[, virtual load]): never pooled across
sizes, topologies or anything else. Per cell and metric (the maximum and the average convergence date
over nodes): the geometric mean of the paired ratios over the seeds where both runs converge, the
distribution-free interval of the median ratio (the sign test inverted, its coverage given: 97.9% at 10
seeds, 93.75% at 5, 75% at 3), the exact two-sided p-value of the paired permutation (sign-flip) test of
the mean log-ratio and its Benjamini-Hochberg adjustment over the table's tested cells (a question file
and a metric make a table), the seeds where the subject is faster, and beside them the pairs where only
the subject converges, only the other side, neither, and the undecided ones (a run of the pair stopped
by the campaign's wall-clock timeout: kept out of every verdict and listed in undecided.csv).

Verdict (decide()): random loads, with 2 or more pairs where both converge: "faster" / "slower" when
the adjusted p-value is at most ALPHA (0.05; the direction is the mean log-ratio's), else "tie" (at 3
and 5 seeds an exact test cannot reach 0.05: its smallest p-value is 0.25 and 0.0625). A single loaded
node has no seed (one deterministic run per side): its ratio against the tolerance T, "faster" above T,
"slower" below 1/T, "tie" between; T is the 95% quantile of the spread between relabelled twins (the
16-node torus and hypercube are one graph: each comparison's ratio on one labelling over the other),
computed from the rows per metric, and a 16-node single-node cell of the torus or the hypercube needs
its twin to agree. A cell resting on one pair (a single node without a twin; random loads where one
seed only converges on both sides) is marked one_pair and left out of the headline counts. "only
subject" / "only other" when no pair converges on both sides but some on one; "none" when neither
converges in any decided pair; "undecided" when every pair is. A random-load cell with fewer than 3
pairs (the fewest seeds a spec gives; its runs still coming in) is not judged yet. previous_verdict is
the verdict of the method used before (95% percentile bootstrap interval, no correction, no tolerance),
kept so that method.md can say how many verdicts changed.

Writes into DIR (default docs/study/verdicts): q1-besteffort.csv, q2-virtual.csv, k.csv (a row per cell,
comparison and metric), undecided.csv, answers.md (the page's answers: per question, size and topology,
the count of faster / tie / slower cells per comparison with the one-sided pairs beside them; -avg by
the average date; answers-by-ratio*.md the same per computation/communication ratio), short-lines.md
(the page's answers in short: a line per question and size), in-short.md (the README's lines), method.md
(the tolerance and the verdicts the method changed), figure
data (fig-*.dat) and, when gnuplot is installed, the figures (fig-*.svg). With --check it writes nothing
and exits 1 naming each table (csv, md, dat) that differs from what the rows give, 77 if a campaign is
writing a results file.
"""
import argparse
import csv
import functools
import io
import itertools
import math
import operator
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict

from committed_table import rows_file

try:  # the resampled intervals, faster; the same numbers without it
    import numpy
except ImportError:
    numpy = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
# The convergence results the verdicts read: every file present (rows of a later spec_version with new
# seeds join the same cells; a run present in two files is refused). Within a file a later row of a run
# replaces an earlier one, as for the campaign (a timeout rerun with --retry).
RESULTS = ["convergence.csv", "convergence-1024.csv", "convergence-seeds.csv", "convergence-seeds-256.csv"]
CELL = ("nodes", "platform", "topology", "initial", "ratio", "integer")
METRICS = {"max": "max_convergence_date", "avg": "avg_convergence_date"}
TOPOLOGIES = ["line", "torus", "hypercube"]
# The fewest seeds any spec gives random loads: a random-load comparison with fewer pairs (its runs
# still coming in, a piece at a time) is not judged yet.
MIN_RANDOM_SEEDS = 3
EXACT_UP_TO = 7
RESAMPLES = 20000
# The verdict's level: a random-load cell is faster or slower when its exact paired permutation test,
# adjusted by Benjamini-Hochberg over the cells of its table (question file and metric), is at most ALPHA.
ALPHA = 0.05
# A deterministic cell's tolerance: the TOLERANCE_QUANTILE of the spread between relabelled twins (the
# 16-node torus and hypercube are one graph), computed from the rows per metric.
TOLERANCE_QUANTILE = 0.95


def read_rows(check, rows_dir):
    runs = {}
    for name in RESULTS:
        path = os.path.join(rows_dir, name)
        if not os.path.exists(path):
            continue
        mine = {}
        with rows_file(path, check, "verdicts.py") as f:
            for r in csv.DictReader(f):
                if r["mode"] != "convergence":
                    continue
                key = tuple(r[c] for c in CELL) + (r["virtual_load"], r["strategy"], r["k"], r["seed"])
                if key in runs:
                    sys.exit(f"verdicts.py: {path}: run {key} is also in an earlier results file; expected each "
                             "run in one file")
                mine[key] = r  # a later row of the run replaces an earlier one
        runs.update(mine)
    return runs


def outcome(row, metric):
    """None: undecided (wall-clock timeout); "no": did not converge; else the date in tau."""
    if row["status"] == "timeout":
        return None
    if row["status"] != "ok" or row["converged"] != "1":
        return "no"
    return float(row[METRICS[metric]]) / float(row["tau"])


def quantiles(values, weights, lo=0.025, hi=0.975):
    """Inverse-CDF quantiles of a weighted discrete distribution."""
    order = sorted(zip(values, weights))
    total = sum(weights)
    out = []
    for q in (lo, hi):
        acc = 0.0
        for v, w in order:
            acc += w
            if acc >= q * total - 1e-12:
                out.append(v)
                break
    return out


def bootstrap(logs, stream):
    """95% percentile interval of the mean of `logs` (exact over resamples for few values)."""
    n = len(logs)
    if n <= EXACT_UP_TO:
        values, weights = [], []
        for combo in itertools.combinations_with_replacement(range(n), n):
            counts = defaultdict(int)
            for i in combo:
                counts[i] += 1
            w = math.factorial(n)
            for c in counts.values():
                w //= math.factorial(c)
            values.append(sum(logs[i] for i in combo) / n)
            weights.append(w)
        return quantiles(values, weights)
    rng = random.Random(f"hetlb-study-verdicts {stream}")
    if numpy is not None:
        return resampled_interval_numpy(logs, rng)
    picks = resample_indices(rng, n, RESAMPLES * n)
    drawn = map(logs.__getitem__, picks)
    # Each resample's sum, added left to right; the quantiles of the sums divided by n are those of the
    # means (x / n keeps the order), and equally weighted values need no running sum.
    sums = sorted(map(left_to_right, zip(*[drawn] * n)))
    return [sums[equal_weight_rank(q, len(sums))] / n for q in (0.025, 0.975)]


def resampled_interval_numpy(logs, rng, resamples=RESAMPLES):
    """bootstrap()'s resampled interval, the same numbers: numpy's MT19937 started from `rng`'s state gives
    the 32-bit words getrandbits() would, kept as resample_indices() keeps them, and each resample's sum is
    added left to right."""
    n, count = len(logs), resamples * len(logs)
    k = n.bit_length()
    state = rng.getstate()[1]
    mt = numpy.random.MT19937()
    mt.state = {"bit_generator": "MT19937", "state": {"key": numpy.array(state[:624], dtype=numpy.uint32),
                                                       "pos": state[624]}}
    words = numpy.random.RandomState(mt)  # randint over all of uint32: the generator's words as they come
    picks, have = [], 0
    while have < count:
        needed = count - have
        top = words.randint(0, 2 ** 32, size=needed * (1 << k) // n + needed // 32 + 64, dtype=numpy.uint32)
        if k <= 8 and sys.byteorder == "little":  # a word's top k bits are its most significant byte's
            top = top.view(numpy.uint8)[3::4] >> (8 - k)
        else:
            top >>= 32 - k
        top = numpy.compress(top < n, top)
        picks.append(top)
        have += len(top)
    drawn = numpy.array(logs)[numpy.concatenate(picks)[:count].astype(numpy.intp)].reshape(resamples, n)
    sums = drawn[:, 0].copy()
    for j in range(1, n):
        sums += drawn[:, j]
    sums.sort()
    return [float(sums[equal_weight_rank(q, count // n)]) / n for q in (0.025, 0.975)]


def left_to_right(values):
    """The sum of `values` added in order (Python 3.12's sum() compensates; the committed intervals do not)."""
    return functools.reduce(operator.add, values)


def equal_weight_rank(q, count):
    """The index quantiles() stops at for `count` values of weight 1: the first i with i + 1 >= q count."""
    return max(0, math.ceil(q * count - 1e-12) - 1)


def resample_indices(rng, n, count):
    """The first `count` values of rng.choice(range(n)), drawn in bulk: choice() takes getrandbits(k) (one
    32-bit word of the generator, its top k bits, k = n.bit_length()) until below n, and
    getrandbits(32 m) gives m such words, the first drawn least significant. The same draws, faster."""
    k = n.bit_length()
    assert 0 < k <= 32
    if k <= 8:  # top k bits of each word = its most significant byte >> (8 - k): bytes ops, C speed
        keep = bytes(b >> (8 - k) if b >> (8 - k) < n else 0 for b in range(256))
        drop = bytes(b for b in range(256) if b >> (8 - k) >= n)
        out = b""
        while len(out) < count:
            m = 2 * (count - len(out)) + 64
            top = rng.getrandbits(32 * m).to_bytes(4 * m, "little")[3::4]
            out += top.translate(keep, drop)
        return out[:count]
    out = []
    while len(out) < count:
        m = 2 * (count - len(out)) + 64
        words = struct.unpack(f"<{m}I", rng.getrandbits(32 * m).to_bytes(4 * m, "little"))
        out.extend(r for r in (w >> (32 - k) for w in words) if r < n)
    return out[:count]


def sign_flip_p(logs):
    """Exact two-sided p-value of the paired permutation (sign-flip) test of the mean log-ratio: under the
    null hypothesis that the two sides of a pair are exchangeable, each log-ratio's sign is +/- with
    probability 1/2; p = the share of the 2^n sign vectors whose |sum| is at least the observed one. Its
    smallest value is 2 / 2^n: 0.25 at 3 seeds, 0.0625 at 5, 0.002 at 10."""
    n = len(logs)
    observed = abs(sum(logs))
    mags = [abs(x) for x in logs]
    eps = 1e-9 * (sum(mags) or 1.0)
    hits = 0
    for signs in range(1 << n):
        total = sum(m if signs >> i & 1 else -m for i, m in enumerate(mags))
        if abs(total) >= observed - eps:
            hits += 1
    return hits / (1 << n)


def binom_cdf_half(k, n):
    """P(Bin(n, 1/2) <= k), exact."""
    return sum(math.comb(n, i) for i in range(0, k + 1)) / 2 ** n


def median_interval(ratios, level=0.95):
    """Distribution-free interval of the median ratio (the sign test inverted): the j-th lowest and j-th
    highest ratio, j the largest with coverage 1 - 2 P(Bin(n, 1/2) <= j - 1) >= level; with too few seeds
    for that level (n < 6), the lowest and highest, whose coverage (0.75 at 3, 0.9375 at 5) is given."""
    xs = sorted(ratios)
    n = len(xs)
    j = 1
    while j + 1 <= n // 2 and 1 - 2 * binom_cdf_half(j, n) >= level:
        j += 1
    return xs[j - 1], xs[n - j], 1 - 2 * binom_cdf_half(j - 1, n)


def benjamini_hochberg(pvalues):
    """Benjamini-Hochberg adjusted p-values (step-up), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = running
    return adjusted


def judge(pairs, stream):
    """pairs: (seed, subject outcome, other outcome). A verdict row's numbers."""
    both, only_s, only_o, neither, undecided = [], 0, 0, 0, 0
    for seed, s, o in pairs:
        if s is None or o is None:
            undecided += 1
        elif s == "no" and o == "no":
            neither += 1
        elif s == "no":
            only_o += 1
        elif o == "no":
            only_s += 1
        else:
            both.append(o / s)
    row = {"seeds": len(pairs), "both_converge": len(both), "only_subject": only_s, "only_other": only_o,
           "neither": neither, "undecided": undecided, "date_ratio": "", "ci_low": "", "ci_high": "",
           "subject_faster_seeds": sum(r > 1 for r in both)}
    row.update({"ci_level": "", "p_value": "", "p_adjusted": "", "replicates": len(both), "one_pair": 0})
    if both:
        logs = [math.log(r) for r in both]
        row["date_ratio"] = f"{math.exp(sum(logs) / len(logs)):.4f}"
        if len(both) == 1:
            lo = hi = both[0]
        else:
            blo, bhi = (math.exp(v) for v in bootstrap(logs, stream))
            lo, hi = blo, bhi
            mlo, mhi, level = median_interval(both)
            row["ci_low"], row["ci_high"], row["ci_level"] = f"{mlo:.4f}", f"{mhi:.4f}", f"{level:.4f}"
            row["p_value"] = f"{sign_flip_p(logs):.6f}"
        # The previous method's verdict (95% percentile bootstrap interval, no correction, no tolerance):
        # kept beside the verdict so that the page can say how many verdicts the method changed.
        row["previous_verdict"] = "faster" if lo > 1 else "slower" if hi < 1 else "tie"
        row["verdict"] = ""  # set by decide(), which needs the whole table
    else:
        row["verdict"] = ("only subject" if only_s and not only_o else "only other" if only_o and not only_s else
                          "split" if only_s and only_o else "none" if neither else "undecided")
        row["previous_verdict"] = row["verdict"]
    return row


def twin(row):
    """The relabelled twin's key of a 16-node single-node row: the 4x4 torus and the 4-dimensional hypercube
    are one graph (C4 x C4 = Q4) and a single loaded node is node 0 of either, so the twin is the same
    run on the other labelling. None where no relabelled twin is in the rows."""
    if row["nodes"] != "16" or row["initial"] != "single" or row["topology"] not in ("torus", "hypercube"):
        return None
    other = "hypercube" if row["topology"] == "torus" else "torus"
    return row_key(row, topology=other)


def row_key(row, **change):
    r = dict(row, **change)
    return (r["subject"], r["other"], r["metric"], r["nodes"], r["platform"], r["topology"], r["initial"],
            r["ratio"], r["integer"], r.get("virtual_load", ""))


def tolerances(tables):
    """{metric: (tolerance factor, [twin spreads])}: per metric, the TOLERANCE_QUANTILE (nearest rank) of
    |log(ratio) - log(twin's ratio)| over the 16-node single-node rows of every table whose pair and twin's
    pair both converge, each twin pair once."""
    out = {}
    for metric in METRICS:
        index = {row_key(r): r for rows in tables.values() for r in rows if r["metric"] == metric}
        spreads = []
        for key, r in index.items():
            t = twin(r)
            if t is None or r["topology"] != "torus" or t not in index:
                continue
            a, b = r["date_ratio"], index[t]["date_ratio"]
            if a and b:
                spreads.append(abs(math.log(float(a)) - math.log(float(b))))
        spreads.sort()
        rank = max(0, math.ceil(TOLERANCE_QUANTILE * len(spreads)) - 1)
        out[metric] = (math.exp(spreads[rank]) if spreads else 1.0, spreads)
    return out


def decide(tables):
    """Every row's verdict, table by table (a question file's rows of one metric are one table).

    Random loads: with 2 or more pairs where both converge, "faster"/"slower" when the exact paired
    permutation test's p-value, Benjamini-Hochberg-adjusted over the table's such cells, is at most ALPHA
    (the direction: the mean log-ratio's sign), else "tie"; on one such pair, that pair's ratio against
    the tolerance below, marked one_pair (outside the headline counts).
    A single loaded node (one deterministic run per side): its ratio against the tolerance T (faster if
    above T, slower if below 1/T, tie between); where a relabelled twin exists (16 nodes, torus and
    hypercube) both ratios must agree, else the cell rests on one pair and is marked so."""
    tol = tolerances(tables)
    for question, rows in tables.items():
        for metric in METRICS:
            sel = [r for r in rows if r["metric"] == metric]
            index = {row_key(r): r for r in sel}
            tested = [r for r in sel if r["p_value"] != "" and r["initial"] == "random"]
            for r, q in zip(tested, benjamini_hochberg([float(r["p_value"]) for r in tested])):
                r["p_adjusted"] = f"{q:.6f}"
                up = math.log(float(r["date_ratio"])) > 0
                r["verdict"] = ("faster" if up else "slower") if q <= ALPHA else "tie"
            factor = tol[metric][0]
            for r in sel:
                if not r["date_ratio"] or r["verdict"]:
                    continue
                ratios = [float(r["date_ratio"])]
                t = twin(r)
                if t is not None and t in index and index[t]["date_ratio"]:
                    ratios.append(float(index[t]["date_ratio"]))
                if r["initial"] == "random" or len(ratios) == 1:
                    r["one_pair"] = 1
                r["replicates"] = len(ratios)
                r["verdict"] = ("faster" if all(x > factor for x in ratios) else
                                "slower" if all(x < 1 / factor for x in ratios) else "tie")
    return tol


def label(strategy, k, virtual=None):
    name = f"best effort k={k}" if strategy == "besteffort" else {"makhoul": "Makhoul", "simple": "simple"}[strategy]
    return name + (" + virtual" if virtual == "true" else "")


def comparisons():
    """(question file, subject, other, does virtual load split the cells) as (strategy, k, virtual)."""
    out = []
    for k in ("1", "2", "4"):
        for other in ("makhoul", "simple"):
            out.append(("q1-besteffort", ("besteffort", k, None), (other, "1", None)))
    for s, k in (("besteffort", "1"), ("besteffort", "2"), ("besteffort", "4"), ("makhoul", "1"), ("simple", "1")):
        out.append(("q2-virtual", (s, k, "true"), (s, k, "false")))
    for k in ("2", "4"):
        out.append(("k", ("besteffort", k, None), ("besteffort", "1", None)))
    return out


def cell_sort(cell):
    nodes, platform, topology, initial, ratio, integer = cell[:6]
    return (int(nodes), platform, TOPOLOGIES.index(topology), initial, -float(ratio), integer) + cell[6:]


def verdict_tables(runs):
    """{file: [row dict]}"""
    cells = defaultdict(set)  # cell (with virtual) -> seeds
    for key in runs:
        cells[key[:7]].add(key[9])
    tables = defaultdict(list)
    for question, subject, other in comparisons():
        for metric in METRICS:
            for cell in sorted(cells, key=cell_sort):
                base, virtual = cell[:6], cell[6]
                if subject[2] is not None and virtual != "false":
                    continue  # question 2: one cell per (configuration), virtual load is the compared thing
                pairs = []
                for seed in sorted(cells[cell], key=int):
                    sv = subject[2] or virtual
                    ov = other[2] or virtual
                    a = runs.get(base + (sv, subject[0], subject[1], seed))
                    b = runs.get(base + (ov, other[0], other[1], seed))
                    if a is None or b is None:
                        continue  # not run yet
                    pairs.append((seed, outcome(a, metric), outcome(b, metric)))
                if not pairs or (base[3] == "random" and len(pairs) < MIN_RANDOM_SEEDS):
                    continue  # not run yet: a random-load cell is judged on every seed of its spec
                stream = "/".join(cell + (question, subject[0], subject[1], other[0], other[1], metric))
                row = dict(zip(CELL, base))
                row = {"subject": label(subject[0], subject[1], subject[2]),
                       "other": label(other[0], other[1], other[2]), "metric": metric, **row}
                if subject[2] is None:
                    row["virtual_load"] = virtual
                row.update(judge(pairs, stream))
                tables[question].append(row)
    decide(tables)
    return tables


def undecided_table(runs):
    rows = []
    for key in sorted(runs, key=lambda k: cell_sort(k[:7]) + (k[7], k[8], int(k[9]))):
        r = runs[key]
        if r["status"] == "timeout":
            rows.append({c: r[c] for c in CELL + ("virtual_load", "strategy", "k", "seed", "spec_version")} |
                        {"error": r["error"]})
    return rows


def to_csv(rows):
    if not rows:
        return ""
    s = io.StringIO()
    w = csv.DictWriter(s, fieldnames=list(rows[0].keys()), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return s.getvalue()


def headline(r):
    """A row counted in the faster/tie/slower counts: a decided verdict not resting on one pair."""
    return r["verdict"] in ("faster", "tie", "slower") and not r["one_pair"]


def unanimous(r):
    """A tie (random loads, 2 or more pairs) whose every decided seed goes one way: +1 subject faster on
    every seed, -1 slower on every seed, 0 otherwise. Descriptive only: no verdict."""
    if r["verdict"] != "tie" or r["initial"] != "random" or r["one_pair"] or r["both_converge"] < 2:
        return 0
    return 1 if r["subject_faster_seeds"] == r["both_converge"] else -1 if r["subject_faster_seeds"] == 0 else 0


def tally(rows):
    c = defaultdict(int)
    for r in rows:
        if headline(r):
            c[r["verdict"]] += 1
            c["tie>"] += unanimous(r) > 0
            c["tie<"] += unanimous(r) < 0
        elif r["one_pair"]:
            c["one"] += 1
        else:
            c[r["verdict"]] += 1
        c["+"] += r["only_subject"]
        c["-"] += r["only_other"]
        c["u"] += r["undecided"]
    return c


def count_cell(rows):
    """'F/T/S' (+only subject/-only other, n neither, u undecided, ties every seed one way, cells on one
    pair left out of F/T/S) over verdict rows."""
    if not rows:
        return "-"
    c = tally(rows)
    text = f"{c['faster']}/{c['tie']}/{c['slower']}"
    extra = []
    if c["+"] or c["-"]:
        extra.append(f"+{c['+']}/-{c['-']}")
    if c["none"]:
        extra.append(f"{c['none']} none")
    if c["u"]:
        extra.append(f"{c['u']} undecided")
    if c["tie>"] or c["tie<"]:
        extra.append(f"ties one way {c['tie>']}/{c['tie<']}")
    if c["one"]:
        extra.append(f"{c['one']} on one pair")
    return text + (" (" + ", ".join(extra) + ")" if extra else "")


def answers(tables, metric, by_ratio=False):
    """Markdown: per question a table, a row per (size, topology[, ratio]), a column per comparison."""
    out = []
    titles = {"q1-besteffort": "Question 1: best effort (subject) against Makhoul and simple",
              "q2-virtual": "Question 2: with virtual load (subject) against without",
              "k": "Best effort's k: k = 2 and 4 (subject) against k = 1"}
    for question in ("q1-besteffort", "q2-virtual", "k"):
        rows = [r for r in tables[question] if r["metric"] == metric]
        comps = []
        for r in rows:
            if (r["subject"], r["other"]) not in comps:
                comps.append((r["subject"], r["other"]))
        groups = defaultdict(list)
        for r in rows:
            place = (int(r["nodes"]), r["topology"]) + ((r["ratio"],) if by_ratio else ())
            groups[place + (r["subject"], r["other"])].append(r)
        places = sorted({g[:-2] for g in groups}, key=lambda p: (p[0], TOPOLOGIES.index(p[1])) +
                        ((-float(p[2]),) if by_ratio else ()))
        out.append(f"{titles[question]}, {metric} convergence date: cells faster/tie/slower "
                   "(+pairs where only the subject converges/-only the other)\n")
        out.append("| nodes | topology | " + ("ratio | " if by_ratio else "") +
                   " | ".join(f"{s} vs {o}" for s, o in comps) + " |")
        out.append("|---" * (len(comps) + 2 + by_ratio) + "|")
        for place in places:
            out.append(f"| {place[0]:,} | " + " | ".join(place[1:]) + " | " +
                       " | ".join(count_cell(groups.get(place + (s, o), [])) for s, o in comps) + " |")
        out.append("")
        out.append("What each size's cells rest on: " + "; ".join(
            f"{n:,} nodes: {scope(rows, n)}" for n in sorted({int(r['nodes']) for r in rows})) + ".")
        out.append("")
    return "\n".join(out)


def scope(rows, nodes):
    """What a size's cells rest on, from its rows: the initial loads, the seeds of its random-load cells,
    the ratios, the topologies (at 1,024 nodes far less than at the smaller sizes)."""
    sel = [r for r in rows if int(r["nodes"]) == nodes]
    seeds = sorted({int(r["seeds"]) for r in sel if r["initial"] == "random"})
    ratios = sorted({r["ratio"] for r in sel}, key=lambda x: -float(x))
    tops = [t for t in TOPOLOGIES if any(r["topology"] == t for r in sel)]
    parts = []
    if seeds:
        parts.append("random loads, " + "/".join(map(str, seeds)) + " seeds")
    if any(r["initial"] == "single" for r in sel):
        parts.append("single node" + (" (relabelled twins)" if nodes == 16 else " (one run, outside the counts)"))
    else:
        parts.append("no single node")
    parts.append("ratios " + ", ".join(ratios))
    if len(tops) < len(TOPOLOGIES):
        parts.append(" and ".join(tops) + " only")
    return "; ".join(parts)


def in_short(tables):
    """The README's lines: best effort k = 1 against Makhoul, cells faster/tie/slower (maximum date) per
    topology, one line per size with what that size's cells rest on (never pooled across sizes)."""
    rows = [r for r in tables["q1-besteffort"] if r["metric"] == "max" and
            (r["subject"], r["other"]) == ("best effort k=1", "Makhoul")]
    out = []
    for nodes in sorted({int(r["nodes"]) for r in rows}):
        places = []
        for topology in TOPOLOGIES:
            sel = [r for r in rows if int(r["nodes"]) == nodes and r["topology"] == topology]
            if sel:
                places.append(f"{topology} {count_cell(sel)}")
        out.append(f"- {nodes:,} nodes ({scope(rows, nodes)}): " + ", ".join(places) + ".")
    return "\n".join(out)


def majority(rows):
    """'faster (28/1/19)': the most frequent verdict among the cells of the headline counts (faster, tie,
    slower; the first of them on equal counts), then the counts faster/tie/slower, the pairs where only
    one side converges (+subject/-other), the ties whose every seed goes one way and the cells on one
    pair (left out of the counts)."""
    c = tally(rows)
    extra = []
    if c["+"] or c["-"]:
        extra.append(f"+{c['+']}/-{c['-']}")
    if c["tie>"] or c["tie<"]:
        extra.append(f"ties one way {c['tie>']}/{c['tie<']}")
    if c["one"]:
        extra.append(f"{c['one']} on one pair")
    decided = c["faster"] + c["tie"] + c["slower"]
    if not decided:
        return "none decided" + (" (" + ", ".join(extra) + ")" if extra else "")
    word = max(("faster", "tie", "slower"), key=lambda w: c[w])
    return f"{word} ({c['faster']}/{c['tie']}/{c['slower']}" + "".join(", " + e for e in extra) + ")"


def short_lines(tables, metric="max"):
    """The page's answers in short: one line per question and size, numbers only. Per topology the
    verdict most cells give (majority), then the cells faster/tie/slower and the one-sided pairs."""
    questions = [
        ("Question 1", "q1-besteffort", [("best effort k = 1 against Makhoul", "best effort k=1", "Makhoul"),
                                         ("against simple", "best effort k=1", "simple")]),
        ("Question 2", "q2-virtual", [(f"{name} with virtual load against without", f"{name} + virtual", name)
                                      for name in ("best effort k=1", "Makhoul")]),
        ("k", "k", [("best effort k = 2 against k = 1", "best effort k=2", "best effort k=1"),
                    ("k = 4", "best effort k=4", "best effort k=1")]),
    ]
    out = []
    for title, question, comps in questions:
        rows = [r for r in tables[question] if r["metric"] == metric]
        for nodes in sorted({int(r["nodes"]) for r in rows}):
            parts = []
            for what, subject, other in comps:
                places = []
                for topology in TOPOLOGIES:
                    sel = [r for r in rows if int(r["nodes"]) == nodes and r["topology"] == topology and
                           (r["subject"], r["other"]) == (subject, other)]
                    if sel:
                        places.append(f"{topology} {majority(sel)}")
                parts.append(f"{what}: " + ", ".join(places))
            out.append(f"- **{title}, {nodes:,} nodes** ({scope(rows, nodes)}): " + "; ".join(parts) + ".")
    return "\n".join(out) + "\n"


def method_text(tables):
    """method.md: the tolerance as the rows give it, and how many verdicts the method changed from the
    previous one (95% percentile bootstrap interval, no correction across cells, no tolerance), per table."""
    tol = tolerances(tables)
    out = []
    for metric, (factor, spreads) in tol.items():
        if not spreads:
            continue
        pct = lambda q: (math.exp(spreads[max(0, math.ceil(q * len(spreads)) - 1)]) - 1) * 100
        out.append(f"- **Tolerance, {metric} date**: T = {factor:.3f}, the {TOLERANCE_QUANTILE:.0%} quantile of the "
                   f"spread between {len(spreads)} relabelled twin pairs (16 nodes, single node, torus against "
                   f"hypercube: the ratio of each comparison on one labelling over the other); the spread's median "
                   f"is {pct(0.5):.1f}%, its 90% quantile {pct(0.9):.1f}%, its largest {pct(1.0):.1f}%.")
    out.append("")
    out.append("Verdicts changed from the previous method (95% percentile bootstrap, no correction, no tolerance, "
               "cells on one pair counted), per table; *judged*: cells with a faster, tie or slower verdict either "
               "way:")
    out.append("")
    out.append("| table | date | judged | changed | faster to tie | slower to tie | tie to faster | tie to slower "
               "| other | now on one pair (out of the counts) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    names = {"q1-besteffort": "question 1", "q2-virtual": "question 2", "k": "best effort's k"}
    for question in ("q1-besteffort", "q2-virtual", "k"):
        for metric in METRICS:
            sel = [r for r in tables[question] if r["metric"] == metric and
                   r["previous_verdict"] in ("faster", "tie", "slower")]
            moves = defaultdict(int)
            for r in sel:
                if r["previous_verdict"] != r["verdict"]:
                    moves[(r["previous_verdict"], r["verdict"])] += 1
            named = [("faster", "tie"), ("slower", "tie"), ("tie", "faster"), ("tie", "slower")]
            other = sum(v for k, v in moves.items() if k not in named)
            out.append(f"| {names[question]} | {metric} | {len(sel):,} | {sum(moves.values()):,} | " +
                       " | ".join(str(moves[k]) for k in named) + f" | {other} | {sum(r['one_pair'] for r in sel)} |")
    return "\n".join(out) + "\n"


def figure_data(runs, tables):
    """fig-dates.dat: question 1's dates against size (cluster, random loads, ratio 1, real load, no virtual
    load): per topology and strategy, the geometric mean over seeds and the lowest and highest seed;
    fig-ratios.dat: the paired ratios with their intervals of best effort k = 1 against Makhoul, virtual
    load against none and k = 4 against k = 1, same setting."""
    lines = ["# topology strategy nodes mean low high (max convergence date in tau; cluster, random, ratio 1, real"
             " load, no virtual load; seeds converged/all)"]
    for topology in TOPOLOGIES:
        for s, k in (("besteffort", "1"), ("besteffort", "2"), ("besteffort", "4"), ("makhoul", "1"),
                     ("simple", "1")):
            for nodes in sorted({int(key[0]) for key in runs}):
                dates, total = [], 0
                for key, r in runs.items():
                    if key[:7] == (str(nodes), "cluster", topology, "random", "1", "false", "false") and \
                            key[7:9] == (s, k):
                        total += 1
                        o = outcome(r, "max")
                        if isinstance(o, float):
                            dates.append(o)
                if dates:
                    mean = math.exp(sum(math.log(d) for d in dates) / len(dates))
                    lines.append(f"{topology} {label(s, k).replace(' ', '_')} {nodes} {mean:.2f} {min(dates):.2f} "
                                 f"{max(dates):.2f} {len(dates)}/{total}")
    dates = "\n".join(lines) + "\n"
    lines = ["# comparison topology nodes ratio low high verdict (max date; cluster, random, ratio 1, real load,"
             " no virtual load where it is not compared)"]
    picks = [("q1-besteffort", "best effort k=1", "Makhoul"), ("q1-besteffort", "best effort k=1", "simple"),
             ("q2-virtual", "best effort k=1 + virtual", "best effort k=1"),
             ("q2-virtual", "Makhoul + virtual", "Makhoul"), ("k", "best effort k=4", "best effort k=1")]
    for question, subject, other in picks:
        for r in tables[question]:
            if (r["subject"], r["other"], r["metric"], r["platform"], r["initial"], r["ratio"], r["integer"]) == \
                    (subject, other, "max", "cluster", "random", "1", "false") and r.get("virtual_load", "false") == \
                    "false" and r["date_ratio"]:
                lines.append(f"{(subject + '_vs_' + other).replace(' ', '_')} {r['topology']} {r['nodes']} {r['date_ratio']}"
                             f" {r['ci_low'] or r['date_ratio']} {r['ci_high'] or r['date_ratio']} {r['verdict']}")
    return dates, "\n".join(lines) + "\n"


GNUPLOT = r"""
set terminal svg size 900,330 dynamic font 'sans,11'
set termoption noenhanced
set output '{out}/fig-dates.svg'
set multiplot layout 1,3 title 'Question 1: max convergence date against size (cluster, random loads, ratio 1, real load; seeds: geometric mean, bars lowest-highest)'
set logscale xy
set xrange [10:1600]
set xtics (16, 64, 256, 1024)
set xlabel 'nodes'
set key top left font ',9'
do for [t in 'line torus hypercube'] {{
  set title t
  set ylabel 'date (tau)'
  plot for [s in 'best_effort_k=1 best_effort_k=2 best_effort_k=4 Makhoul simple'] \
    '{out}/fig-dates.dat' using ((strcol(1) eq t && strcol(2) eq s) ? $3 : NaN):4:5:6 with yerrorlines title s
}}
unset multiplot
set output '{out}/fig-ratios.svg'
set terminal svg size 900,330 dynamic font 'sans,11'
set multiplot layout 1,3 title 'Paired ratios (other / subject; above 1: the subject is faster), intervals of the median (97.9% at 10 seeds, 93.75% at 5, 75% at 3): cluster, random loads, ratio 1, real load'
unset logscale x
set logscale y
set xrange [0.5:5.5]
set xtics ('k=1 vs Makhoul' 1, 'k=1 vs simple' 2, 'virt. (k=1)' 3, 'virt. (Makhoul)' 4, 'k=4 vs k=1' 5) rotate by 30 right font ',9'
set xlabel ''
set key top right font ',9'
do for [t in 'line torus hypercube'] {{
  set title t
  set ylabel 'ratio'
  plot 1 with lines lc 'grey' notitle, \
    for [n in '16 64 256 1024'] '{out}/fig-ratios.dat' using ((strcol(2) eq t && strcol(3) eq n) ? \
      (strcol(1) eq 'best_effort_k=1_vs_Makhoul' ? 1 : strcol(1) eq 'best_effort_k=1_vs_simple' ? 2 : \
       strcol(1) eq 'best_effort_k=1_+_virtual_vs_best_effort_k=1' ? 3 : \
       strcol(1) eq 'Makhoul_+_virtual_vs_Makhoul' ? 4 : 5) + (log(n + 0) / log(4) - 3.5) * 0.13 : NaN):4:5:6 \
      with yerrorbars pt 7 title n.' nodes'
}}
unset multiplot
"""


def write_all(out, tables, runs):
    files = {f"{q}.csv": to_csv(rows) for q, rows in tables.items()}
    files["undecided.csv"] = to_csv(undecided_table(runs))
    files["answers.md"] = answers(tables, "max")
    files["answers-avg.md"] = answers(tables, "avg")
    files["answers-by-ratio.md"] = answers(tables, "max", by_ratio=True)
    files["answers-by-ratio-avg.md"] = answers(tables, "avg", by_ratio=True)
    files["fig-dates.dat"], files["fig-ratios.dat"] = figure_data(runs, tables)
    files["in-short.md"] = in_short(tables) + "\n"
    files["short-lines.md"] = short_lines(tables)
    files["method.md"] = method_text(tables)
    os.makedirs(out, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(out, name + ".tmp"), "w") as f:
            f.write(text)
        os.replace(os.path.join(out, name + ".tmp"), os.path.join(out, name))
    return files


def self_test():
    """The exact interval (multisets weighted by their multinomial count) against the brute-force one (all
    n^n ordered resamples, equally likely) on seeded random samples, 1 to 6 values."""
    rng = random.Random(1)
    for trial in range(300):
        n = 1 + trial % 6
        logs = [rng.choice([rng.gauss(0, 0.3), 0.0, 0.1]) for _ in range(n)]
        means = [sum(logs[i] for i in combo) / n for combo in itertools.product(range(n), repeat=n)]
        brute = quantiles(means, [1] * len(means))
        exact = bootstrap(logs, "self-test")
        if any(abs(x - y) > 1e-12 for x, y in zip(brute, exact)):
            sys.exit(f"verdicts.py: self-test: {logs}: exact interval {exact}, brute force {brute}")
    print("verdicts.py: self-test: the exact bootstrap interval is the brute-force one on 300 samples")
    for n in (8, 10, 13, 100, 255, 256, 1000):  # the bulk draws of the resampled intervals
        expected = random.Random(f"self-test {n}")
        if list(resample_indices(random.Random(f"self-test {n}"), n, 3000)) != [expected.choice(range(n))
                                                                                for _ in range(3000)]:
            sys.exit(f"verdicts.py: self-test: resample_indices differs from random.choice for n = {n}")
    print("verdicts.py: self-test: the bulk resample draws are random.choice's")
    # A random-load cell is judged once it has 3 pairs (its pieces still coming in before); a single
    # loaded node's cell on its one pair.
    def run(date):
        return {"status": "ok", "converged": "1", "max_convergence_date": date, "avg_convergence_date": date,
                "tau": "1"}
    runs = {}
    for initial, seeds in (("random", ("1", "2")), ("single", ("1",))):
        for seed in seeds:
            cell = ("1024", "cluster", "hypercube", initial, "10", "true", "false")
            runs[cell + ("besteffort", "1", seed)] = run("100")
            runs[cell + ("makhoul", "1", seed)] = run("200")
    def judged(initial):
        return [r for r in verdict_tables(runs)["q1-besteffort"]
                if r["initial"] == initial and r["other"] == "Makhoul" and r["subject"] == "best effort k=1"]
    if judged("random") or [r["verdict"] for r in judged("single")] != ["faster", "faster"]:
        sys.exit("verdicts.py: self-test: a random-load cell of 2 seeds was judged, or a single node's was not")
    cell = ("1024", "cluster", "hypercube", "random", "10", "true", "false")
    runs[cell + ("besteffort", "1", "3")] = run("150")
    runs[cell + ("makhoul", "1", "3")] = run("100")
    if [(r["seeds"], r["subject_faster_seeds"]) for r in judged("random")] != [(3, 2), (3, 2)]:
        sys.exit("verdicts.py: self-test: a random-load cell of 3 seeds was not judged on its 3 pairs")
    print("verdicts.py: self-test: random-load cells are judged from 3 seeds, a single node's from its one run")
    checks = [(sign_flip_p([1.0, 1.0, 1.0]), 0.25), (sign_flip_p([0.1] * 10), 2 / 1024),
              (sign_flip_p([0.3, 0.2, -0.1]), 0.5), (sign_flip_p([1.0, -1.0]), 1.0),
              (median_interval(list(range(10)))[:2], (1, 8)), (round(median_interval(list(range(10)))[2], 4), 0.9785),
              (median_interval([3, 1, 2])[2], 0.75), (round(median_interval(list(range(5)))[2], 4), 0.9375),
              ([round(x, 6) for x in benjamini_hochberg([0.01, 0.04, 0.03, 0.5])], [0.04, 0.053333, 0.053333, 0.5])]
    for got, want in checks:
        if got != want:
            sys.exit(f"verdicts.py: self-test: permutation test, median interval or Benjamini-Hochberg: {got}, "
                     f"expected {want}")
    print("verdicts.py: self-test: the exact permutation p-values, median intervals and BH adjustments are right")
    if numpy is None:
        print("verdicts.py: self-test: numpy absent; the resampled intervals are computed without it")
        return
    for trial, n in enumerate((8, 9, 10, 10, 13, 40, 255, 256, 300)):  # with numpy, the same intervals
        logs = [rng.gauss(0, 0.3) if trial % 2 else rng.choice([0.0, 0.1, -0.2]) for _ in range(n)]
        resamples = RESAMPLES if n <= 13 else 1000
        picks = resample_indices(random.Random(f"self-test numpy {n}"), n, resamples * n)
        drawn = [logs[i] for i in picks]
        means = [left_to_right(drawn[i:i + n]) / n for i in range(0, resamples * n, n)]
        pure = quantiles(means, [1] * len(means))
        fast = resampled_interval_numpy(logs, random.Random(f"self-test numpy {n}"), resamples)
        if pure != fast:
            sys.exit(f"verdicts.py: self-test: n = {n}: numpy interval {fast}, without numpy {pure}")
    print("verdicts.py: self-test: with numpy, the resampled intervals are the same numbers")


def main():
    parser = argparse.ArgumentParser(description="The study's verdicts from the committed convergence rows.")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "study", "verdicts"))
    parser.add_argument("--rows", default=os.path.join(ROOT, "docs", "study"),
                        help="the folder holding the results files (" + ", ".join(RESULTS) + ")")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 unless the committed tables are what the rows give")
    parser.add_argument("--page", default=os.path.join(ROOT, "docs", "study.md"),
                        help="with --check: the page that must hold answers.md and short-lines.md")
    parser.add_argument("--readme", default=os.path.join(ROOT, "README.md"),
                        help="with --check: the README that must hold in-short.md")
    parser.add_argument("--no-figures", action="store_true", help="write the tables only (no gnuplot)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the exact bootstrap against every ordered resample (brute force) and exit")
    a = parser.parse_args()
    if a.self_test:
        self_test()
        return
    runs = read_rows(a.check or None, a.rows)
    tables = verdict_tables(runs)
    if not a.check:
        write_all(a.out, tables, runs)
        if shutil.which("gnuplot") and not a.no_figures:
            subprocess.run(["gnuplot"], input=GNUPLOT.format(out=a.out), text=True, check=True)
        print(f"verdicts.py: wrote {a.out}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        fresh = write_all(tmp, tables, runs)
        stale = 0
        for name in sorted(fresh):
            committed = os.path.join(a.out, name)
            if not os.path.exists(committed) or open(committed).read() != fresh[name]:
                print(f"verdicts.py: {os.path.relpath(committed)} is not what the rows give; run "
                      "python3 study/verdicts.py", file=sys.stderr)
                stale = 1
    # The page holds the answers and their lines in short as they are; the README the sentence in short.
    flat = lambda text: " ".join(text.split())
    for page, excerpt, what in ((a.page, fresh["answers.md"], "answers.md"), (a.page, fresh["short-lines.md"], "short-lines.md"),
                                (a.page, fresh["method.md"], "method.md"),
                                (a.readme, fresh["in-short.md"], "in-short.md")):
        if flat(excerpt) not in flat(open(page).read()):
            print(f"verdicts.py: {os.path.relpath(page)} does not hold {what} as the rows give it; paste it from "
                  f"{os.path.relpath(os.path.join(a.out, what))} after running python3 study/verdicts.py",
                  file=sys.stderr)
            stale = 1
    if not stale:
        print(f"verdicts.py: every verdict table in {os.path.relpath(a.out)} is what the rows give, and "
              f"{os.path.relpath(a.page)} and {os.path.relpath(a.readme)} hold them")
    sys.exit(stale)


if __name__ == "__main__":
    main()
