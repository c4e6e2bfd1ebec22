#!/usr/bin/env python3
"""The numbers in the prose of docs/study.md and docs/study-details.md, and in their tables not marked
*(checked)*, recomputed from the committed files.

    python3 study/prose_check.py [--check]

CLAIMS holds what the pages say: per claim, the page, a phrase with `{}` where the numbers go, and a
function computing them from the committed rows (docs/study/*.csv), summaries (docs/study/N-nodes/*.md
and the scaled specs' docs/study/*.md, checked by `summaries.sh --check`), verdict tables
(docs/study/verdicts/, checked by `verdicts.py --check`), spec files (study/*.json) or a page's own
checked tables. A claim holds when its page holds the filled phrase (line breaks count as spaces); an
approx() claim, for the tables and figures the pages give with varying digits, when each number shown
is the computed one rounded to the digits shown ("lo-hi" for a range). Without --check, prints every
filled phrase, marked with whether its page holds it. With --check, prints one line per claim its page
does not hold (the page, the phrase expected, the values computed) and exits 1, or prints nothing and
exits 0; it exits 77 while a campaign appends rows. About a second.

Not checked: what comes from a single run or trace whose output is not committed (the command gives it):
  study-details.md, "256 and 1,024 nodes": the loads between 952 and 1,044 at the end of the integer
    run of best effort k = 1 (`hetlb simulate diffusion --strategy besteffort --k 1 --integer --platform
    cluster --nodes 256 --topology line --initial random --seed 1 --ratio 10 --trace F.csv`).
  study-details.md, the deadlock: the 16-node loads 2,459, 2,459, 1,373, ... and the 9e-13 step (the command
    on the page; the test Diffusion.SimpleDeadlocksOnTheLineAsTheDraftWarns replays it); the 64-node edges
    1,059.2 | 991.5 and 1,052.7 | 991.4 and their 5e-13 and 2e-13 (`hetlb simulate diffusion --strategy
    simple --platform grid --nodes 64 --topology line --initial random --seed 1 --ratio R --trace F.csv`,
    R = 10 and 0.1); the 256-node edge 905 | 1,100 and 905 | 1,039 and its 5e-4 units a decision (the same
    with `--platform cluster --nodes 256 --ratio 10`).
  study-details.md, "Residue or rule?": the scripts' run times (about 10 minutes, 30 s) and the 3 minutes of
    the 256-node run with --residue-equal (the page gives the command).
  study-details.md, "Integer load, platforms": every node in the band by 5,000 s and the most loaded node
    between 1,003 and 1,009 units, and the longest tail's loads between 997 and 1,008 with node 6's 1,011
    units at 22,000 s (the trace commands on the page); the hand runs of the 64-node line from a single
    node at ratio 10 with k = 2 and with Makhoul, and at ratio 0.1 (`hetlb simulate diffusion --platform
    cluster --nodes 64 --topology line --initial single --integer --ratio R --strategy S [--k 2]
    [--virtual-load] --trace F.csv`).
  study-details.md, "Balancing phases": phase_check.py's 20 s (its figures are checked, from the rows).
  study.md, "What the rows cannot answer yet": the two undecided runs started again and stopped (no row).
  study.md, "Cost": that the 64-node line run of 214 s takes 0.4 s alone (rerun by hand), the seed piece's
    32 s (`hetlb campaign study/convergence-seeds.json --results /tmp/piece.csv --max-nodes 16 --only
    seed=4 --only ratio=1 --only platform=cluster`; its rows were not committed), and line-256-long's 12
    minutes at `nice -n 19`.
Numbers that are no results are not checked either: the simulator's constants (125,000 bytes and 1 ms a
unit on a 125 MB/s link, the 1e-9 residue), the literature's (the draft's 10, 100, 99.99; DASUD's pages),
and the best-of-family figure ("1.6 to 2.3 times as long") the pages quote as withdrawn.
"""
import csv
import decimal
import functools
import json
import math
import os
import re
import statistics
import sys
from collections import Counter, defaultdict

import fixed_duration_table
import verdicts
from balance_table import KEY as BALANCE_KEY
from committed_table import rows_file
from cost_table import hours, setting, unseeded
from q45_lines import table_after, wins_per_ratio
from spread_table import variant

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
STUDY, DETAILS = "docs/study.md", "docs/study-details.md"
LOCKED = [False]  # with --check, a results file a campaign is appending to makes the script exit 77


# ---- The committed files ----

@functools.lru_cache(maxsize=None)
def every_row(name):
    """Every row of docs/study/<name>.csv in file order, a rerun's earlier row included."""
    path = os.path.join(ROOT, "docs", "study", name + ".csv")
    with rows_file(path, "" if LOCKED[0] else None, "prose_check.py") as f:
        return list(csv.DictReader(f))


@functools.lru_cache(maxsize=None)
def runs(name):
    """The runs of docs/study/<name>.csv: a later row of a setting replaces an earlier one (--retry)."""
    return list({setting(r): r for r in every_row(name)}.values())


def where(name, **match):
    """The runs of `name` whose columns hold the values given (a tuple: any of them; `variant`: the
    summaries' name of the strategy variant, "besteffort k=1 +virtual")."""
    wanted = tuple(sorted((c, tuple(map(str, w)) if isinstance(w, tuple) else (str(w),)) for c, w in match.items()))
    return list(matching(name, wanted))


@functools.lru_cache(maxsize=None)
def matching(name, wanted):
    nodes = dict(wanted).get("nodes")
    rows = runs(name) if nodes is None else [r for n in nodes for r in by_nodes(name).get(n, [])]
    return tuple(r for r in rows if all((variant(r) if c == "variant" else r[c]) in w for c, w in wanted))


@functools.lru_cache(maxsize=None)
def by_nodes(name):
    out = defaultdict(list)
    for r in runs(name):
        out[r["nodes"]].append(r)
    return out


def summary(path):
    return open(os.path.join(ROOT, "docs", "study", path)).read()


def summary_cell(text, title, row, column):
    """The cell of a summary's table (the one after the line starting with `title`) in row `row` (its first cell) and
    column `column` (its heading)."""
    head = text.split(title, 1)[1].split("\n\n", 2)[1].splitlines()[0]
    cells = [c.strip() for c in head.strip().strip("|").split("|")]
    return next(r for r in table_after(text, title) if r[0] == row)[cells.index(column)]


def spec(name):
    return json.load(open(os.path.join(ROOT, "study", name + ".json")))


def converged(r):
    return r["status"] == "ok" and r["converged"] == "1"


def date(r, column="max_convergence_date"):
    """A converged run's date in tau."""
    return float(r[column]) / float(r["tau"])


def wall(r):
    return float(r["wall_seconds"])


def limit_tau(r):
    """How far a run that ended unconverged simulated, in tau."""
    return float(r["simulated_time"]) / float(r["tau"])


def progress(r):
    """(simulated s, of s, nodes in the band, data messages in flight) from a timeout row's error."""
    m = re.search(r"simulated ([0-9.]+) s of ([0-9.]+) s; ([0-9]+)/[0-9]+ nodes in the 1% band.*?"
                  r"; ([0-9]+) data messages in flight", r["error"])
    return float(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4))


# ---- Formats ----

def n(x):
    return f"{x:,}"


