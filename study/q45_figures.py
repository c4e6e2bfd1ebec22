#!/usr/bin/env python3
"""Questions 4 and 5 at every size in one figure each, from the scaled-duration specs' summaries
(docs/study/short-nN.md, fixed-duration-nN.md, as q45_lines.py reads them):

    python3 study/q45_figures.py [--summaries DIR] [--out DIR] [--no-figures]

Writes DIR/fig-q45.dat (per question and size, a block: variant, then its wins at each ratio, then the
configurations per ratio) and, when gnuplot is installed, DIR/fig-q4.svg and DIR/fig-q5.svg: a panel
per size, a cluster of bars per variant, a bar per computation/communication ratio. Sizes whose spec is
incomplete are left out. DIR defaults to docs/study for both; `summaries.sh` runs it and its --check
compares the data file.
"""
import argparse
import os
import shutil
import subprocess

from q45_lines import ROOT, SIZES, complete_summary, wins_per_ratio

QUESTIONS = {4: "fixed-duration", 5: "short"}

# A panel per size (gnuplot's index picks a block of the data file); variant names are data, read with
# xticlabels, never pasted into this script.
GNUPLOT = """set terminal svg size 960,{height} dynamic font 'Sans,11' background '#ffffff'
set output '{svg}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key top right
set grid ytics
set xtics rotate by -35 scale 0
set ylabel 'configurations won'
set yrange [0:{top}]
set multiplot layout {panels},1 title '{title}'
"""
PANEL = """set title '{nodes} nodes ({window}, of {of} configurations per ratio)'
plot '{dat}' index {index} using 2:xticlabels(1) title 'ratio 10', '' index {index} using 3 title 'ratio 1', \\
     '' index {index} using 4 title 'ratio 0.1'
"""
TITLES = {4: "Question 4: most load computed, wins per variant and ratio (ties included)",
          5: "Question 5: earliest convergence within 4 N tau, wins per variant and ratio (ties included)"}


def window(question, nodes):
    return f"by {2 * nodes:,} and {8 * nodes:,} tau" if question == 4 else f"within {4 * nodes:,} tau"


def blocks(summaries):
    """[(question, nodes, of, [(variant, [wins per ratio])])] for every complete spec, in order."""
    out = []
    for question, spec in sorted(QUESTIONS.items()):
        for nodes in SIZES:
            text = complete_summary(f"{spec}-n{nodes}.md", summaries)
            if text is None:
                continue
            per_ratio = wins_per_ratio(text)
            ratios = [ratio for ratio, _, _ in per_ratio]
            if ratios != ["10", "1", "0.1"]:
                raise SystemExit(f"q45_figures.py: {spec}-n{nodes}.md: ratios {ratios}, expected 10, 1, 0.1")
            variants = [variant for variant, _ in per_ratio[0][1]]
            wins = [[dict(w)[variant] for _, w, _ in per_ratio] for variant in variants]
            out.append((question, nodes, per_ratio[0][2], list(zip(variants, wins))))
    return out


def data(found):
    lines = []
    for question, nodes, of, rows in found:
        lines.append(f"# question {question}, {nodes} nodes, of {of} configurations per ratio")
        lines.append("# variant\tratio 10\tratio 1\tratio 0.1")
        lines += [f'"{variant}"\t' + "\t".join(str(w) for w in wins) for variant, wins in rows]
        lines += ["", ""]
    return "\n".join(lines)


def script(found, question, dat, svg):
    panels = [(nodes, of) for q, nodes, of, _ in found if q == question]
    # One scale for every size, so that the panels compare: the most wins, rounded up to ten.
    most = max(max(wins) for q, _, _, rows in found if q == question for _, wins in rows)
    text = GNUPLOT.format(height=300 * len(panels) + 60, svg=svg, panels=len(panels), title=TITLES[question],
                          top=-(-max(most, 1) // 10) * 10)
    for nodes, of in panels:
        index = next(i for i, block in enumerate(found) if block[:2] == (question, nodes))
        text += PANEL.format(nodes=nodes, window=window(question, nodes), of=of, dat=dat, index=index)
    return text + "unset multiplot\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--summaries", default=os.path.join(ROOT, "docs", "study"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "study"))
    parser.add_argument("--no-figures", action="store_true", help="write the data file only (no gnuplot)")
    a = parser.parse_args()
    found = blocks(a.summaries)
    dat = os.path.join(a.out, "fig-q45.dat")
    with open(dat + ".tmp", "w") as f:
        f.write(data(found))
    os.replace(dat + ".tmp", dat)
    if a.no_figures or not shutil.which("gnuplot"):
        return
    for question in sorted({q for q, _, _, _ in found}):
        svg = os.path.join(a.out, f"fig-q{question}.svg")
        # gnuplot quotes: the paths are ours (the output folder), checked to hold no quote.
        if "'" in svg or "'" in dat:
            raise SystemExit(f"q45_figures.py: {a.out}: expected a folder name without a quote")
        subprocess.run(["gnuplot"], input=script(found, question, dat, svg + ".tmp"), text=True, check=True)
        os.replace(svg + ".tmp", svg)


if __name__ == "__main__":
    main()
