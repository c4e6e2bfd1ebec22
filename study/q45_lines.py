#!/usr/bin/env python3
"""Questions 4 and 5 in short, a line per question and size, from the committed summaries of the
scaled-duration specs (docs/study/short-nN.md, fixed-duration-nN.md: `study/summaries.sh`
writes them from the rows and `summaries.sh --check` checks them):

    python3 study/q45_lines.py [--check FILE]

Question 5 (short runs, 4 N tau): per variant the runs converged, most first, then per ratio the
variants with the most wins (rank 1 by the earliest maximum convergence date, ties included).
Question 4 (fixed duration, 2 N and 8 N tau): per ratio the variants' wins (rank 1 in load computed,
ties included), most first, variants without a win left out. Sizes whose spec is incomplete are
skipped. With --check FILE, prints nothing and exits 1 unless FILE (docs/study.md) holds the lines as
they are now.
"""
import os
import re
import sys

from committed_table import print_or_check

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SIZES = [16, 64, 256]


def table_after(text, title):
    """Rows (lists of cells) of the markdown table that follows the line starting with `title`."""
    lines = text.split(title, 1)[1].split("\n\n", 2)[1].splitlines()
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:] if line.startswith("|")]


def complete(text):
    m = re.match(r".*?; (\d+) of (\d+) configurations complete", text)
    return m is not None and m.group(1) == m.group(2)


def complete_summary(name, directory=os.path.join(ROOT, "docs", "study")):
    """The text of <directory>/<name> (docs/study), or None when it is missing or its campaign is not
    complete."""
    path = os.path.join(directory, name)
    text = open(path).read() if os.path.exists(path) else ""
    return text if complete(text) else None


def ranked(pairs):
    """'a 84, b 83, ...': most first, then by name."""
    return ", ".join(f"{name} {n}" for name, n in sorted(pairs, key=lambda p: (-p[1], p[0])))


def wins_per_ratio(text):
    """[(ratio, [(variant, wins)], of)] from a summary's "Wins (rank 1, ties included)" table."""
    head = text.split("Wins (rank 1, ties included)", 1)[1].split("\n\n", 2)[1].splitlines()[0]
    ratios = re.findall(r"ratio (\S+) wins", head)
    rows = table_after(text, "Wins (rank 1, ties included)")
    return [(ratio, [(r[0], int(r[1 + 2 * i].split("/")[0])) for r in rows], rows[0][1 + 2 * i].split("/")[1])
            for i, ratio in enumerate(ratios)]


def leaders(text):
    """'ratio 10: a 13 (of 48)' per ratio: the variants with the most wins, ties all named."""
    out = []
    for ratio, wins, of in wins_per_ratio(text):
        best = max(w for _, w in wins)
        out.append(f"ratio {ratio}: " + ranked([w for w in wins if w[1] == best]) + f" (of {of})")
    return out


def main():
    args = sys.argv[1:]
    check = args[1] if len(args) == 2 and args[0] == "--check" else None
    if args and check is None:
        sys.exit("usage: q45_lines.py [--check FILE]")
    out = []
    for n in SIZES:
        text = complete_summary(f"short-n{n}.md")
        if text is None:
            continue
        rows = table_after(text, "Runs per variant")
        out.append(f"- **Question 5, {n} nodes** (runs converged within {4 * n:,} tau, of {rows[0][1]} per "
                   f"variant): " + ranked([(r[0], int(r[2])) for r in rows]) + "; most wins by the earliest "
                   "date: " + "; ".join(leaders(text)) + ".")
    for n in SIZES:
        text = complete_summary(f"fixed-duration-n{n}.md")
        if text is None:
            continue
        parts = [f"ratio {ratio}: " + ranked([w for w in wins if w[1] > 0]) + f" (of {of})"
                 for ratio, wins, of in wins_per_ratio(text)]
        out.append(f"- **Question 4, {n} nodes** (wins in load computed by {2 * n:,} and {8 * n:,} tau): " +
                   "; ".join(parts) + ".")
    print_or_check("\n".join(out) + "\n", check, "q45_lines.py", "the lines of questions 4 and 5", "q45_lines.py")


if __name__ == "__main__":
    main()