def span(values, fmt="{:,}", sep=" to "):
    """'lo to hi' of the values, or the one value."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}{sep}{hi}"


def same(*values):
    """The value all of `values` share, else all of them (the page then does not hold the phrase)."""
    return values[0] if len(set(values)) == 1 else " / ".join(map(str, values))


def given(text, got, expected):
    """`text` when the rows give `expected`, else what they give."""
    return text if got == expected else f"{text} [the rows give {got!r}]"


def at_most(x, limit, text):
    """`text` (the page's bound) when x <= limit, else x."""
    return text if x <= limit else f"{x:g}"


def seeds_text(seeds):
    """'seed 1', 'seeds 1 to 3', 'seeds 4 and 5'."""
    s = sorted(int(x) for x in seeds)
    if len(s) == 1:
        return f"seed {s[0]}"
    if len(s) == 2:
        return f"seeds {s[0]} and {s[1]}"
    return f"seeds {s[0]} to {s[-1]}" if s == list(range(s[0], s[-1] + 1)) else "seeds " + ", ".join(map(str, s))


def half_up(x, digits):
    """x to `digits` decimals, halves rounded up (1.125 -> 1.13), as the page rounds the summaries' figures."""
    return str(decimal.Decimal(repr(x)).quantize(decimal.Decimal(1).scaleb(-digits), rounding=decimal.ROUND_HALF_UP))


def percent(x):
    """A coverage as the page gives it: exact with up to 2 decimals (93.75%, 75%), else to 0.1%."""
    for digits in (0, 1, 2):
        if abs(round(100 * x, digits) - 100 * x) < 1e-9:
            return f"{100 * x:.{digits}f}%"
    return f"{100 * x:.1f}%"


NUMBER_WORDS = {0: "none", 1: "one", 2: "two", 3: "three", 4: "four", 6: "six", 10: "ten", 30: "thirty"}


def word(count):
    """A count as the page writes it in words."""
    return NUMBER_WORDS.get(count, str(count))


def and_list(items):
    """'a, b and c'."""
    items = list(map(str, items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def median(values):
    return statistics.median(values)


CLAIMS = []


def claim(page, phrase, compute):
    """`page` holds `phrase` with its `{}` filled by compute() (a value or a tuple of values)."""
    CLAIMS.append((page, phrase, compute, False))


def approx(page, phrase, compute):
    """`page` holds `phrase` with a number in each `{}`, each the value compute() gives rounded as the page rounds it
    (for the tables and figures the page gives with varying digits)."""
    CLAIMS.append((page, phrase, compute, True))


# ---- docs/study.md ----

@functools.lru_cache(maxsize=None)
def random_seeds(nodes, topology=None):
    """The seeds of the random-load convergence runs at a size (every convergence file the verdicts read)."""
    found = set()
    for name in verdicts.RESULTS:
        for r in runs(name[:-4]):
            if r["nodes"] == str(nodes) and r["initial"] == "random" and topology in (None, r["topology"]):
                found.add(r["seed"])
    return len(found)


def integer_hypercube_1024(ratio):
    return where("convergence-1024", platform="cluster", topology="hypercube", integer="true", ratio=ratio)


def variants_and_seeds(rows):
    """{variant: its seeds}."""
    out = defaultdict(set)
    for r in rows:
        out[variant(r)].add(r["seed"])
    return out


def hypercube_1024_ratio_1_text():
    got = variants_and_seeds(integer_hypercube_1024(1))
    if set(got) != {"besteffort k=1", "besteffort k=2"}:
        return repr(dict(got))
    return f"{seeds_text(got['besteffort k=1'])} of best effort k = 1 and {seeds_text(got['besteffort k=2'])} of k = 2"


def per_ratio_runs_1024():
    """The runs a ratio of the cluster's integer hypercube has in the spec: variants x seeds (ratio 10's)."""
    got = variants_and_seeds(integer_hypercube_1024(10))
    return len(got) * len(set.union(*got.values()))


claim(STUDY, "every setting of the convergence spec at 16, 64 and 256 nodes, {} runs per size",
      lambda: same(*(n(len(where("convergence", nodes=s))) for s in (16, 64, 256))))
claim(STUDY, "at 1,024 nodes {} runs", lambda: len(runs("convergence-1024")))
claim(STUDY, "(ratio 10: {} seeds of best effort k = 1, 2 and 4, Makhoul and simple, with and without virtual load, {} "
      "runs; ratio 1: {}; {}",
      lambda: (len(set.union(*variants_and_seeds(integer_hypercube_1024(10)).values())), len(integer_hypercube_1024(10)),
               hypercube_1024_ratio_1_text(),
               given("none converges", sum(map(converged, integer_hypercube_1024(10) + integer_hypercube_1024(1))), 0)))
claim(STUDY, "{} of every random-load setting at 16 and 64 nodes, {} runs each",
      lambda: (seeds_text({r["seed"] for r in runs("convergence-seeds")}),
               same(*(n(len(where("convergence-seeds", nodes=s))) for s in (16, 64)))))
claim(STUDY, "{} of the 256-node torus and hypercube, {} runs",
      lambda: (seeds_text({r["seed"] for r in runs("convergence-seeds-256")}), len(runs("convergence-seeds-256"))))
claim(STUDY, "random-load cells have {} seeds at 16 and 64 nodes, {} at 256 nodes ({} on the line) and {} at 1,024",
      lambda: (same(random_seeds(16), random_seeds(64)), same(random_seeds(256, "torus"), random_seeds(256, "hypercube")),
               random_seeds(256, "line"), random_seeds(1024)))
claim(STUDY, "with integer load on the cluster at ratio 10 (and {} of its {} runs at ratio 1",
      lambda: (len(integer_hypercube_1024(1)), per_ratio_runs_1024()))
claim(STUDY, "at 16 and 64 nodes ({} seeds) cells are decided; on the 256-node torus and hypercube ({} seeds) and at "
      "1,024 nodes ({} seeds) no exact test can decide a cell at {}",
      lambda: (same(random_seeds(16), random_seeds(64)), random_seeds(256, "torus"), random_seeds(1024),
               f"{verdicts.ALPHA:.0%}"))


def line_256_limit():
    """The simulated limit of the 256-node line runs, none of which converges."""
    rows = where("convergence", nodes=256, topology="line")
    return given(f"{same(*{round(limit_tau(r)) for r in rows if r['status'] == 'ok'}):,}", sum(map(converged, rows)), 0)


claim(STUDY, "No 256-node line converges within its {}-tau limit.", line_256_limit)


def fixed_wins(nodes, ratio):
    """{variant: wins} by computed load at a ratio, from fixed-duration-nN.md."""
    return dict(next(wins for r, wins, _ in wins_per_ratio(summary(f"fixed-duration-n{nodes}.md")) if r == ratio))


claim(STUDY, "simple at 256 ({} wins against best effort k = 1's {})",
      lambda: (fixed_wins(256, "1")["simple"], fixed_wins(256, "1")["besteffort k=1"]))


def coverage(seeds):
    """The coverage of the interval of the median ratio at `seeds` pairs (verdicts.median_interval)."""
    return percent(verdicts.median_interval([1.0] * seeds)[2])


def smallest_p(seeds):
    return f"{verdicts.sign_flip_p([1.0] * seeds):g}"


claim(STUDY, "({} at 10 seeds, {} at 5, {} at 3: \"Method\")", lambda: (coverage(10), coverage(5), coverage(3)))
claim(STUDY, "{} at 10 seeds (the second lowest to the second highest seed's ratio), {} at 5 and {} at 3",
      lambda: (coverage(10), coverage(5), coverage(3)))
claim(STUDY, "its smallest two-sided p-value is 2 / 2^n, {} and {}", lambda: (smallest_p(3), smallest_p(5)))
claim(STUDY, "(6 seeds give a smallest p-value of {}, before the correction)", lambda: smallest_p(6))
claim(STUDY, "on the 256-node torus and hypercube ({} seeds) is a tie here", lambda: random_seeds(256, "torus"))


def undecided():
    return list(csv.DictReader(open(os.path.join(ROOT, "docs", "study", "verdicts", "undecided.csv"))))


@functools.lru_cache(maxsize=None)
def timeout_rows():
    return [r for r in every_row("convergence") if r["status"] == "timeout"]


def undecided_place():
    places = {(r["nodes"], r["platform"], r["topology"], r["initial"], r["ratio"]) for r in undecided()}
    return given("all on the grid's 256-node hypercube from a single node at ratio 0.1", places,
                 {("256", "grid", "hypercube", "single", "0.1")})


claim(STUDY, "lists the {} such study-1 runs left (of {}; {} were rerun to their simulated limit, below), {}",
      lambda: (len(undecided()), len(timeout_rows()),
               word(len(timeout_rows()) - len(undecided())),
               undecided_place()))


# docs/study.md, "Unlike processors".

def grid_speeds():
    """The Grid'5000 clusters' speeds in Gflop/s, from the simulator's table of the sites."""
    text = open(os.path.join(ROOT, "src", "sim", "grid5000_sites.cpp")).read()
    return [float(x) for x in re.findall(r'\{"\w+", \d+, ([0-9.]+)e9\}', text)]


def balance_pairs(nodes):
    """{settings: (load-balanced row, time-balanced row)} of the grid-real specs at a size."""
    load = {tuple(r[c] for c in BALANCE_KEY): r for r in where("grid-real-load", nodes=nodes)}
    time = {tuple(r[c] for c in BALANCE_KEY): r for r in where("grid-real-time", nodes=nodes)}
    return {k: (load[k], time[k]) for k in load if k in time}


def balance_medians(nodes, column, by):
    """Medians of time / load of `column` over the pairs where both converge, per `by` (a function of a row)."""
    ratios = defaultdict(list)
    for load, time in balance_pairs(nodes).values():
        if converged(load) and converged(time):
            ratios[by(load)].append(float(time[column]) / float(load[column]))
    return {k: median(v) for k, v in ratios.items()}


def per_variant_ratio(r):
    return variant(r), r["ratio"]


def balance_span(nodes, column):
    return span(balance_medians(nodes, column, per_variant_ratio).values(), "{:.2f}")


def per_topology(nodes, named=False):
    m = balance_medians(nodes, "max_convergence_date", lambda r: r["topology"])
    return and_list([f"{m[t]:.2f}" + (f" ({t})" if named else "") for t in ("torus", "hypercube", "line") if t in m])


def balance_report(nodes):
    """The variant-and-ratio table of docs/study/grid-real-balance.md at a size (it needs the platform's
    speeds from hetlb; `summaries.sh --check` checks the page), and its line 'I by load: grid-real X'."""
    text = summary("grid-real-balance.md").split(f"## {nodes} nodes", 1)[1].split("\n## ", 1)[0]
    return table_after(text, "I by load"), re.search(r"I by load: grid-real ([0-9.]+)", text).group(1)


def report_column(nodes, column, part):
    """Per row of the report's table, the median (part 0) or the upper end of the range (part 1) of a column."""
    values = []
    for row in balance_report(nodes)[0]:
        m = re.match(r"([0-9.]+) \(([0-9.]+) to ([0-9.]+)\)", row[column])
        values.append(float(m.group(1) if part == 0 else m.group(3)))
    return values


def rounded(values, step):
    return span([round(v / step) * step for v in values], "{:,.0f}")


def one_sided_balance():
    """Sizes and count of the pairs where only one side converges."""
    return {s: sum(converged(a) != converged(b) for a, b in balance_pairs(s).values()) for s in (16, 64, 256)}


def recovery(platform, balance):
    return [r["recovery_seconds"] for r in csv.DictReader(open(os.path.join(ROOT, "docs", "study", "slowdown-recovery.csv")))
            if (r["platform"], r["balance"]) == (platform, balance)]


claim(STUDY, "each cluster's speed, {} Gflop/s", lambda: span(grid_speeds(), "{:.1f}"))
claim(STUDY, "16 and 64 nodes are complete ({} pairs each); at 256 nodes the torus and the hypercube are ({} pairs; a "
      "256-node run took from {} to {} here, {} for the {} runs)",
      lambda: (same(len(balance_pairs(16)), len(balance_pairs(64))), len(balance_pairs(256)),
               f"{min(map(wall, where('grid-real-load', nodes=256) + where('grid-real-time', nodes=256))):.0f} s",
               f"{max(map(wall, where('grid-real-load', nodes=256) + where('grid-real-time', nodes=256))) / 60:.0f} min",
               hours(sum(map(wall, where("grid-real-load", nodes=256) + where("grid-real-time", nodes=256)))),
               2 * len(balance_pairs(256))))
claim(STUDY, "already the longest (up to {} min, where the torus took under {} min)",
      lambda: (f"{max(map(wall, where('grid-real-time', nodes=64, topology='line'))) / 60:.0f}",
               math.ceil(max(map(wall, where("grid-real-time", nodes=64, topology="torus"))) / 60)))
claim(STUDY, "the normalised platform's line runs converge only at {} tau",
      lambda: rounded([date(r) for r in runs("line-256-long") if converged(r)], 1000))
def grid_real_limit():
    """The simulated limit of the grid-real specs' runs that end unconverged, in tau."""
    return n(same(*{round(limit_tau(r)) for name in ("grid-real-load", "grid-real-time", "grid-real-line-256-load",
                                                      "grid-real-line-256-time")
                    for r in runs(name) if r["status"] == "ok" and not converged(r)}))


claim(STUDY, "(`line-256-long` below: this spec's simulated limit is {} tau) after {} min of run time each, {} of the three "
      "past this spec's {}-minute wall-clock limit",
      lambda: (grid_real_limit(), span([wall(r) / 60 for r in runs("line-256-long")], "{:.0f}"),
               word(sum(wall(r) > spec("grid-real-time")["timeout_seconds"] for r in runs("line-256-long"))),
               spec("grid-real-time")["timeout_seconds"] // 60))
claim(STUDY, "`docs/study/grid-real-line-256-{{time,load}}.csv`, {} and {} min of run time) confirms it: neither "
      "converges by the {} tau limit ({} and {} of 256 nodes in their band; load spread {}% balanced by time, {}% by load)",
      lambda: tuple(f"{wall(runs(f'grid-real-line-256-{b}')[0]) / 60:.0f}" for b in ("time", "load")) + (grid_real_limit(),) +
      tuple(runs(f"grid-real-line-256-{b}")[0]["converged_nodes"] for b in ("time", "load")) +
      tuple(f"{float(runs(f'grid-real-line-256-{b}')[0]['load_spread_percent']):.0f}" for b in ("time", "load")))
claim(STUDY, "**Every pair converges both ways** except {} at 64 nodes",
      lambda: given(word(one_sided_balance()[64]), (one_sided_balance()[16], one_sided_balance()[256]), (0, 0)))
claim(STUDY, "has a median of {} per variant and ratio at 16 nodes, {} at 64 and {} at 256 (torus and hypercube)",
      lambda: tuple(balance_span(s, "max_convergence_date") for s in (16, 64, 256)))
claim(STUDY, "the data moved {} at 16 nodes, {} at 64 and {} at 256",
      lambda: tuple(balance_span(s, "data_transfer_amount") for s in (16, 64, 256)))
claim(STUDY, "the date's median is {} at 16 nodes; {} at 64; {} at 256",
      lambda: (per_topology(16, named=True), per_topology(64), per_topology(256)))
claim(STUDY, "iteration at `I` = {} (16 nodes), {} (64) and {} (256) times the time-balanced ideal",
      lambda: tuple(balance_report(s)[1] for s in (16, 64, 256)))
claim(STUDY, "median of {} application iterations at 16 nodes, {} at 64 and {} at 256, and 1,000 iterations take {} "
      "(16), {} (64) and {} (256) of the load-balanced time",
      lambda: tuple(span(report_column(s, 6, 0), "{:,.0f}") for s in (16, 64, 256)) +
      tuple(span(report_column(s, 7, 0), "{:.2f}") for s in (16, 64, 256)))
claim(STUDY, "the break-even reaches {} iterations at 16 nodes and {} at 64 (the ranges' upper ends)",
      lambda: (rounded(report_column(16, 6, 1), 100), rounded(report_column(64, 6, 1), 1000)))
claim(STUDY, "the ideal after {} s on the cluster and {} s on the real subset (best effort with virtual load and "
      "Makhoul fastest, simple slowest); balanced by load it {}",
      lambda: (span([float(x) for x in recovery("cluster", "time")], "{:.1f}"),
               span([float(x) for x in recovery("grid-real", "time")], "{:.1f}"),
               given("never is", set(recovery("cluster", "load") + recovery("grid-real", "load")), {"never"})))


# docs/study.md, "What the rows cannot answer yet".

def spent(name):
    """A spec's run time as the cost table gives it: every row's wall_seconds, a rerun's earlier row included."""
    return hours(sum(map(wall, every_row(name))))


def slowest(rows):
    r = max(rows, key=wall)
    return r["platform"], r["topology"], r["initial"], r["ratio"]


def minutes(rows, fmt="{:.1f}"):
    return span([wall(r) / 60 for r in rows], fmt)


def scaled_limits(kind):
    """The simulated durations of the scaled specs in units of N tau, and in tau per size."""
    units = {tuple(t / s for t in spec(f"{kind}-n{s}")["time_limit_tau"]) for s in (16, 64, 256)}
    return same(*units), [spec(f"{kind}-n{s}")["time_limit_tau"] for s in (16, 64, 256)]


def line_256_long(strategy):
    return where("line-256-long", strategy=strategy)[0]


def study1_line_256(strategy):
    return where("convergence", nodes=256, platform="cluster", topology="line", initial="random", seed=1, ratio=1,
                 integer="false", variant=strategy)[0]


def grid_single_hypercube(**match):
    return where("convergence", nodes=256, platform="grid", topology="hypercube", initial="single", ratio="0.1", **match)


def no_text(r):
    return f"no ({r['converged_nodes']}/{r['nodes']})"


def undecided_progress():
    return [progress(r) for r in undecided() if "last progress" in r["error"]]


def cube_1024(**match):
    return where("convergence-1024", topology="hypercube", initial="random", **match)


def settings_1024(platform, ratios, integers):
    """The hypercube's random-load settings of convergence-1024.json on a platform: variants x seeds x ratios x
    load kinds."""
    s = spec("convergence-1024")
    variants = len(s["strategies"]) * len(s["virtual_load"])
    return variants * len(s["seeds"]) * len(ratios) * len(integers)


def left_1024(platform, ratios, integers):
    ran = [r for r in cube_1024(platform=platform) if float(r["ratio"]) in ratios and r["integer"] in integers]
    return settings_1024(platform, ratios, integers) - len(ran)


claim(STUDY, "**All are run**: {} rows at 16 and at 64 nodes, {} at 256 nodes",
      lambda: (same(*(n(len(where("convergence-seeds", nodes=s))) for s in (16, 64))), len(runs("convergence-seeds-256"))))
claim(STUDY, "(same model, so the seeds of a cell pair up: {} at 16 and 64 nodes, {} at 256)",
      lambda: (same(random_seeds(16), random_seeds(64)), random_seeds(256, "torus")))
claim(STUDY, "the answers above count {} seeds at 16 and 64 nodes and {} on the 256-node torus and hypercube",
      lambda: (same(random_seeds(16), random_seeds(64)), same(random_seeds(256, "torus"), random_seeds(256, "hypercube"))))
claim(STUDY, "its {} runs were all in",
      lambda: len(where("convergence-seeds-256", platform="grid", topology="hypercube", ratio="0.1")))
claim(STUDY, "Short runs get {} N tau ({} tau); fixed-duration runs {} N tau (the start-up: the load has barely left "
      "its node) and {} N tau",
      lambda: (f"{scaled_limits('short')[0][0]:g}", and_list(n(t[0]) for t in scaled_limits("short")[1]),
               f"{scaled_limits('fixed-duration')[0][0]:g}", f"{scaled_limits('fixed-duration')[0][1]:g}"))
claim(STUDY, "(`short-n16`: {} rows; `fixed-duration-n16`: {} rows;",
      lambda: (n(len(runs("short-n16"))), n(len(runs("fixed-duration-n16")))))
claim(STUDY, "(`short-n64`: {} rows, {}; `fixed-duration-n64`: {} rows, {})",
      lambda: (n(len(runs("short-n64"))), spent("short-n64"), n(len(runs("fixed-duration-n64"))), spent("fixed-duration-n64")))
claim(STUDY, "`short-n256` is complete too ({} rows, {} of run time here",
      lambda: (n(len(runs("short-n256"))), spent("short-n256")))
def last_rows(name, count):
    """The last rows of a results file, in the order they were written."""
    return every_row(name)[-count:]


# The page's "last 19" are the runs of a quiet sitting; the rows show what they were and took.
claim(STUDY, "its longest run, a {} one, took {} min; its last 19, {}, took {} min each",
      lambda: (slowest(runs("short-n256"))[1], f"{max(map(wall, runs('short-n256'))) / 60:.1f}",
               given("the grid's hypercube from random loads at ratio 0.1", {slowest([r]) for r in last_rows("short-n256", 19)},
                     {("grid", "hypercube", "random", "0.1")}), minutes(last_rows("short-n256", 19))))
claim(STUDY, "a torus run takes at most {} and a line run at most {}, cost table below",
      lambda: (f"{max(map(wall, where('short-n256', topology='torus'))):.0f} s",
               f"{max(map(wall, where('short-n256', topology='line'))) / 60:.1f} min"))
claim(STUDY, "`fixed-duration-n256` is complete as well ({} rows, {} of run time here; its costliest runs, {}, took up to {} "
      "min each",
      lambda: (n(len(runs("fixed-duration-n256"))), spent("fixed-duration-n256"),
               given("the grid's random-load hypercube at ratio 0.1", slowest(runs("fixed-duration-n256")),
                     ("grid", "hypercube", "random", "0.1")),
               f"{max(map(wall, runs('fixed-duration-n256'))) / 60:.1f}"))
claim(STUDY, "`line-256-long.json` runs three of them (cluster, random loads, seed 1, ratio 1, real load: best effort "
      "k = 1, Makhoul, simple) to {} tau: best effort k = 1 converges at {} tau and Makhoul at {}, where study-1 had "
      "stopped them with {} and {} of 256 nodes through their streak; simple ends with {} of 256",
      lambda: (n(spec("line-256-long")["time_limit_tau"][0]), f"{date(line_256_long('besteffort')):.1f}",
               f"{date(line_256_long('makhoul')):.1f}", study1_line_256("besteffort k=1")["converged_nodes"],
               study1_line_256("makhoul")["converged_nodes"], line_256_long("simple")["converged_nodes"]))
claim(STUDY, "integer simple without virtual load (`{}`) and best effort k = 1 with real load and no virtual load (`{}`;",
      lambda: (no_text(grid_single_hypercube(integer="true", variant="simple")[0]),
               no_text(grid_single_hypercube(integer="false", variant="besteffort k=1")[0])))
def other_seeds_of_rerun():
    """The other seeds' runs of the rerun grid hypercube setting (integer simple + virtual, random loads, ratio 0.1)."""
    return [r for name in ("convergence", "convergence-seeds-256") for r in where(
        name, nodes=256, platform="grid", topology="hypercube", initial="random", ratio="0.1", integer="true",
        variant="simple +virtual") if r["seed"] != "2"]


claim(STUDY, "integer simple + virtual, seed 2, like that setting's other {} seeds",
      lambda: given(word(len(other_seeds_of_rerun())), sum(map(converged, other_seeds_of_rerun())), 0))
claim(STUDY, "The {} left are all on the grid's hypercube from a single node", lambda: len(undecided()))
claim(STUDY, "reached {} s of their {} s of simulated time in their hour, about {} h each if that pace held",
      lambda: (span([p[0] for p in undecided_progress()], "{:.1f}"), n(round(same(*{p[1] for p in undecided_progress()}))),
               span([p[1] / p[0] for p in undecided_progress()], "{:.1f}")))
claim(STUDY, "seeds 1 to 3, has run ({} runs), and so has the hypercube with real load, with and without virtual load: the "
      "cluster's at both ratios ({} runs) and the grid's at ratio 10 ({} runs;",
      lambda: (len(where("convergence-1024", topology="torus")), len(cube_1024(platform="cluster", integer="false")),
               given(len(cube_1024(platform="grid", integer="false", ratio=10)), len(cube_1024(platform="grid", ratio=1)), 0)))
claim(STUDY, "are measured: the cluster's {} at ratio 10 ({}) and the first {} at ratio 1 ({} of best effort k = 1, {} of "
      "k = 2) each ran to its simulated limit of {} tau without converging",
      lambda: (word(len(integer_hypercube_1024(10))),
               given("seeds 1 to 3 of best effort k = 1, 2 and 4, Makhoul and simple, with and without virtual load",
                     {k: sorted(v) for k, v in variants_and_seeds(integer_hypercube_1024(10)).items()},
                     {v: ["1", "2", "3"] for v in verdicts_variants()}),
               word(len(integer_hypercube_1024(1))),
               seeds_text(variants_and_seeds(integer_hypercube_1024(1))["besteffort k=1"]),
               seeds_text(variants_and_seeds(integer_hypercube_1024(1))["besteffort k=2"]),
               given(n(same(*{round(limit_tau(r)) for r in integer_hypercube_1024(10) + integer_hypercube_1024(1)})),
                     sum(map(converged, integer_hypercube_1024(10) + integer_hypercube_1024(1))), 0)))
claim(STUDY, "in over {} each here, the ratio-1 ones over {}",
      lambda: (given("half an hour", min(map(wall, integer_hypercube_1024(10) + integer_hypercube_1024(1))) > 1800, True),
               given("an hour", min(map(wall, integer_hypercube_1024(1))) > 3600, True)))
claim(STUDY, "The {} left at ratio 1 (best effort k = 1 with virtual load, k = 2 and 4, Makhoul and simple, each with and "
      "without virtual load; a random-load cell is judged once it has its 3 seeds) and the grid's hypercube's {} (integer "
      "load at both ratios, real load at ratio 1)",
      lambda: (left_1024("cluster", (1,), ("true",)), left_1024("grid", (10, 1), ("true", "false"))))


def verdicts_variants():
    return [f"besteffort k={k}{v}" for k in (1, 2, 4) for v in ("", " +virtual")] + \
        [s + v for s in ("makhoul", "simple") for v in ("", " +virtual")]


# docs/study.md, "Cost".

def seed_estimate(seed_spec, nodes, **match):
    """(the run time of a seed spec's runs as cost_table.py estimated it before they ran: study-1's mean run time per
    seed of each random-load setting, times the new seeds; the time they took), in seconds."""
    per_setting = defaultdict(list)
    for r in where("convergence", nodes=nodes, initial="random", **match):
        per_setting[unseeded(r)].append(wall(r))
    new_seeds = len(spec(seed_spec)["seeds"])
    return (sum(statistics.mean(w) * new_seeds for w in per_setting.values()),
            sum(map(wall, where(seed_spec, nodes=nodes, **match))))


def piece(name, **match):
    return len(where(name, **match))


claim(STUDY, "It gave {} for the 64-node seeds, which took {}",
      lambda: tuple(map(hours, seed_estimate("convergence-seeds", 64))))
claim(STUDY, "one 64-node line run recorded {} s", lambda: given("214", any(round(wall(r)) == 214 for r in where(
    "convergence", nodes=64, topology="line")), True))
claim(STUDY, "`topology=hypercube initial=random ratio=1 seed=1 strategy=makhoul integer=false platform=cluster` ({} runs)",
      lambda: piece("short-n256", topology="hypercube", initial="random", ratio=1, seed=1, strategy="makhoul",
                    integer="false", platform="cluster"))
claim(STUDY, "virtual_load=true platform=grid` ({} run: the grid's single-node hypercube at ratio 0.1, {})",
      lambda: (piece("short-n256", topology="hypercube", initial="single", ratio="0.1", strategy="makhoul",
                     integer="false", virtual_load="true", platform="grid"),
               given("study-1's costliest configuration", slowest(runs("convergence")), ("grid", "hypercube", "single", "0.1"))))
claim(STUDY, "`topology=line,torus initial=random ratio=1 seed=1 strategy=makhoul integer=false platform=cluster` ({} runs)",
      lambda: piece("short-n256", topology=("line", "torus"), initial="random", ratio=1, seed=1, strategy="makhoul",
                    integer="false", platform="cluster"))
claim(STUDY, "`topology=line,torus initial=single ratio=0.1 strategy=makhoul integer=false platform=grid` ({} runs)",
      lambda: piece("short-n256", topology=("line", "torus"), initial="single", ratio="0.1", strategy="makhoul",
                    integer="false", platform="grid"))
claim(STUDY, "`topology=torus initial=random ratio=1 seed=1 strategy=besteffort k=1 integer=false platform=cluster` ({} "
      "runs); the same with `topology=line initial=single` and no seed ({} runs)",
      lambda: (piece("fixed-duration-n256", topology="torus", initial="random", ratio=1, seed=1, strategy="besteffort", k=1,
                     integer="false", platform="cluster"),
               piece("fixed-duration-n256", topology="line", initial="single", ratio=1, strategy="besteffort", k=1,
                     integer="false", platform="cluster")))
claim(STUDY, "| line-256-long | the whole spec ({} runs;", lambda: len(runs("line-256-long")))
claim(STUDY, "--max-nodes 16 --only seed=4 --only ratio=1 --only platform=cluster`, {} runs",
      lambda: piece("convergence-seeds", nodes=16, seed=4, ratio=1, platform="cluster"))


# docs/study.md, "Beside the literature".

def header_table(page, header):
    """The rows (lists of cells) of the table on a page whose header line starts with `header`."""
    lines = open(os.path.join(ROOT, page)).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    out = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        out.append([c.strip() for c in line.strip().strip("|").split("|")])
    return out


STAIRCASE = "| initial load | virtual load | converged nodes | loads at the end"  # checked by staircase_check.py
STAIRCASE_SIZES = "| platform | line | initial load | converged nodes, without / with"  # by staircase_sizes.py


def staircase_spread(initial):
    """The largest difference (units) of the traced 64-node integer runs from one initial load, with and without
    virtual load (docs/study-details.md's checked table)."""
    return same(*(row[6] for row in header_table(DETAILS, STAIRCASE) if row[0] == initial))


def sizes_within_band():
    """The line sizes of the checked size table, and the largest whose staircase lies within the 1% band (every
    smaller one's too)."""
    rows = header_table(DETAILS, STAIRCASE_SIZES)
    size = lambda row: int(row[1].split()[0])
    within = {size(r) for r in rows if r[6] == "yes"}
    beyond = {size(r) for r in rows if r[6] == "no"}
    return sorted(within | beyond), (max(within) if max(within) < min(beyond) else f"{within} / {beyond}")


def integer_line_64_seeds():
    """Per seed, (converged, runs, largest spread) of the 64-node line's integer runs from random loads."""
    out = defaultdict(lambda: [0, 0, 0.0])
    for name in ("convergence", "convergence-seeds"):
        for r in where(name, nodes=64, topology="line", initial="random", integer="true"):
            out[r["seed"]][0] += converged(r)
            out[r["seed"]][1] += 1
            out[r["seed"]][2] = max(out[r["seed"]][2], float(r["load_spread_percent"]))
    return out


def seeds_converging_line_64():
    s = integer_line_64_seeds()
    every = [k for k, (c, t, _) in s.items() if c == t]
    none = [k for k, (c, t, _) in s.items() if c == 0]
    return every, none, len(s)


claim(STUDY, "from the random loads of {} of the {} seeds (the `none` cells of the 64-node line); the other seed's ({}) "
      "integer runs all converge, their loads ending within a spread of {}%",
      lambda: (len(seeds_converging_line_64()[1]), seeds_converging_line_64()[2], same(*seeds_converging_line_64()[0]),
               f"{integer_line_64_seeds()[same(*seeds_converging_line_64()[0])][2]:.2f}"))
claim(STUDY, "end on the same staircase, {} units from end to end, the most a 64-node line's stable state can hold; from "
      "random loads on another one, {} units either way",
      lambda: (staircase_spread("single"), staircase_spread("random")))
claim(STUDY, "on lines of {} to {} nodes of the cluster and of the grid, at ratios 10 and 1, with k = 2 and with Makhoul, "
      "virtual load ends where the run without it does; up to {} nodes the staircase",
      lambda: (sizes_within_band()[0][0], sizes_within_band()[0][-1], sizes_within_band()[1]))
claim(STUDY, "the {} traced integer runs of the 64-node line end in that state",
      lambda: word(len(header_table(DETAILS, STAIRCASE))))


# docs/study.md, the rest of "What the rows cannot answer yet" and "Cost", and questions 4 and 5 in words.

def reruns():
    """The runs whose timeout row was followed by a rerun's row."""
    timed_out = {setting(t) for t in timeout_rows()}
    return [r for r in runs("convergence") if r["status"] != "timeout" and setting(r) in timed_out]


def short_runs_per_variant(nodes, spec_name="short-n{}"):
    """{variant: runs converged} from the summary of a short spec (short-nN.md; N-nodes/short.md for study-1's)."""
    path = f"{nodes}-nodes/short.md" if spec_name == "short" else spec_name.format(nodes) + ".md"
    return {r[0]: int(r[2]) for r in table_after(summary(path), "Runs per variant")}


def virtual_not_raising():
    """(size, strategy) where virtual load does not raise the count of converged short runs."""
    out = []
    for size in (16, 64, 256):
        got = short_runs_per_variant(size)
        out += [(size, v) for v in got if not v.endswith("+virtual") and got[v + " +virtual"] <= got[v]]
    return out


def leaders(kind, size, ratio):
    """The variants with the most wins at a ratio in short-nN.md or fixed-duration-nN.md."""
    wins = dict(next(w for r, w, _ in wins_per_ratio(summary(f"{kind}-n{size}.md")) if r == ratio))
    return sorted(v for v in wins if wins[v] == max(wins.values()))


def leaders_by_size(kind, ratio):
    return [leaders(kind, size, ratio) for size in (16, 64, 256)]


claim(STUDY, "{} are rerun, each ended at its limit without converging",
      lambda: given(word(len(reruns())).capitalize(), sum(map(converged, reruns())), 0))
claim(STUDY, "the ratio-1 ones over an hour (their rows' `wall_seconds`; the longest is {})",
      lambda: given("the cost table's longest hypercube run below", max(map(wall, integer_hypercube_1024(1) +
                    integer_hypercube_1024(10))), max(map(wall, where("convergence-1024", topology="hypercube")))))
claim(STUDY, "for the grid's 256-node hypercube at ratio 0.1 it was {}",
      lambda: given("low instead", (lambda e: e[0] < e[1])(seed_estimate("convergence-seeds-256", 256, platform="grid",
                                                                         topology="hypercube", ratio="0.1")), True))
claim(STUDY, "virtual load raises the count of converged runs of every variant at all three sizes, but best effort k = 1's "
      "at {} nodes (equal)",
      lambda: given("64 and 256", virtual_not_raising(), [(64, "besteffort k=1"), (256, "besteffort k=1")]))
claim(STUDY, "By the earliest date, {}",
      lambda: given("Makhoul with virtual load wins the most configurations at ratio 10 at every size and best effort k = 4 "
                    "with virtual load at ratio 0.1; at ratio 1 the lead goes from Makhoul with virtual load (16 nodes) to "
                    "best effort k = 1 with virtual load (64 nodes), the two tied at 256",
                    [leaders_by_size("short", r) for r in ("10", "0.1", "1")],
                    [[["makhoul +virtual"]] * 3, [["besteffort k=4 +virtual"]] * 3,
                     [["makhoul +virtual"], ["besteffort k=1 +virtual"], ["besteffort k=1 +virtual", "makhoul +virtual"]]]))
claim(STUDY, "Question 4: {}",
      lambda: given("at ratio 10 best effort k = 1 wins most at every size, with virtual load at 16 and 64 nodes and without "
                    "it at 256; at ratio 1 best effort k = 1 without virtual load leads at 16 and 64 nodes and simple at 256",
                    [leaders_by_size("fixed-duration", r) for r in ("10", "1")],
                    [[["besteffort k=1 +virtual"], ["besteffort k=1 +virtual"], ["besteffort k=1"]],
                     [["besteffort k=1"], ["besteffort k=1"], ["simple"]]]))
claim(STUDY, "ratio 0.1 no variant leads at 16 nodes and best effort k = 4 does at {}",
      lambda: given("64 and 256", leaders_by_size("fixed-duration", "0.1")[1:], [["besteffort k=4"]] * 2))


# ---- docs/study-details.md ----

def per_configuration(name, nodes):
    """The runs per configuration (platform, topology, initial load, seed, ratio) at a size."""
    out = Counter()
    for r in where(name, nodes=nodes):
        out[(r["platform"], r["topology"], r["initial"], r["seed"], r["ratio"])] += 1
    return same(*out.values())


def values_of(name, column, **match):
    return sorted({r[column] for r in where(name, **match)}, key=float)


def tau_at(ratio):
    """tau (s) at a ratio."""
    return same(*{round(float(r["tau"]), 9) for r in where("convergence", ratio=ratio) if r["tau"]})


def units():
    """The load per node, in units."""
    return int(same(*values_of("convergence", "load_per_node")))


def tau_is_units_times_ratio():
    """Every convergence row's tau is its load per node x ratio x 1 ms (tau in s)."""
    return all(abs(float(r["tau"]) - float(r["load_per_node"]) * float(r["ratio"]) * 1e-3) < 1e-9 * float(r["tau"])
               for r in runs("convergence") if r["tau"])


def torus_side(nodes):
    return math.isqrt(nodes)


def torus_diameter(nodes):
    return 2 * (torus_side(nodes) // 2)


def dimension(nodes):
    return nodes.bit_length() - 1


def integer_line_64():
    return where("convergence", nodes=64, topology="line", integer="true")


def configurations_per_ratio(name, nodes, **match):
    """The configurations (platform, topology, initial load and seed, load kind) of one ratio at a size."""
    return len({(r["platform"], r["topology"], r["initial"], r["seed"], r["integer"])
                for r in where(name, nodes=nodes, ratio=10, **match)})


claim(DETAILS, "These {} variants x real/integer = {} runs per configuration",
      lambda: (len({variant(r) for r in runs("convergence")}), per_configuration("convergence", 64)))
claim(DETAILS, "(`random`, seeds {}), and the computation/communication ratio {}",
      lambda: (", ".join(values_of("convergence", "seed", initial="random")),
               ", ".join(reversed(values_of("convergence", "ratio")))))
claim(DETAILS, "tau = {} units x ratio x 1 ms is the time to compute the average load",
      lambda: given(n(units()), tau_is_units_times_ratio(), True))
claim(DETAILS, "at 16 nodes the torus is {}x{} and the hypercube has dimension {}, which is the same graph (C4 x C4 = Q4: "
      "{} neighbours, diameter {})",
      lambda: (torus_side(16), torus_side(16), dimension(16), same(4, dimension(16)), same(torus_diameter(16), dimension(16))))
claim(DETAILS, "the torus is {}x{} (4 neighbours, diameter {}) and the hypercube has dimension {} ({} neighbours, diameter {})",
      lambda: (torus_side(64), torus_side(64), torus_diameter(64), dimension(64), dimension(64), dimension(64)))
claim(DETAILS, "that node starts with N x {} units, so its first computing iteration lasts N tau", lambda: n(units()))
claim(DETAILS, "({} in the convergence spec, {} in the short spec)",
      lambda: (n(int(same(*values_of("convergence", "iterations")))), n(int(same(*values_of("short", "iterations"))))))
claim(DETAILS, "**integer load on the line never converges** (all {} runs, every strategy): 1% of {} units is {} units, "
      "less than the ceil({} / 2) = {} units",
      lambda: (given(n(len(integer_line_64())), sum(map(converged, integer_line_64())), 0), n(units()), units() // 100,
               64 - 1, math.ceil((64 - 1) / 2)))
claim(DETAILS, "These {} of the {} configurations per ratio",
      lambda: (configurations_per_ratio("convergence", 64, topology="line", integer="true"),
               configurations_per_ratio("convergence", 64)))
claim(DETAILS, "the integer line runs of seed {} all converge ({} runs, loads ending within a {}% spread), those of the other "
      "{} seeds never",
      lambda: (same(*seeds_converging_line_64()[0]), integer_line_64_seeds()[same(*seeds_converging_line_64()[0])][1],
               f"{integer_line_64_seeds()[same(*seeds_converging_line_64()[0])][2]:.2f}",
               word(len([s for s in seeds_converging_line_64()[1] if int(s) > 3]))))


# docs/study-details.md, "256 and 1,024 nodes".

def line_256():
    return where("convergence", nodes=256, topology="line")


@functools.lru_cache(maxsize=None)
def spread_medians(platform, nodes=256, topology="line"):
    """{(variant, initial, integer, ratio): median over the seeds of load_spread_percent} (spread_table.py's cells)."""
    cells = defaultdict(list)
    for r in where("convergence", nodes=nodes, platform=platform, topology=topology):
        if r["status"] == "ok" and r["load_spread_percent"]:
            cells[(variant(r), r["initial"], r["integer"], r["ratio"])].append(float(r["load_spread_percent"]))
    return {k: median(v) for k, v in cells.items()}


def spreads(platform="cluster", variants=None, initial=None, integer=None, ratio=None):
    """The spread medians of the 256-node line's cells that match."""
    return [v for (var, i, k, r), v in spread_medians(platform).items()
            if (variants is None or var in variants) and initial in (None, i) and integer in (None, k) and ratio in (None, r)]


def with_virtual(*variants):
    return variants + tuple(v + " +virtual" for v in variants)


def grid_against_cluster():
    """{variant: the largest factor between the grid's and the cluster's median of one cell}."""
    c, g = spread_medians("cluster"), spread_medians("grid")
    out = defaultdict(float)
    for k in c.keys() & g.keys():
        out[k[0]] = max(out[k[0]], max(c[k], g[k]) / min(c[k], g[k]))
    return out


def initial_spread_single(nodes):
    """The spread (standard deviation in % of the average) of all load on one node of N."""
    return 100 * math.sqrt(nodes - 1)


def equal_cells(virtual, integer):
    """The largest relative difference of best effort k = 1's and simple's spreads from a single node (the cluster)."""
    out = []
    for r in where("convergence", nodes=256, platform="cluster", topology="line", initial="single", strategy="besteffort",
                   k=1, virtual_load=virtual, integer=integer):
        s = where("convergence", nodes=256, platform="cluster", topology="line", initial="single", strategy="simple",
                  virtual_load=virtual, integer=integer, ratio=r["ratio"])[0]
        a, b = float(r["load_spread_percent"]), float(s["load_spread_percent"])
        out.append(abs(a - b) / a)
    return max(out)


def seed_1_spread(strategy, digits):
    """The spreads at the limit of a strategy's seed-1 runs (with and without virtual load) on the cluster's 256-node line
    from random loads, real load: 'lo% to hi'."""
    rows = where("convergence", nodes=256, platform="cluster", topology="line", initial="random", seed=1, integer="false",
                 variant=with_virtual(strategy))
    return span([float(r["load_spread_percent"]) for r in rows], f"{{:.{digits}f}}", "% to ")


BEST_EFFORT_K1 = with_virtual("besteffort k=1")
SIMPLE = with_virtual("simple")

claim(DETAILS, "All {} convergence runs on the 256-node lines, the cluster's and the grid's (every variant; random loads and "
      "a single loaded node, at ratios 10, 1 and 0.1): **{}** within the spec's time limit of {} tau",
      lambda: (len(line_256()), given("none converges", sum(map(converged, line_256())), 0),
               n(same(*{round(limit_tau(r)) for r in line_256() if r["status"] == "ok"}))))
claim(DETAILS, "`study/line-256-long.json` runs a sample of {} to {} tau",
      lambda: (word(len(runs("line-256-long"))), n(spec("line-256-long")["time_limit_tau"][0])))
claim(DETAILS, "checked): {}.",
      lambda: given("best effort k = 1 and Makhoul converge, simple does not",
                    {r["strategy"] for r in runs("line-256-long") if converged(r)}, {"besteffort", "makhoul"}))


def q1(**match):
    """Rows of docs/study/verdicts/q1-besteffort.csv (maximum date) that match."""
    return [r for r in verdict_table("q1-besteffort") if r["metric"] == "max" and all(r[c] == str(v) for c, v in match.items())]


@functools.lru_cache(maxsize=None)
def verdict_table(name):
    return list(csv.DictReader(open(os.path.join(ROOT, "docs", "study", "verdicts", name + ".csv"))))


def makhoul_exceptions(**cell):
    """The hypercube cells where Makhoul's date is not earlier than best effort's on every seed, for some k."""
    return sorted({(r["subject"], r["virtual_load"], r["integer"], r["ratio"]) for r in q1(other="Makhoul", **cell)
                   if r["subject_faster_seeds"] != "0"})


def simple_always_later(**cell):
    rows = [r for r in q1(other="simple", integer="false", **cell) if r["ratio"] in ("10", "1")]
    return all(r["subject_faster_seeds"] == r["both_converge"] != "0" for r in rows)


CUBE_256 = dict(nodes=256, platform="cluster", topology="hypercube", initial="random")

claim(DETAILS, "At {} seeds no cell can be decided by the page's exact test", lambda: random_seeds(256, "hypercube"))
claim(DETAILS, "Makhoul's date is earlier than each k of best effort's on every seed in every cell but {} (k = 4 with "
      "virtual load, real load, ratio 0.1), best effort's earlier than simple's on every seed with real load at ratios 10 "
      "and 1, and integer simple converges in {} of these runs",
      lambda: (given("one", makhoul_exceptions(**CUBE_256), [("best effort k=4", "true", "false", "0.1")]),
               given("none", simple_always_later(**CUBE_256), True) if not any(
                   converged(r) for name in ("convergence", "convergence-seeds-256") for r in where(
                       name, integer="true", variant=SIMPLE, **CUBE_256)) else "some"))
# Random loads are uniform weights (src/core/diffusion/initial_load.cpp): a standard deviation of 1/sqrt(12) over a mean of 1/2.
claim(DETAILS, "(a single loaded node starts at {}%, random loads at about {}%, the spread of uniform weights)",
      lambda: (f"{initial_spread_single(256):,.0f}", f"{100 / math.sqrt(3):.0f}"))
claim(DETAILS, "gives the same medians within {}% for every variant but simple without virtual load, whose cells differ by up "
      "to a factor {}",
      lambda: (at_most(100 * (max(v for k, v in grid_against_cluster().items() if k != "simple") - 1), 2.5, "2.5"),
               f"{grid_against_cluster()['simple']:.1f}"))
claim(DETAILS, "Best effort k = 1's real-load run from a single node at ratio 0.1, whose first cluster row was a {}, ends "
      "within minutes on the grid and, rerun, on the cluster",
      lambda: given("timeout", [(r["platform"], r["status"], wall(r) < 600) for r in every_row("convergence") if (
          r["nodes"], r["topology"], r["initial"], r["ratio"], r["integer"], variant(r)) == ("256", "line", "single", "0.1",
                                                                                           "false", "besteffort k=1")],
                    [("cluster", "timeout", False), ("grid", "ok", True), ("cluster", "ok", True)]))
claim(DETAILS, "best effort k = 1 comes closest ({}%), then simple ({}%), Makhoul ({}%), best effort k = 2 ({}%) and k = 4 "
      "({}%), nearly the same at every ratio and with or without virtual load. Integer load ends at {}% for every variant",
      lambda: (f"{min(spreads(variants=BEST_EFFORT_K1, initial='random', integer='false')):.2f}",
               span(spreads(variants=SIMPLE, initial="random", integer="false"), "{:.2f}", "% to "),
               f"{min(spreads(variants=with_virtual('makhoul'), initial='random', integer='false')):.2f}",
               f"{min(spreads(variants=with_virtual('besteffort k=2'), initial='random', integer='false')):.2f}",
               f"{min(spreads(variants=with_virtual('besteffort k=4'), initial='random', integer='false')):.2f}",
               span(spreads(initial="random", integer="true"), "{:.2f}", "% to ")))
claim(DETAILS, "the same order: best effort k = 1 ({}%;", lambda: span(
    [round(v) for v in spreads(variants=("besteffort k=1",), initial="single")], sep="% to "))
for _strategy, _name in (("simple", "simple"), ("makhoul", "Makhoul"), ("besteffort k=2", "best effort k = 2"),
                         ("besteffort k=4", "k = 4")):
    claim(DETAILS, _name + " ({}%)", functools.partial(
        lambda s: span([round(v) for v in spreads(variants=(s,), initial="single")], sep="% to "), _strategy))
claim(DETAILS, "Virtual load lowers each of these at ratio 10 (best effort k = 1 and simple to {}%), but at ratio 1 it leaves "
      "best effort k = 1 and simple at {}%, and at ratio 0.1 every variant at {}%",
      lambda: (and_list(sorted({round(v) for v in spreads(variants=("besteffort k=1 +virtual", "simple +virtual"),
                                                           initial="single", ratio="10")})).replace(" and", "% and"),
               span([round(v) for v in spreads(variants=("besteffort k=1 +virtual", "simple +virtual"), initial="single",
                                               ratio="1")], sep="% to "),
               span([round(v) for v in spreads(variants=tuple(v for v in verdicts_variants() if v.endswith("+virtual")),
                                               initial="single", ratio="0.1")], sep="% to ")))
claim(DETAILS, "(with virtual load the runs' spreads agree to {}, with integer load to {}%)",
      lambda: (f"{max(equal_cells('true', i) for i in ('false', 'true')):.0e}".replace("e-0", "e-"),
               f"{100 * equal_cells('false', 'true'):.2f}"))
claim(DETAILS, "seed 1 of simple ends at {}% with real load, where best effort k = 1 ends at {}%",
      lambda: (seed_1_spread("simple", 1), seed_1_spread("besteffort k=1", 2)))


def grid_cube(ratio, rows=runs, **match):
    return [r for r in rows("convergence") if (r["nodes"], r["platform"], r["topology"], r["initial"], r["ratio"]) ==
            ("256", "grid", "hypercube", "random", str(ratio)) and all(r[c] == v for c, v in match.items())]


def earliest_per_seed(rows):
    """{seed: the variant with the earliest date}."""
    best = {}
    for r in rows:
        if converged(r) and (r["seed"] not in best or date(r) < date(best[r["seed"]])):
            best[r["seed"]] = r
    return {s: variant(r) for s, r in best.items()}


def stopped_nodes(rows):
    return [int(r["converged_nodes"]) for r in rows if r["status"] == "ok" and not converged(r)]


claim(DETAILS, "At ratio 0.1 (slow communication, runs of {} minutes here) the grid's hypercube is the slowest case yet: "
      "convergence takes hundreds of tau, {} times the ratio-1 dates",
      lambda: (minutes(grid_cube("0.1", rows=every_row), "{:.0f}"),
               word(round(median([date(r) for r in grid_cube("0.1") if converged(r)]) /
                                     median([date(r) for r in grid_cube(1) if converged(r)])))))
claim(DETAILS, "**Real load:** best effort k = 4 + virtual has the earliest date on each of these {} seeds; several variants "
      "without virtual load stop with {} of 256 nodes converged (best effort k = 2 on every seed)",
      lambda: (given("three", earliest_per_seed(grid_cube("0.1", integer="false")),
                     {s: "besteffort k=4 +virtual" for s in ("1", "2", "3")}),
               given(span(stopped_nodes(grid_cube("0.1", integer="false"))),
                     len(stopped_nodes(grid_cube("0.1", integer="false", strategy="besteffort", k="2",
                                                 virtual_load="false"))), 3)))
claim(DETAILS, "every best-effort and Makhoul variant with virtual load stops at {} of 256 nodes",
      lambda: " or ".join(map(str, sorted(set(stopped_nodes([r for r in grid_cube("0.1", integer="true", virtual_load="true")
                                                             if r["strategy"] != "simple"]))))))
claim(DETAILS, "Integer simple does not converge ({} of 256 nodes)",
      lambda: given(span(stopped_nodes(grid_cube("0.1", integer="true", strategy="simple"))),
                    sum(map(converged, grid_cube("0.1", integer="true", strategy="simple"))), 0))


# The grid's 256-node hypercube from a single node at ratio 0.1.

def single_cube(v, integer):
    """The run of a variant on the grid's 256-node hypercube from a single node at ratio 0.1."""
    return where("convergence", nodes=256, platform="grid", topology="hypercube", initial="single", ratio="0.1",
                 integer=integer, variant=v)[0]


def timeout_row(v, integer):
    """The timeout row of that run (a rerun's row may have replaced it)."""
    return next(r for r in timeout_rows() if setting(r) == setting(single_cube(v, integer)))


def timed_out(v, integer):
    """(simulated s, of s, nodes in the band, data messages in flight) when that run reached its timeout."""
    return progress(timeout_row(v, integer))


def tau_of(v, integer, seconds):
    """Seconds of that run in tau (a timeout row has no tau of its own)."""
    r = single_cube(v, integer)
    return seconds / (float(r["load_per_node"]) * float(r["ratio"]) * 1e-3)


def integer_best_effort_first():
    """The earliest date of best effort's integer runs without virtual load."""
    return min(date(single_cube(f"besteffort k={k}", "true")) for k in (1, 2, 4))


def real_converging():
    """The variants whose real-load run converges."""
    return [v for v in verdicts_variants() if converged(single_cube(v, "false"))]


claim(DETAILS, "With real load, **{} is the only variant that converges**, and the fastest of any: {} tau, in {} s of wall "
      "time, with {} data messages in all. Makhoul without virtual load had {} data messages queued at once",
      lambda: ({("makhoul +virtual",): "Makhoul + virtual"}.get(tuple(real_converging())),
               f"{date(single_cube('makhoul +virtual', 'false')):,.1f}",
               f"{wall(single_cube('makhoul +virtual', 'false')):.0f}",
               n(int(single_cube("makhoul +virtual", "false")["data_messages"])), n(timed_out("makhoul", "false")[3])))
claim(DETAILS, "(and simple + virtual, {} tau simulated in its hour, {} of 256 nodes in the band)",
      lambda: (n(round(tau_of("simple +virtual", "false", timed_out("simple +virtual", "false")[0]))),
               timed_out("simple +virtual", "false")[2]))
claim(DETAILS, "simulated its {} tau and ended with {} of 256 nodes through their streak",
      lambda: (n(round(limit_tau(single_cube("besteffort k=1", "false")))),
               single_cube("besteffort k=1", "false")["converged_nodes"]))
claim(DETAILS, "With integer load, best effort without virtual load converges in {} tau (k = {} first) and Makhoul in {} tau, "
      "{}% later",
      lambda: (span([round(date(single_cube(f"besteffort k={k}", "true")), 1) for k in (1, 2, 4)], "{:,.0f}"),
               min((1, 2, 4), key=lambda k: date(single_cube(f"besteffort k={k}", "true"))),
               f"{date(single_cube('makhoul', 'true')):,.1f}",
               f"{100 * (date(single_cube('makhoul', 'true')) / integer_best_effort_first() - 1):.1f}"))
claim(DETAILS, "Makhoul + virtual simulated the whole {} tau (in {} minutes) to stop with {} of 256 nodes",
      lambda: (n(round(limit_tau(single_cube("makhoul +virtual", "true")))),
               f"{wall(single_cube('makhoul +virtual', 'true')) / 60:.0f}",
               single_cube("makhoul +virtual", "true")["converged_nodes"]))
claim(DETAILS, "reached the hour at {} tau with {} of 256 nodes in the band and {} data messages queued",
      lambda: (n(round(tau_of("simple +virtual", "true", timed_out("simple +virtual", "true")[0]))),
               timed_out("simple +virtual", "true")[2], n(timed_out("simple +virtual", "true")[3])))
claim(DETAILS, "Integer simple got furthest of the timeouts: {} tau in its hour, {} and {} of 256 through their 2,000-iteration "
      "streak. Rerun without a wall-clock limit it simulated its {} tau and ended with {} of 256",
      lambda: (n(round(tau_of("simple", "true", timed_out("simple", "true")[0]))),
               given("every node in the band", timed_out("simple", "true")[2], 256),
               re.search(r"; ([0-9]+) converged;", timeout_row("simple", "true")["error"]).group(1),
               n(round(limit_tau(single_cube("simple", "true")))), single_cube("simple", "true")["converged_nodes"]))
claim(DETAILS, "Makhoul with real load had simulated {} of the {} tau, with {} node in the band and {} data messages queued; "
      "best effort k = 4 + virtual with integer load {} tau, with {} of 256 nodes in the band and {} messages queued",
      lambda: (n(round(tau_of("makhoul", "false", timed_out("makhoul", "false")[0]))),
               n(round(tau_of("makhoul", "false", timed_out("makhoul", "false")[1]))),
               {0: "no"}.get(timed_out("makhoul", "false")[2], timed_out("makhoul", "false")[2]),
               n(timed_out("makhoul", "false")[3]),
               n(round(tau_of("besteffort k=4 +virtual", "true", timed_out("besteffort k=4 +virtual", "true")[0]))),
               timed_out("besteffort k=4 +virtual", "true")[2], n(timed_out("besteffort k=4 +virtual", "true")[3])))
claim(DETAILS, "An hour of wall time reaches only about {} of the spec's 20,000 tau in these runs",
      lambda: given("a quarter", all(0.2 <= p[0] / p[1] <= 0.3 for p in undecided_progress()), True))


# docs/study-details.md, 1,024 nodes.

def dates_1024(platform, topology, ratio, v):
    """{(integer, seed): date or None} of one variant."""
    return {(r["integer"], r["seed"]): (date(r) if converged(r) else None)
            for r in where("convergence-1024", platform=platform, topology=topology, initial="random", ratio=ratio,
                           variant=v)}


def first_in_every_column(platform, topology, ratio, winners):
    """Whether one of `winners` has the earliest date of every column."""
    columns = defaultdict(dict)
    for v in verdicts_variants():
        for c, d in dates_1024(platform, topology, ratio, v).items():
            if d is not None:
                columns[c][v] = d
    return all(min(c, key=c.get) in winners for c in columns.values())


def later_on_grid(v):
    c, g = dates_1024("cluster", "torus", 1, v), dates_1024("grid", "torus", 1, v)
    return sum(g[k] > c[k] for k in c), len(c)


def platforms_apart(*variants):
    return max(abs(dates_1024("grid", "torus", 1, v)[k] - dates_1024("cluster", "torus", 1, v)[k])
               for v in variants for k in dates_1024("cluster", "torus", 1, v))


def cube_order(ratio):
    """Per real-load column of the cluster's 1,024-node hypercube: Makhoul's variants first, then best effort k = 2 and 4,
    then k = 1, simple last."""
    groups = [with_virtual("makhoul"), with_virtual("besteffort k=2", "besteffort k=4"), with_virtual("besteffort k=1"),
              SIMPLE]
    d = {v: dates_1024("cluster", "hypercube", ratio, v) for v in verdicts_variants()}
    for seed in ("1", "2", "3"):
        for before, after in zip(groups, groups[1:]):
            if max(d[v][("false", seed)] for v in before) >= min(d[v][("false", seed)] for v in after):
                return False
    return True


def streak_nodes(ratio, v):
    """{seed: nodes through their streak} of a variant's integer runs on the cluster's 1,024-node hypercube."""
    rows = where("convergence-1024", platform="cluster", topology="hypercube", initial="random", ratio=ratio,
                 integer="true", variant=v)
    return {r["seed"]: int(r["converged_nodes"]) for r in rows}


def others_without_virtual(ratio):
    return [x for v in ("besteffort k=2", "besteffort k=4", "makhoul") for x in streak_nodes(ratio, v).values()]


def virtual_shift(ratio):
    """The largest change of the nodes through their streak that virtual load makes, for the variants but best effort k = 1."""
    return max(abs(streak_nodes(ratio, v + " +virtual")[s] - streak_nodes(ratio, v)[s])
               for v in ("besteffort k=2", "besteffort k=4", "makhoul", "simple") for s in streak_nodes(ratio, v))


def last_on_grid_cube():
    """Whether best effort k = 1 (with and without virtual load) comes after every other variant on every seed of the grid's
    1,024-node hypercube at ratio 10 (real load)."""
    d = {v: dates_1024("grid", "hypercube", 10, v) for v in verdicts_variants()}
    return all(d[k1][("false", s)] > max(d[v][("false", s)] for v in verdicts_variants() if v not in BEST_EFFORT_K1)
               for k1 in BEST_EFFORT_K1 for s in ("1", "2", "3"))


claim(DETAILS, "seeds 1 to 3 ({} of the runs in `docs/study/convergence-1024.csv`; `study/report.sh 1024` writes its summary "
      "to `docs/study/1024-nodes/`): {}",
      lambda: (len(where("convergence-1024", topology="torus")),
               given("every run converges", all(map(converged, where("convergence-1024", topology="torus"))), True)))
claim(DETAILS, "In both tables {}",
      lambda: given("best effort k = 1 (with or without virtual load) is first in every column",
                    [first_in_every_column(p, "torus", 1, BEST_EFFORT_K1) for p in ("cluster", "grid")], [True, True]))
claim(DETAILS, "without it best effort k = 1 comes later on the grid in {}, and Makhoul in {} of {}; with it the two platforms' "
      "dates of best effort k = 1 and of Makhoul are within {} tau of each other",
      lambda: ((lambda later, of: "every column" if later == of else f"{later} of {of}")(*later_on_grid("besteffort k=1")),
               word(later_on_grid("makhoul")[0]), word(later_on_grid("makhoul")[1]),
               at_most(platforms_apart("besteffort k=1 +virtual", "makhoul +virtual"), 1, "1")))
claim(DETAILS, "({} runs at both ratios; its integer-load half at ratio 1: {} of {} runs",
      lambda: (len(cube_1024(platform="cluster", integer="false")), len(integer_hypercube_1024(1)), per_ratio_runs_1024()))
claim(DETAILS, "Its order is the one of the smaller hypercubes: {}",
      lambda: given("Makhoul first in every column, with and without virtual load, then the damped best effort (k = 2 and 4 "
                    "ahead of k = 1), simple last", cube_order(1), True))
claim(DETAILS, "whose diameter is {} hops against {}", lambda: (torus_diameter(1024), dimension(1024)))
claim(DETAILS, "reach the simulated limit ({} tau) without converging, with about as many nodes through their streak as the "
      "same variant's at ratio 10. The other {} integer-load runs",
      lambda: (given(n(same(*{round(limit_tau(r)) for r in integer_hypercube_1024(1)})),
                     sum(map(converged, integer_hypercube_1024(1))), 0),
               per_ratio_runs_1024() - len(integer_hypercube_1024(1))))
claim(DETAILS, "the real-load order is the same, and all {} integer-load runs are in",
      lambda: given(len(integer_hypercube_1024(10)), cube_order(10), True))
claim(DETAILS, "Simple gets only {} nodes through their streak, best effort k = 1 {}, the others {}. With virtual load (the "
      "table's \"+ virtual\" rows), best effort k = 1 gets more nodes through ({}, against {} without) and the others stay "
      "within {} nodes of their counts without it",
      lambda: (span(streak_nodes(10, "simple").values()), span(streak_nodes(10, "besteffort k=1").values()),
               span(others_without_virtual(10)), span(streak_nodes(10, "besteffort k=1 +virtual").values()),
               span(streak_nodes(10, "besteffort k=1").values()), virtual_shift(10)))
claim(DETAILS, "On the grid's hypercube at ratio 10 ({} runs with real load; its ratio 1 is not in",
      lambda: given(len(cube_1024(platform="grid", integer="false", ratio=10)), len(cube_1024(platform="grid", ratio=1)), 0))
claim(DETAILS, "the order is the same but for best effort k = 1, which comes last, after simple, with and without virtual "
      "load on every seed: at {} seeds these two cells of best effort k = 1 against simple are ties with every seed one way",
      lambda: given(random_seeds(1024), (last_on_grid_cube(), [(r["verdict"], r["subject_faster_seeds"]) for r in q1(
          nodes=1024, platform="grid", topology="hypercube", ratio=10, integer="false", subject="best effort k=1",
          other="simple")]), (True, [("tie", "0")] * 2)))


# docs/study-details.md, "The deadlock the draft fears (simple), and residue".

PHASES = {"aligned": "convergence", "staggered": "convergence-staggered"}
RESIDUE = "| phases | nodes | virtual load | runs | converge (draft's rule)"  # checked by residue_check.py


def simple_lines(phase, nodes, virtual, converging=None):
    rows = where(PHASES[phase], nodes=nodes, topology="line", strategy="simple", integer="false", virtual_load=virtual)
    return rows if converging is None else [r for r in rows if converged(r) == converging]


def residue_ratios(part):
    """The date ratios of the checked residue table: its medians (part 0) or its ranges' ends (part 1)."""
    out = []
    for row in header_table(DETAILS, RESIDUE):
        m = re.match(r"([0-9.]+) \(([0-9.]+) to ([0-9.]+)\)", row[6])
        if m:
            out += [float(m.group(1))] if part == 0 else [float(m.group(2)), float(m.group(3))]
    return out


def fail_either_way():
    return [r for phase in PHASES for s in (16, 64) for r in simple_lines(phase, s, "true", converging=False)]


claim(DETAILS, "{} of simple's {} real-load line runs do not converge (\"Balancing phases\" below)",
      lambda: (len(simple_lines("staggered", 16, "false", converging=False)), len(simple_lines("staggered", 16, "false"))))
claim(DETAILS, "simple without virtual load fails on the grid's line from random loads, seed 1, at ratios {} (aligned phases: "
      "{} of 64 nodes)",
      lambda: (given("10 and 0.1", [(r["platform"], r["initial"], r["seed"], r["ratio"])
                                     for r in simple_lines("aligned", 64, "false", converging=False)],
                     [("grid", "random", "1", "10"), ("grid", "random", "1", "0.1")]),
               and_list(r["converged_nodes"] for r in simple_lines("aligned", 64, "false", converging=False))))
claim(DETAILS, "With staggered phases simple without virtual load fails on {} of its real-load lines",
      lambda: ("all " if not simple_lines("staggered", 64, "false", converging=True) else "") +
      str(len(simple_lines("staggered", 64, "false", converging=False))))
claim(DETAILS, "simple's seed 1 ends at {}% where the other variants' medians are {}% (the spread table above)",
      lambda: (seed_1_spread("simple", 1),
               span([v for v in spreads(variants=tuple(v for v in verdicts_variants() if v not in SIMPLE), initial="random",
                                        integer="false")], "{:.2f}", "% to ")))
claim(DETAILS, "still 905 | 1,039 at the limit, {} s",
      lambda: n(round(float(where("convergence", nodes=256, platform="cluster", topology="line", initial="random", seed=1,
                                  ratio=10, integer="false", variant="simple")[0]["simulated_time"]))))
claim(DETAILS, "Without virtual load, the {} aligned runs and the {} + {} staggered runs that never converge under the draft's "
      "rule",
      lambda: (sum(len(simple_lines("aligned", s, "false", converging=False)) for s in (16, 64)),
               len(simple_lines("staggered", 16, "false", converging=False)),
               len(simple_lines("staggered", 64, "false", converging=False))))
claim(DETAILS, "converge at about the same date (medians {}), though single runs move both ways ({}x)",
      lambda: (span(residue_ratios(0), "{:.3f}"), span(residue_ratios(1), "{:.2f}", "x to ")))
claim(DETAILS, "**The {} runs that fail either way are not deadlocks:** simple with virtual load from a single loaded node at "
      "ratio {} (seed 1 of each platform and phase), where {} of 64 nodes converge and the spread is still {}% at the time "
      "limit",
      lambda: (len(fail_either_way()), same(*{r["ratio"] for r in fail_either_way()}),
               " or ".join(sorted({r["converged_nodes"] for r in fail_either_way()})),
               span([float(r["load_spread_percent"]) for r in fail_either_way()], "{:.0f}", "% to ")))


# docs/study-details.md, "4. Runs of a fixed duration" (study-1: 100 tau at every size).

def none_of(r):
    """The computed load of the run without balancing in a run's configuration."""
    key = (r["nodes"], r["platform"], r["topology"], r["initial"], r["seed"], r["ratio"], r["integer"])
    return none_computed()[key]


@functools.lru_cache(maxsize=None)
def none_computed():
    return {(r["nodes"], r["platform"], r["topology"], r["initial"], r["seed"], r["ratio"], r["integer"]):
            float(r["computed_load"]) for r in where("fixed-duration", strategy="none", virtual_load="false")}


def gain(r):
    return float(r["computed_load"]) / none_of(r)


def balancing(nodes, **match):
    return [r for r in where("fixed-duration", nodes=nodes, **match) if r["strategy"] != "none"]


def gains(nodes, **match):
    return [gain(r) for r in balancing(nodes, **match)]


def median_gains(nodes, initial="random"):
    """{(variant, ratio): median gain over the configurations}."""
    out = defaultdict(list)
    for r in balancing(nodes, initial=initial):
        out[(variant(r), r["ratio"])].append(gain(r))
    return {k: median(v) for k, v in out.items()}


@functools.lru_cache(maxsize=None)
def fixed_duration(nodes, random_only=False):
    """fixed_duration_table.py's figures, unrounded (fixed_duration_table.figures)."""
    return fixed_duration_table.figures(where("fixed-duration", nodes=nodes), str(nodes), random_only)


def none_beats_virtual_best_effort(nodes, ratio):
    """The random-load configurations where `none` computes more than every best-effort variant with virtual load:
    [(platform, topology, seed, how much less the best of them computes, as a share of `none`'s)]."""
    out = []
    groups = defaultdict(list)
    for r in balancing(nodes, initial="random", ratio=ratio, strategy="besteffort", virtual_load="true"):
        groups[(r["platform"], r["topology"], r["seed"], r["integer"])].append(r)
    for (platform, topology, seed, _), rows in sorted(groups.items()):
        best = max(float(r["computed_load"]) for r in rows)
        if none_of(rows[0]) > best:
            out.append((platform, topology, seed, 1 - best / none_of(rows[0])))
    return out


def counter_examples(nodes):
    """(count, the winners of the counter-examples) of N-nodes/fixed-duration.md."""
    text = summary(f"{nodes}-nodes/fixed-duration.md")
    count = int(re.search(r"Counter-examples: .*?\(([0-9]+) of", text).group(1))
    return count, [(row[1], "initial=single" in row[0]) for row in table_after(text, "Counter-examples")]


FD_STRATEGIES = fixed_duration_table.STRATEGIES
FD_METRICS = ("computed_load", "data_transfer_amount")


for _ratio in ("10", "1", "0.1"):
    approx(DETAILS, "| " + _ratio + " | {}x ({}x) | {}x ({}x) |", functools.partial(
        lambda ratio: tuple(f(gains(s, initial="single", ratio=ratio)) for s in (16, 64) for f in (median, min)), _ratio))
claim(DETAILS, "from `fixed-duration.csv`; {} runs per ratio and size)",
      lambda: same(*(len(balancing(s, initial="single", ratio=r)) for s in (16, 64) for r in ("10", "1", "0.1"))))
claim(DETAILS, "by any variant or by `none` ({} runs, every `computed_load` and `data_transfer_amount` {})",
      lambda: (len(where("fixed-duration", nodes=256, initial="single")),
               f'{same(*{float(r[c]) for r in where("fixed-duration", nodes=256, initial="single") for c in FD_METRICS}):g}'))
claim(DETAILS, "the loaded node's first computing iteration lasts {} tau ({} units",
      lambda: (256, n(256 * units())))
claim(DETAILS, "Those {} configurations per ratio are all ties; the 256-node figures below are over the {} random-load "
      "configurations per ratio",
      lambda: (configurations_per_ratio("fixed-duration", 256, initial="single"),
               configurations_per_ratio("fixed-duration", 256, initial="random")))
claim(DETAILS, "100 tau is then {} s, less than the {} s it takes the {} units that must leave the loaded node",
      lambda: (f"{100 * tau_at('0.1'):g}", (16 - 1) * units() // 1000,
               n((16 - 1) * units())))
claim(DETAILS, "simple + virtual on the torus computes only a {} of what the loaded node computes alone",
      lambda: (lambda r: given({6: "sixth"}.get(round(1 / gain(r))), (variant(r), r["topology"]), ("simple +virtual", "torus")))(
          min(balancing(16, initial="single", ratio="0.1"), key=gain)))
approx(DETAILS, "(torus and hypercube {}x to {}x; the line {}x to {}x, median {}x, against {}x at 16 nodes)",
       lambda: (min(gains(64, initial="single", ratio="10", topology=("torus", "hypercube"))),
                max(gains(64, initial="single", ratio="10", topology=("torus", "hypercube"))),
                min(gains(64, initial="single", ratio="10", topology="line")),
                max(gains(64, initial="single", ratio="10", topology="line")),
                median(gains(64, initial="single", ratio="10", topology="line")),
                median(gains(16, initial="single", ratio="10", topology="line"))))
claim(DETAILS, "The loaded node computes its {} units for {} tau before anything leaves, and the {} units that must leave then "
      "take {} s on its link: {} tau at ratio 10, but {} tau at ratio 1 and {} tau at ratio 0.1",
      lambda: (n(64 * units()), 64, n(63 * units()), 63 * units() // 1000,
               *(f"{63 * units() / 1000 / tau_at(r):g}"
                 for r in ("10", "1", "0.1"))))


def single_64_rest():
    """The gains at 64 nodes at ratios 1 and 0.1 but simple at ratio 1's and simple + virtual's."""
    return [gain(r) for r in balancing(64, initial="single", ratio=("1", "0.1"))
            if not (r["ratio"] == "1" and variant(r) == "simple") and variant(r) != "simple +virtual"]


approx(DETAILS, "compute {}x to {}x what `none` computes (medians {}x and {}x; simple + virtual up to {}x)",
       lambda: (min(single_64_rest()), max(single_64_rest()), median(gains(64, initial="single", ratio="1")),
                median(gains(64, initial="single", ratio="0.1")),
                max(gains(64, initial="single", ratio=("1", "0.1"), variant="simple +virtual"))))
approx(DETAILS, "reaches {}x on the torus and {}x on the hypercube",
       lambda: tuple(max(gains(64, initial="single", ratio="1", variant="simple", topology=t)) for t in ("torus", "hypercube")))
claim(DETAILS, "Simple or simple + virtual is the winner of {} of the {} fixed-duration counter-examples at 64 nodes (all {} at "
      "16 nodes), {}",
      lambda: (sum(w.startswith("simple") for w, _ in counter_examples(64)[1]), counter_examples(64)[0],
               given(counter_examples(16)[0], all(w.startswith("simple") for w, _ in counter_examples(16)[1]), True),
               given("all from a single loaded node", all(s for s in (16, 64) for _, s in counter_examples(s)[1]), True)))
approx(DETAILS, "(median per variant and ratio {}-{}, {}-{} and, at ratios 10 and 1, {}-{})",
       lambda: tuple(f(v for (var, ratio), v in median_gains(s).items() if keep(var, ratio))
                     for s, keep in ((16, lambda v, r: not (r == "0.1" and v.endswith("+virtual"))),
                                     (64, lambda v, r: not (r == "0.1" and v.endswith("+virtual"))),
                                     (256, lambda v, r: r != "0.1")) for f in (min, max)))
approx(DETAILS, "where every strategy but best effort k = 4 falls below that (medians {}-{} at 16 nodes, {}-{} at 64)",
       lambda: tuple(f(v for (var, ratio), v in median_gains(s).items() if ratio == "0.1" and var.endswith("+virtual")
                       and var != "besteffort k=4 +virtual") for s in (16, 64) for f in (min, max)))
approx(DETAILS, "best effort k = 1 + virtual computes a median {}x (16 nodes) and {}x (64 nodes) of `none`, down to {}x and {}x "
       "(grid, hypercube), simple + virtual {}x and {}x",
       lambda: (median_gains(16)[("besteffort k=1 +virtual", "0.1")], median_gains(64)[("besteffort k=1 +virtual", "0.1")],
                min(gains(16, initial="random", ratio="0.1", variant="besteffort k=1 +virtual")),
                min(gains(64, initial="random", ratio="0.1", variant="besteffort k=1 +virtual")),
                median_gains(16)[("simple +virtual", "0.1")], median_gains(64)[("simple +virtual", "0.1")]))
claim(DETAILS, "`none` ranks last in {} of the {} configurations at 16 nodes and {} at 64",
      lambda: (fixed_duration(16)[1], fixed_duration(16)[2], given(fixed_duration(64)[1], fixed_duration(64)[2],
                                                                  fixed_duration(16)[2])))
approx(DETAILS, "at 64 nodes it even beats every best-effort variant with virtual load in {} of them, all on the grid at ratio "
       "0.1 (the hypercube from random seeds 2 and 3, the torus from seed 2), by {}-{}%",
       lambda: (len(none_beats_virtual_best_effort(64, "0.1")) if not any(none_beats_virtual_best_effort(64, r)
                                                                          for r in ("10", "1")) and
                {x[:3] for x in none_beats_virtual_best_effort(64, "0.1")} ==
                {("grid", "hypercube", "2"), ("grid", "hypercube", "3"), ("grid", "torus", "2")} else -1,
                100 * min(x[3] for x in none_beats_virtual_best_effort(64, "0.1")),
                100 * max(x[3] for x in none_beats_virtual_best_effort(64, "0.1"))))
approx(DETAILS, "virtual computes a median {}x of `none` (down to {}x), simple + virtual {}x, Makhoul + virtual {}x, while every "
       "variant without virtual load computes {}-{}x",
       lambda: (median_gains(256)[("besteffort k=1 +virtual", "0.1")],
                min(gains(256, initial="random", ratio="0.1", variant="besteffort k=1 +virtual")),
                median_gains(256)[("simple +virtual", "0.1")], median_gains(256)[("makhoul +virtual", "0.1")],
                min(v for (var, r), v in median_gains(256).items() if r == "0.1" and not var.endswith("+virtual")),
                max(v for (var, r), v in median_gains(256).items() if r == "0.1" and not var.endswith("+virtual"))))


def none_beats_256(topology):
    return [x[3] for x in none_beats_virtual_best_effort(256, "0.1") if x[:2] == ("grid", topology)]


approx(DETAILS, "in {} of the {} random configurations at ratio 0.1 (the six grid hypercubes, by {}-{}%, and four grid tori, by "
       "{}-{}%)",
       lambda: (len(none_beats_virtual_best_effort(256, "0.1")) if len(none_beats_256("hypercube")) == 6 and
                len(none_beats_256("torus")) == 4 else -1,
                configurations_per_ratio("fixed-duration", 256, initial="random"),
                100 * min(none_beats_256("hypercube")), 100 * max(none_beats_256("hypercube")),
                100 * min(none_beats_256("torus")), 100 * max(none_beats_256("torus"))))
claim(DETAILS, "it ranks last in {} of the {} random-load configurations ({} at 16 nodes, {} at 64",
      lambda: (fixed_duration(256, True)[1], fixed_duration(256, True)[2], fixed_duration(16, True)[1],
               fixed_duration(64, True)[1]))


def virtual_medians(nodes, ratio, random_only=False):
    v = fixed_duration(nodes, random_only)[0][ratio][3].values()
    return min(v), max(v)


def data_ranks(nodes, strategy, random_only=False):
    ranks = [fixed_duration(nodes, random_only)[0][r][2][strategy + x] for r in ("10", "1", "0.1") for x in ("", " +v")]
    return min(ranks), max(ranks)


def data_ratios(nodes, k, random_only=False):
    ratios = [fixed_duration(nodes, random_only)[0][r][4][(k, x)] for r in ("10", "1", "0.1") for x in ("", " +v")]
    return min(ratios), max(ratios)


def figures(nodes, ratio, random_only=False):
    return fixed_duration(nodes, random_only)[0][ratio]


approx(DETAILS, "| median with/without virtual load, ratio 10 | {} | {} | {} |",
       lambda: (virtual_medians(16, "10"), virtual_medians(64, "10"), virtual_medians(256, "10", True)))
approx(DETAILS, "| same, ratio 1 | {} | {} | {} |",
       lambda: (virtual_medians(16, "1"), virtual_medians(64, "1"), virtual_medians(256, "1", True)))


def led_by(nodes, ratio, names, random_only=False):
    """Per variant named, (wins, configurations, mean rank), when they are the variants with the most wins, in that order
    (ties in either order); else -1s."""
    wins, rank, _, _, _, configs = figures(nodes, ratio, random_only)
    top = sorted(wins.values(), reverse=True)[:len(names)]
    if sorted((wins[v] for v in names), reverse=True) != top or [wins[v] for v in names] != sorted(
            (wins[v] for v in names), reverse=True):
        return [(-1, -1, -1)] * len(names)
    return [(wins[v], configs, rank[v]) for v in names]


approx(DETAILS, "| most wins by computed load, ratio 1 | best effort k=1 {}/{} (mean rank {}), simple {}/{} | best effort k=1 "
       "{}/{} (mean rank {}), simple {}/{}, Makhoul {}/{} | best effort k=4 {}/{} (mean rank {}), best effort k=1 {}/{} ({}) |",
       lambda: (lambda a, b, c: (*a[0], *a[1][:2], *b[0], *b[1][:2], *b[2][:2], *c[0], *c[1]))(
           led_by(16, "1", ["besteffort k=1", "simple"]), led_by(64, "1", ["besteffort k=1", "simple", "makhoul"]),
           led_by(256, "1", ["besteffort k=4", "besteffort k=1"], True)))
approx(DETAILS, "| most wins, ratio 0.1 | best effort k=2 and k=4 {}/{} each (k=4 mean rank {}) | best effort k=4 {}/{} "
       "(mean rank {}), simple {}/{} | best effort k=4 {}/{} (mean rank {}) |",
       lambda: (lambda a, b, c: (same(a[0][0], a[1][0]), a[1][1], a[1][2], *b[0], *b[1][:2], *c[0]))(
           led_by(16, "0.1", ["besteffort k=2", "besteffort k=4"]), led_by(64, "0.1", ["besteffort k=4", "simple"]),
           led_by(256, "0.1", ["besteffort k=4"], True)))
approx(DETAILS, "| best effort k=1 + virtual at ratio 0.1: median with/without, mean rank of 12 | {}, {} | {}, {} | {}, {} |",
       lambda: tuple(x for nodes, random_only in ((16, False), (64, False), (256, True))
                     for x in (figures(nodes, "0.1", random_only)[3]["besteffort k=1"],
                               figures(nodes, "0.1", random_only)[1]["besteffort k=1 +v"])))
approx(DETAILS, "(Random loads only, for comparison with the 256-node column: best effort k = 1 wins {}/{} at 16 nodes and "
       "{}/{} at 64 at ratio 1, best effort k = 4 wins {}/{} and {}/{} at ratio 0.1.",
       lambda: (*led_by(16, "1", ["besteffort k=1"], True)[0][:2], *led_by(64, "1", ["besteffort k=1"], True)[0][:2],
                *led_by(16, "0.1", ["besteffort k=4"], True)[0][:2], *led_by(64, "0.1", ["besteffort k=4"], True)[0][:2]))
approx(DETAILS, "k = 1 with virtual load computes {}% (16 nodes) and {}% (64 nodes) less than without at ratio 0.1 (medians "
       "{} and {})",
       lambda: (100 * (1 - figures(16, "0.1")[3]["besteffort k=1"]), 100 * (1 - figures(64, "0.1")[3]["besteffort k=1"]),
                figures(16, "0.1")[3]["besteffort k=1"], figures(64, "0.1")[3]["besteffort k=1"]))
approx(DETAILS, "it wins most often at ratio 1 and wins {} of the {} random configurations at ratio 0.1, where k = 1 with "
       "virtual load computes {}% less than without",
       lambda: (led_by(256, "0.1", ["besteffort k=4"], True)[0][0] if led_by(256, "1", ["besteffort k=4"], True)[0][0] > 0
                else -1,
                led_by(256, "0.1", ["besteffort k=4"], True)[0][1], 100 * (1 - figures(256, "0.1", True)[3]["besteffort k=1"])))
for _strategy, _name in (("besteffort k=1", "best effort k=1"), ("simple", "simple"), ("makhoul", "Makhoul"),
                         ("besteffort k=2", "best effort k=2"), ("besteffort k=4", "best effort k=4")):
    approx(DETAILS, "| " + _name + " | {} | {} | {} |", functools.partial(
        lambda s: (data_ranks(16, s), data_ranks(64, s), data_ranks(256, s, True)), _strategy))
approx(DETAILS, "(median k=2 / k=1: {} at 16 nodes, {} at 64, {} at 256; k=4 / k=1: {}, {} and {};",
       lambda: tuple(data_ratios(nodes, k, nodes == 256) for k in ("2", "4") for nodes in (16, 64, 256)))


# docs/study-details.md, "5. Short runs" (study-1: 50 tau at every size).

def short_summary(nodes):
    return summary(f"{nodes}-nodes/short.md")


def only_best_effort(nodes):
    """(pairs where only best effort converges, pairs) of N-nodes/short.md."""
    m = re.search(r"Only best effort valid \(converged\) in ([0-9]+) of ([0-9]+)", short_summary(nodes))
    return int(m.group(1)), int(m.group(2))


def lead_rows(nodes, topology):
    """The rows of a topology in the summary's "Best effort against Makhoul and simple" table."""
    return [r for r in table_after(short_summary(nodes), "Best effort against Makhoul and simple") if r[1] == topology]


def none_valid(nodes):
    return sum(int(r[8]) for r in lead_rows(nodes, "all"))


def short_converged(nodes, **match):
    rows = where("short", nodes=nodes, **match)
    return sum(map(converged, rows)), len(rows)


def short_wins(nodes, v, ratio, topology=None):
    """A variant's wins ("8/16") at a ratio in N-nodes/short.md, over every configuration or on one topology."""
    if topology is None:
        return summary_cell(short_summary(nodes), "Wins (rank 1, ties included)", v, f"ratio {ratio} wins")
    return summary_cell(short_summary(nodes), "Wins / complete configurations, per ratio and topology", v,
                        f"topology {topology}, ratio {ratio}")


def short_mean_rank(nodes, v, ratio):
    return float(summary_cell(short_summary(nodes), "Wins (rank 1, ties included)", v, f"ratio {ratio} mean rank"))


def short_runs(nodes):
    return short_runs_per_variant(nodes, "short")


def short_runs_of(nodes):
    """The runs per variant of N-nodes/short.md."""
    return int(same(*(r[1] for r in table_after(short_summary(nodes), "Runs per variant"))))


def only_best_effort_pairs(nodes, topology):
    """[(virtual load, the k that converge)] of the pairs (configuration, virtual load) where best effort converges and
    neither Makhoul nor simple does, at a size and topology."""
    pairs = defaultdict(list)
    for r in where("short", nodes=nodes, topology=topology):
        pairs[(r["platform"], r["initial"], r["seed"], r["ratio"], r["integer"], r["virtual_load"])].append(r)
    out = []
    for key, rows in sorted(pairs.items()):
        best_effort = sorted(r["k"] for r in rows if r["strategy"] == "besteffort" and converged(r))
        if best_effort and not any(converged(r) for r in rows if r["strategy"] != "besteffort"):
            out.append((key[-1], tuple(best_effort)))
    return out


SHORT_NAMES = [("besteffort k=2 +virtual", "best effort k=2 + virtual"), ("makhoul +virtual", "Makhoul + virtual"),
               ("besteffort k=4 +virtual", "best effort k=4 + virtual"), ("makhoul", "Makhoul"),
               ("simple +virtual", "simple + virtual"), ("besteffort k=2", "best effort k=2"),
               ("besteffort k=1", "best effort k=1"), ("besteffort k=1 +virtual", "best effort k=1 + virtual"),
               ("besteffort k=4", "best effort k=4"), ("simple", "simple")]

claim(DETAILS, "| pairs where only best effort converges | **{} of {}** | **{} of {}** | **{} of {}** |",
      lambda: tuple(x for s in (16, 64, 256) for x in only_best_effort(s)))
claim(DETAILS, "| pairs where no variant converges | {} | {} | {} |", lambda: tuple(none_valid(s) for s in (16, 64, 256)))
claim(DETAILS, "| runs from a single loaded node that converge | line {}/{}, torus {}/{}, hypercube {}/{} | {}/{} on every "
      "topology | {}/{} on every topology |",
      lambda: (*(x for t in ("line", "torus", "hypercube") for x in short_converged(16, initial="single", topology=t)),
               *short_converged(64, initial="single"), *short_converged(256, initial="single")))
claim(DETAILS, "| runs at ratio 0.1 (50 tau = {} s) that converge | {}/{} | {}/{} | {}/{} |",
      lambda: (f"{50 * tau_at('0.1'):g}",
               *(x for s in (16, 64, 256) for x in short_converged(s, ratio="0.1"))))


def short_runs_cell(nodes, v):
    """A count of the table of converged short runs; the page marks the largest at 64 and 256 nodes."""
    counts = short_runs(nodes)
    return f"**{counts[v]}**" if nodes != 16 and counts[v] == max(counts.values()) else str(counts[v])


for _v, _name in SHORT_NAMES:
    claim(DETAILS, "| " + _name + " | {} | {} | {} |", functools.partial(
        lambda v: tuple(short_runs_cell(s, v) for s in (16, 64, 256)), _v))
claim(DETAILS, "Makhoul with virtual load converges almost as often and is faster where both converge at ratios 10 and 1 (wins "
      "{} and {})", lambda: (short_wins(16, "makhoul +virtual", "10"), short_wins(16, "makhoul +virtual", "1")))


def torus_256_short():
    """The variants converging on the 256-node torus within 50 tau, {variant: runs}, and whether all are from random loads at
    ratios 10 and 1."""
    rows = [r for r in where("short", nodes=256, topology="torus") if converged(r)]
    return Counter(map(variant, rows)), all(r["initial"] == "random" and r["ratio"] in ("10", "1") for r in rows)


claim(DETAILS, "At 64 nodes Makhoul with virtual load converges the most often ({} of {}, best effort k = 2 + virtual {}) and "
      "has the best mean rank at every ratio ({}; wins {}); best effort k = 1 + virtual wins the torus ({} at ratio 10, {} at "
      "ratio 1, hence {} at ratio 1), as in question 1, and best effort k = 4 rarely converges in time ({} and {} of 144)",
      lambda: (short_runs(64)["makhoul +virtual"], short_runs_of(64), short_runs(64)["besteffort k=2 +virtual"],
               given(", ".join(half_up(short_mean_rank(64, "makhoul +virtual", r), 2) for r in ("10", "1", "0.1")),
                     [min(short_mean_rank(64, v, r) for v in verdicts_variants()) == short_mean_rank(64, "makhoul +virtual", r)
                      for r in ("10", "1", "0.1")], [True] * 3),
               ", ".join(short_wins(64, "makhoul +virtual", r) for r in ("10", "1", "0.1")),
               short_wins(64, "besteffort k=1 +virtual", "10", "torus"), short_wins(64, "besteffort k=1 +virtual", "1", "torus"),
               short_wins(64, "besteffort k=1 +virtual", "1"), short_runs(64)["besteffort k=4"],
               short_runs(64)["besteffort k=4 +virtual"]))
claim(DETAILS, "only best effort with k = 1 converges within 50 tau: {} runs ({} with virtual load), no Makhoul, simple or "
      "damped best-effort run. These are {} of the {} pairs where only best effort converges; the other {} are {}",
      lambda: (given(sum(torus_256_short()[0].values()), (sorted(torus_256_short()[0]), torus_256_short()[1]),
                     (list(BEST_EFFORT_K1), True)),
               torus_256_short()[0]["besteffort k=1 +virtual"], len(only_best_effort_pairs(256, "torus")),
               only_best_effort(256)[0], len(only_best_effort_pairs(256, "hypercube")),
               given("hypercube pairs with virtual load where damped best effort (k = 4) converges and Makhoul does not",
                     set(only_best_effort_pairs(256, "hypercube")) | set(only_best_effort_pairs(256, "line")),
                     {("true", ("4",))})))
claim(DETAILS, "Best effort k = 1 with virtual load converges the most often overall ({} of 144) and wins the torus ({} at ratio "
      "10, {} at ratio 1). On the hypercube most variants converge and Makhoul with virtual load wins again ({} at ratio 10, {} "
      "at ratio 1); on the line nothing converges, {}",
      lambda: (given(short_runs(256)["besteffort k=1 +virtual"], max(short_runs(256), key=short_runs(256).get),
                     "besteffort k=1 +virtual"),
               *(short_wins(256, "besteffort k=1 +virtual", r, "torus") for r in ("10", "1")),
               short_wins(256, "makhoul +virtual", "10", "hypercube"), short_wins(256, "makhoul +virtual", "1", "hypercube"),
               given("nor does simple anywhere", (short_converged(256, topology="line")[0],
                                                  short_runs(256)["simple"] + short_runs(256)["simple +virtual"]), (0, 0))))


# docs/study-details.md, "Integer load, platforms".

def integer_wins(nodes, v, ratio, integer):
    return summary_cell(summary(f"{nodes}-nodes/convergence.md"), "Wins / complete configurations, per ratio and integer", v,
                        f"integer {integer}, ratio {ratio}")


def platform_wins(nodes, v, ratio, platform):
    return summary_cell(summary(f"{nodes}-nodes/convergence.md"), "Wins / complete configurations, per ratio and platform", v,
                        f"platform {platform}, ratio {ratio}")


def cube_64(strategy, integer):
    """The 64-node hypercube's random-load runs of a strategy, with and without virtual load (study-1)."""
    return where("convergence", nodes=64, topology="hypercube", initial="random", variant=with_virtual(strategy),
                 integer=integer)


def integer_over_real(strategy):
    dates = [median([date(r) for r in cube_64(strategy, i) if converged(r)]) for i in ("true", "false")]
    return dates[0] / dates[1]


@functools.lru_cache(maxsize=None)
def tails(nodes, topology, integer):
    """The converged runs of best effort and Makhoul (simple, which mostly does not converge there, left out) and those
    more than 10 times as long as the fastest of their configuration (platform, initial load, seed, ratio):
    (runs, [(run, its date over the fastest)])."""
    groups = defaultdict(list)
    for r in where("convergence", nodes=nodes, topology=topology, integer=integer):
        if r["strategy"] != "simple" and converged(r):
            groups[(r["platform"], r["initial"], r["seed"], r["ratio"])].append(r)
    out = []
    for rows in groups.values():
        fastest = min(float(r["max_convergence_date"]) for r in rows)
        out += [(r, float(r["max_convergence_date"]) / fastest) for r in rows
                if float(r["max_convergence_date"]) > 10 * fastest]
    return [r for rows in groups.values() for r in rows], out


def tail_counts():
    counts = Counter(variant(r) for r, _ in tails(256, "hypercube", "true")[1])
    names = {"besteffort k=1": "k = 1", "besteffort k=2": "k = 2", "besteffort k=4": "k = 4"}
    best_effort = sorted(((v, c) for v, c in counts.items() if v.startswith("besteffort")), key=lambda x: (-x[1], x[0]))
    return (sum(c for v, c in best_effort),
            ", ".join(f"{names[v.replace(' +virtual', '')]}{' + virtual' if v.endswith('+virtual') else ''} {c}"
                      for v, c in best_effort),
            counts["makhoul"], counts["makhoul +virtual"])


def avg_share(rows):
    return median([float(r["avg_convergence_date"]) / float(r["max_convergence_date"]) for r in rows])


def duels(ratio, column):
    """The 256-node hypercube's duels of the campaign summaries (src/campaign/summary.cpp, outcome()): per configuration
    and virtual-load setting, the others' (Makhoul's, simple's) best date over best effort's best; best effort first at
    1 or above, within 1% down to 0.99, the others first below."""
    groups = defaultdict(lambda: ([], []))
    for r in where("convergence", nodes=256, topology="hypercube", ratio=ratio):
        if converged(r):
            key = (r["platform"], r["initial"], r["seed"], r["integer"], r["virtual_load"])
            groups[key][r["strategy"] != "besteffort"].append(float(r[column]))
    leads = [min(other) / min(be) for be, other in groups.values() if be and other]
    return leads, sum(x >= 1 for x in leads), sum(x < 0.99 for x in leads)


def grid_over_cluster(nodes, ratio):
    by_setting = {(r["platform"], r["topology"], r["initial"], r["seed"], r["integer"], variant(r)): r
             for r in where("convergence", nodes=nodes, ratio=ratio)}
    return median([date(g) / date(c) for k, c in by_setting.items() if k[0] == "cluster"
                   for g in [by_setting.get(("grid",) + k[1:])] if g and converged(c) and converged(g)])


claim(DETAILS, "Makhoul + virtual wins {} real and {} integer configurations at ratio 10; best effort k = 4 + virtual {} and {} "
      "at ratio 0.1). At 64 nodes too (`64-nodes/convergence.md`: Makhoul + virtual {} and {} at ratio 10; best effort k = 4 "
      "+ virtual {} and {} at ratio 0.1)",
      lambda: tuple(integer_wins(s, v, r, i) for s in (16, 64) for v, r in (("makhoul +virtual", "10"),
                                                                             ("besteffort k=4 +virtual", "0.1"))
                    for i in ("false", "true")))
claim(DETAILS, "median maximum convergence date {} tau over its {} converged runs, against {} tau with real load "
      "(`convergence.csv`, `max_convergence_date / tau`), up to {} tau, and {} runs ({}) not converged at the {}-tau limit",
      lambda: (n(round(median([date(r) for r in cube_64("simple", "true") if converged(r)]))),
               sum(map(converged, cube_64("simple", "true"))),
               n(round(median([date(r) for r in cube_64("simple", "false") if converged(r)]))),
               n(round(max(date(r) for r in cube_64("simple", "true") if converged(r)))),
               len([r for r in cube_64("simple", "true") if not converged(r)]),
               given("simple + virtual, cluster, ratio 10, seeds 1 and 3",
                     [(variant(r), r["platform"], r["ratio"], r["seed"]) for r in cube_64("simple", "true") if not converged(r)],
                     [("simple +virtual", "cluster", "10", "1"), ("simple +virtual", "cluster", "10", "3")]),
               n(same(*{round(limit_tau(r)) for r in cube_64("simple", "true") if not converged(r)}))))
claim(DETAILS, "The other strategies' medians there differ by at most a factor {} ({}) between integer and real load",
      lambda: (f"{max(max(x, 1 / x) for x in map(integer_over_real, FD_STRATEGIES[:4])):.1f}",
               {"besteffort k=4": "best effort k = 4"}.get(max(FD_STRATEGIES[:4], key=lambda s: max(
                   integer_over_real(s), 1 / integer_over_real(s))))))


def traced_simple():
    """The row of the traced run: simple, integer, cluster, 64-node hypercube, random seed 3, ratio 10."""
    return where("convergence", nodes=64, platform="cluster", topology="hypercube", initial="random", seed=3, ratio=10,
                 integer="true", variant="simple")[0]


claim(DETAILS, "units never stop moving ({} data messages, {} times the total load moved by the end at {} s)",
      lambda: (n(int(traced_simple()["data_messages"])), f"{float(traced_simple()['data_transfer_amount']):.1f}",
               n(int(round(float(traced_simple()["max_convergence_date"]), -3)))))
claim(DETAILS, "From a single node the two runs end on the same loads, {} down to {} in steps of one unit every two nodes: the "
      "largest difference, {} units, is the bound `ceil(D / 2)` of a line of diameter {} (docs/simulation.md, \"When integer "
      "load can reach the 1% band\"), three times the 1% band's {} units",
      lambda: (*(n(int(header_table(DETAILS, STAIRCASE)[0][3].split()[i])) for i in (0, -1)),
               given(staircase_spread("single"), staircase_spread("single"), str(math.ceil((64 - 1) / 2))), 64 - 1,
               units() // 100))
claim(DETAILS, "From random loads virtual load ends on another staircase, no flatter ({} units either way). The loads stop "
      "changing by {} tau at the latest",
      lambda: (staircase_spread("random"), n(max(int(row[7]) for row in header_table(DETAILS, STAIRCASE)))))
claim(DETAILS, "the same runs on lines of {} to {} nodes, on the cluster and on the grid", lambda: (
    sizes_within_band()[0][0], sizes_within_band()[0][-1]))
claim(DETAILS, "Up to {} nodes that staircase lies within the 1% band around the mean ({} units a node), so every node counts "
      "as converged and a run looks uniform by the 1% criterion, with or without virtual load; from {} nodes on it does not",
      lambda: (sizes_within_band()[1], n(units()), min(s for s in sizes_within_band()[0] if s > sizes_within_band()[1])))
claim(DETAILS, "(all {} configurations, cluster and grid), {} of the {} converged runs of best effort and Makhoul take more than "
      "10 times as long as the fastest run of their configuration (a median {} times, up to {} times): {} best-effort runs ({}) "
      "and {} Makhoul run without virtual load; Makhoul + virtual has {}",
      lambda: (len({(r["platform"], r["initial"], r["seed"], r["ratio"]) for r in where(
          "convergence", nodes=256, topology="hypercube", integer="true")}),
               len(tails(256, "hypercube", "true")[1]), len(tails(256, "hypercube", "true")[0]),
               round(median([x for _, x in tails(256, "hypercube", "true")[1]])),
               round(max(x for _, x in tails(256, "hypercube", "true")[1])),
               tail_counts()[0], tail_counts()[1], word(tail_counts()[2]), word(tail_counts()[3])))
claim(DETAILS, "No run does so with real load on the same hypercubes ({} converged runs), on the 256-node torus ({}), or on any "
      "64-node torus or hypercube ({})",
      lambda: tuple(given(len(tails(*t)[0]), len(tails(*t)[1]), 0) for t in (
          (256, "hypercube", "false"), (256, "torus", ("true", "false")), (64, ("torus", "hypercube"), ("true", "false")))))
claim(DETAILS, "Their average convergence date stays low (median {} tau on random loads, {}% of their maximum date, against {}% "
      "for the other runs)",
      lambda: (round(median([date(r, "avg_convergence_date") for r, _ in tails(256, "hypercube", "true")[1]
                             if r["initial"] == "random"])),
               round(100 * avg_share([r for r, _ in tails(256, "hypercube", "true")[1] if r["initial"] == "random"])),
               round(100 * avg_share([r for r in tails(256, "hypercube", "true")[0]
                                      if r not in [t for t, _ in tails(256, "hypercube", "true")[1]]]))))


def longest_tail():
    return max((r for r, _ in tails(256, "hypercube", "true")[1]), key=lambda r: float(r["max_convergence_date"]))


claim(DETAILS, "--virtual-load --integer --platform cluster --nodes 256 --topology hypercube --initial random --ratio 10 --seed "
      "1 --trace F.csv --trace-interval 100` (maximum convergence date {} s, i.e. {} tau; average {} s)",
      lambda: (given(n(int(round(float(longest_tail()["max_convergence_date"]), -1))), (
          variant(longest_tail()), longest_tail()["platform"], longest_tail()["initial"], longest_tail()["ratio"],
          longest_tail()["seed"]), ("besteffort k=1 +virtual", "cluster", "random", "10", "1")),
               n(round(date(longest_tail()))), n(round(float(longest_tail()["avg_convergence_date"])))))
claim(DETAILS, "restarts that node's streak of {} iterations ({} s at ratio 10)",
      lambda: (n(int(same(*values_of("convergence", "iterations")))),
               n(round(int(same(*values_of("convergence", "iterations"))) * tau_at("10")))))
claim(DETAILS, "This is why best effort's leads on the 256-node hypercube span {} to {} at ratio 10",
      lambda: (lambda row: (f"{float(row[10]):.3f}".rstrip("0"), f"{float(row[11]):.0f}"))(
          next(r for r in table_after(summary("256-nodes/convergence.md"), "Best effort against Makhoul and simple")
               if r[:2] == ["10", "hypercube"])))
claim(DETAILS, "Makhoul or simple is first by more than 1% in {} of {} pairs ({} by the maximum), with leads of {} to {}. At "
      "ratio 1 it splits, best effort first in {} pairs and the others in {} (by the maximum: {} and {})",
      lambda: (duels("10", "avg_convergence_date")[2], len(duels("10", "avg_convergence_date")[0]),
               duels("10", "max_convergence_date")[2], f"{min(duels('10', 'avg_convergence_date')[0]):.2f}",
               f"{max(duels('10', 'avg_convergence_date')[0]):.2f}", duels("1", "avg_convergence_date")[1],
               duels("1", "avg_convergence_date")[2], duels("1", "max_convergence_date")[1],
               duels("1", "max_convergence_date")[2]))
claim(DETAILS, "the grid's maximum convergence date is a median {}x, {}x and {}x the cluster's at ratios 10, 1 and 0.1 ({}x, {}x "
      "and {}x at 16 nodes;",
      lambda: tuple(f"{grid_over_cluster(s, r):.2f}" for s in (64, 16) for r in ("10", "1", "0.1")))
claim(DETAILS, "the winners at ratio 0.1 split: best effort k = 4 + virtual {} on the cluster and {} on the grid, Makhoul + "
      "virtual {} and {}",
      lambda: tuple(platform_wins(64, v, "0.1", p) for v in ("besteffort k=4 +virtual", "makhoul +virtual")
                    for p in ("cluster", "grid")))


# docs/study-details.md, "Balancing phases": phase_check.py's figures, which the committed 16-node rows of both phases give.

@functools.lru_cache(maxsize=None)
def phase_dates(phase):
    """{(topology, ratio, seed): {variant: date or None}} of the 16-node cluster's torus and hypercube from random loads,
    real load."""
    out = defaultdict(dict)
    for r in where(PHASES[phase], nodes=16, platform="cluster", topology=("torus", "hypercube"), initial="random",
                   integer="false"):
        out[(r["topology"], r["ratio"], r["seed"])][variant(r)] = date(r) if converged(r) else None
    return out


def staggered_over_aligned(v, ratio):
    aligned, staggered = phase_dates("aligned"), phase_dates("staggered")
    return median([staggered[c][v] / aligned[c][v] for c in aligned if c[1] == ratio and aligned[c][v] and staggered[c][v]])


def fastest(dates):
    return min((v for v in dates if dates[v] is not None), key=dates.get)


def phase_wins(phase, ratio, v):
    """The configurations of a ratio where a variant is within 1% of the fastest."""
    wins = 0
    for c, dates in phase_dates(phase).items():
        best = dates[fastest(dates)]
        wins += c[1] == ratio and dates[v] is not None and dates[v] <= 1.01 * best
    return wins


PHASE_NAMES = [("besteffort k=1", "best effort k=1"), ("besteffort k=1 +virtual", "best effort k=1 + virtual"),
               ("besteffort k=2", "best effort k=2"), ("besteffort k=2 +virtual", "best effort k=2 + virtual"),
               ("besteffort k=4", "best effort k=4"), ("besteffort k=4 +virtual", "best effort k=4 + virtual"),
               ("makhoul", "Makhoul"), ("makhoul +virtual", "Makhoul + virtual"), ("simple", "simple"),
               ("simple +virtual", "simple + virtual")]
for _v, _name in PHASE_NAMES:
    claim(DETAILS, "| " + _name + " | {} | {} | {} |", functools.partial(
        lambda v: tuple(f"{staggered_over_aligned(v, r):.2f}" for r in ("10", "1", "0.1")), _v))
claim(DETAILS, "(medians of {} to {} times the aligned date)",
      lambda: (f"{min(staggered_over_aligned(v, r) for v, _ in PHASE_NAMES for r in ('10', '1', '0.1')):.2f}",
               f"{max(staggered_over_aligned(v, r) for v, _ in PHASE_NAMES for r in ('10', '1', '0.1')):.2f}"))
claim(DETAILS, "ratios 10, 1 and 0.1: {} configurations x {} variants x both phases",
      lambda: (len(phase_dates("aligned")), len(PHASE_NAMES)))
claim(DETAILS, "fastest variant is the same in {} of the {} configurations and (within 1% of the fastest: Makhoul + virtual {} "
      "and {} of {} configurations aligned at ratios 10 and 1, {} and {} staggered; at ratio 0.1 best effort k = 4 + virtual and "
      "k = 2 + virtual, {} and {} aligned, {} and {} staggered)",
      lambda: (sum(fastest(phase_dates("aligned")[c]) == fastest(phase_dates("staggered")[c]) for c in phase_dates("aligned")),
               len(phase_dates("aligned")), phase_wins("aligned", "10", "makhoul +virtual"),
               phase_wins("aligned", "1", "makhoul +virtual"), len(phase_dates("aligned")) // 3,
               phase_wins("staggered", "10", "makhoul +virtual"), phase_wins("staggered", "1", "makhoul +virtual"),
               phase_wins("aligned", "0.1", "besteffort k=4 +virtual"), phase_wins("aligned", "0.1", "besteffort k=2 +virtual"),
               phase_wins("staggered", "0.1", "besteffort k=4 +virtual"),
               phase_wins("staggered", "0.1", "besteffort k=2 +virtual")))
claim(DETAILS, "(median over the {} configurations per ratio)", lambda: len(phase_dates("aligned")) // 3)


def phase_summary(phase, nodes):
    return summary(f"{nodes}-nodes{'-staggered' if phase == 'staggered' else ''}/convergence.md")


def phase_wins_text(nodes, v, ratios):
    """' / '-joined wins at the ratios, then 'of N', for each phase."""
    out = []
    for phase in PHASES:
        cells = [summary_cell(phase_summary(phase, nodes), "Wins (rank 1, ties included)", v, f"ratio {r} wins")
                 for r in ratios]
        out.append(" / ".join(c.split("/")[0] for c in cells) + " of " + same(*(c.split("/")[1] for c in cells)))
    return tuple(out)


def not_converging(phase, nodes):
    return [r for r in where(PHASES[phase], nodes=nodes) if not converged(r)]


def staggered_runs_text(nodes):
    return n(len(where("convergence-staggered", nodes=nodes))), hours(sum(map(wall, where("convergence-staggered", nodes=nodes))))


for _nodes in (16, 64):
    claim(DETAILS, "| wins of Makhoul with virtual load, ratio 10 / 1 / 0.1 | {} | {} |", functools.partial(
        phase_wins_text, _nodes, "makhoul +virtual", ("10", "1", "0.1")))
    claim(DETAILS, "| wins of best effort k=1 with virtual load, ratio 10 / 1 / 0.1 | {} | {} |", functools.partial(
        phase_wins_text, _nodes, "besteffort k=1 +virtual", ("10", "1", "0.1")))
    claim(DETAILS, "| wins of best effort k=4 with virtual load at ratio 0.1 | {} | {} |", functools.partial(
        phase_wins_text, _nodes, "besteffort k=4 +virtual", ("0.1",)))
claim(DETAILS, "| runs that do not converge | {} | {} ({}) |",
      lambda: (len(not_converging("aligned", 16)), len(not_converging("staggered", 16)),
               given("simple, real load, lines", {(r["strategy"], r["integer"], r["topology"])
                                                  for r in not_converging("staggered", 16)}, {("simple", "false", "line")})))
claim(DETAILS, "| runs that do not converge | {} | {} |",
      lambda: (len(not_converging("aligned", 64)), len(not_converging("staggered", 64))))
claim(DETAILS, "`--lb-phase staggered`: {} runs, {} of run time here", lambda: staggered_runs_text(16))
claim(DETAILS, "the staggered spec now runs 16 and 64 nodes; {} runs at 64, about {} of run time here",
      lambda: staggered_runs_text(64))


def wins_at(phase, nodes, v, ratio):
    return summary_cell(phase_summary(phase, nodes), "Wins (rank 1, ties included)", v, f"ratio {ratio} wins").split("/")[0]


def failing(phase, **match):
    return len([r for r in not_converging(phase, 64) if all(r[c] == v for c, v in match.items())])


claim(DETAILS, "loses half its wins at ratio 10 ({} to {}) and gains at ratio 0.1 ({} to {}), where damped best effort loses "
      "({} to {})",
      lambda: tuple(wins_at(phase, 64, v, r) for v, r in (("makhoul +virtual", "10"), ("makhoul +virtual", "0.1"),
                                                          ("besteffort k=4 +virtual", "0.1")) for phase in PHASES))
claim(DETAILS, "The runs that do not converge are the {} integer lines in both readings, {} real-load lines with virtual load in "
      "both (best effort {}, Makhoul {}, simple {}), and then: staggered, simple without virtual load on {} of its {} real-load "
      "lines ({} aligned), as at 16 nodes; aligned, best effort without virtual load on {} real-load lines and simple with "
      "virtual load on {} integer hypercube runs",
      lambda: (same(*(failing(p, topology="line", integer="true") for p in PHASES)),
               same(*(failing(p, topology="line", integer="false", virtual_load="true") for p in PHASES)),
               *(same(*(failing(p, topology="line", integer="false", virtual_load="true", strategy=s) for p in PHASES))
                 for s in ("besteffort", "makhoul", "simple")),
               failing("staggered", topology="line", integer="false", virtual_load="false", strategy="simple"),
               len(simple_lines("staggered", 64, "false")),
               failing("aligned", topology="line", integer="false", virtual_load="false", strategy="simple"),
               given(failing("aligned", topology="line", integer="false", virtual_load="false", strategy="besteffort"),
                     failing("staggered", topology="line", integer="false", virtual_load="false", strategy="besteffort"), 0),
               given(failing("aligned", topology="hypercube", integer="true", virtual_load="true", strategy="simple"),
                     [len(not_converging(p, 64)) - failing(p, topology="line") - failing(
                         p, topology="hypercube", integer="true", virtual_load="true", strategy="simple") for p in PHASES],
                     [0, 0])))
claim(DETAILS, "simple without virtual load and with real load does not converge on {} of the {} line runs (the spread at the "
      "time limit is {}% of the average)",
      lambda: (len(simple_lines("staggered", 16, "false", converging=False)), len(simple_lines("staggered", 16, "false")),
               span([float(r["load_spread_percent"]) for r in simple_lines("staggered", 16, "false", converging=False)],
                    "{:.0f}", "% to ")))


# docs/study-details.md, the study-1 durations of questions 4 and 5, and the study-2 ones.

def durations(name):
    """The simulated duration of a spec's runs, in tau."""
    return n(same(*{round(float(r["time_limit"]) / float(r["tau"])) for r in runs(name)}))


claim(DETAILS, "## 4. Runs of a fixed duration: computation done and data moved (study-1: {} tau at every size)",
      lambda: durations("fixed-duration"))
claim(DETAILS, "Every run stops at {} tau", lambda: durations("fixed-duration"))
claim(DETAILS, "## 5. Short runs: does only best effort converge? (study-1: {} tau at every size)", lambda: durations("short"))
claim(DETAILS, "Runs limited to {} tau, convergence after {} iterations in the 1% band",
      lambda: (durations("short"), same(*values_of("short", "iterations"))))
claim(DETAILS, "The study-2 specs `fixed-duration-nN.json` take {} N and {} N tau",
      lambda: tuple(f"{x:g}" for x in scaled_limits("fixed-duration")[0]))
claim(DETAILS, "the study-2 specs `short-nN.json` take {} N tau", lambda: f"{scaled_limits('short')[0][0]:g}")
claim(DETAILS, "the other integer runs of the 64-node line end unconverged too, with and without virtual load, except seed {}'s",
      lambda: same(*seeds_converging_line_64()[0]))


# ---- The check ----

NUMBER = r"-?[0-9][0-9,]*(?:\.[0-9]+)?"


def shown_as(text, value):
    """Whether a number the page shows ("1,234.5") is `value` rounded to the digits shown."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text.replace(",", "")) - value) <= 0.5 * 10 ** -decimals + 1e-9


def holds_approx(text, phrase, values):
    """Whether `text` holds `phrase` with a number (a range "lo-hi" for a pair of values) in each `{}`, as the page rounds
    it."""
    pattern = r"\s+".join(re.escape(word) for word in phrase.split()).replace(
        re.escape("{}"), f"({NUMBER}(?:-{NUMBER})?)")
    for m in re.finditer(pattern, text):
        good = True
        for shown, value in zip(m.groups(), values):
            lo, hi = value if isinstance(value, tuple) else (value, value)
            ends = re.fullmatch(f"({NUMBER})(?:-({NUMBER}))?", shown).groups()
            good &= shown_as(ends[0], lo) and shown_as(ends[1] or ends[0], hi)
        if good:
            return True
    return False


def shown(value):
    if isinstance(value, tuple):
        return "-".join(map(shown, value))
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        sys.exit("usage: prose_check.py [--check]")
    check = args == ["--check"]
    LOCKED[0] = check
    pages = {page: " ".join(open(os.path.join(ROOT, page)).read().split()) for page in (STUDY, DETAILS)}
    failed = 0
    for page, phrase, compute, approximate in CLAIMS:
        values = compute()
        values = values if isinstance(values, tuple) else (values,)
        if phrase.count("{}") != len(values):
            sys.exit(f"prose_check.py: the claim '{phrase}' has {phrase.count('{}')} places for {len(values)} values")
        if approximate:
            held = holds_approx(pages[page], phrase, values)
            expected = phrase.format(*map(shown, values))
        else:
            expected = " ".join(phrase.format(*values).split())
            held = expected in pages[page]
        failed += not held
        if not check:
            print(f"{'holds' if held else 'NOT HELD'}  {page}: {expected}")
        elif not held:
            print(f"{page}: does not hold \"{expected}\" (computed: {', '.join(map(shown, values))})")
    sys.exit(1 if failed and check else 0)


if __name__ == "__main__":
    main()
