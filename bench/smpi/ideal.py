#!/usr/bin/env python3
"""The ideal time of a fixed-work SMPI run: its work over the total speed of the hosts it runs on.
ideal.py PLATFORM.xml HOSTFILE RANKS LOAD WORK RATIO (flops = RANKS x LOAD x WORK x RATIO x 1e6), for the
platforms `hetlb diffusion-platform` writes (hosts as <cluster> ranges or <host> elements)."""
import re
import sys


def host_speeds(xml):
    speed = {}
    for m in re.finditer(r'<cluster [^>]*?prefix="([^"]*)" radical="(\d+)-(\d+)" suffix="([^"]*)" speed="([0-9.e+]+)f"', xml):
        for k in range(int(m.group(2)), int(m.group(3)) + 1):
            speed[f"{m.group(1)}{k}{m.group(4)}"] = float(m.group(5))
    for m in re.finditer(r'<host id="([^"]*)" speed="([0-9.e+]+)f"', xml):
        speed[m.group(1)] = float(m.group(2))
    return speed


def main():
    xml, hosts = open(sys.argv[1]).read(), open(sys.argv[2]).read()
    ranks, load, work, ratio = int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
    speed = host_speeds(xml)
    names = [line.split(":")[0].strip() for line in hosts.splitlines() if line.strip()][:ranks]
    missing = [n for n in names if n not in speed]
    if missing or len(names) < ranks:
        sys.exit(f"ideal.py: {sys.argv[2]}: hosts without a speed in {sys.argv[1]}: {missing[:3]} (or fewer than {ranks})")
    print(ranks * load * work * ratio * 1e6 / sum(speed[n] for n in names))


if __name__ == "__main__":
    main()
