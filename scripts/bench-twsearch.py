#!/usr/bin/env python3
"""statespace against twsearch on .tws files, alternated, as a Markdown table.

    scripts/bench-twsearch.py --twsearch PATH [--statespace PATH] [--threads T]
        [--rounds N] [--timeout SECONDS] FILE_OR_DIR...

For each file, each round runs `statespace --threads T analyze FILE --quiet --out
TMP` and then `twsearch -g -t T FILE`, each under /usr/bin/time, and keeps the
median wall time, user time and peak RSS of each tool. A file counts only when
both finish within the timeout; the table says whether their distributions
(summary.json's against twsearch's "Dist" lines) are identical. twsearch is
rebuilt from its public source (github.com/cubing/twsearch); its samples/main
holds the files of docs/benchmarks.md. Time it on a quiet machine.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

TIME_FORMAT = "%e %U %S %M"


def timed(cmd, timeout, cwd=None):
    """(wall, user, peak KB, stdout) or None when it failed or ran out of time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        try:
            p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", TIME_FORMAT] + cmd, cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        fields = t.read().split()
        if p.returncode != 0 or len(fields) < 4:
            return None
        wall, user, system, rss = (float(f) for f in fields[-4:])
        return wall, user + system, int(rss), p.stdout


def statespace_run(binary, path, threads, timeout):
    with tempfile.TemporaryDirectory() as out:
        r = timed([binary, "--threads", str(threads), "analyze", path, "--quiet", "--out", out], timeout)
        if r is None:
            return None
        summaries = [os.path.join(out, d, "summary.json") for d in os.listdir(out)
                     if os.path.isfile(os.path.join(out, d, "summary.json"))]
        if len(summaries) != 1:
            return None
        with open(summaries[0]) as f:
            s = json.load(f)
        if not s.get("complete", True):
            return None
        return r[:3], s.get("positions_distribution") or s["distribution"]


def twsearch_run(binary, path, threads, timeout):
    r = timed([binary, "-g", "-t", str(threads), path], timeout)
    if r is None:
        return None
    dist = [int(m.group(2)) for m in re.finditer(r"^Dist (\d+) cnt (\d+)", r[3], re.M)]
    while dist and dist[-1] == 0:  # its last line: the empty level after the last
        dist.pop()
    return (r[:3], dist) if dist else None


def files(args):
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.endswith(".tws"):
                    yield os.path.join(a, name)
        else:
            yield a


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    ap.add_argument("--twsearch", required=True)
    ap.add_argument("--statespace", default=os.path.join(os.path.dirname(__file__), "..", "build", "statespace"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    print("| file | positions | statespace wall, CPU, RSS | twsearch wall, CPU, RSS | wall ratio | distributions |")
    print("|---|--:|--:|--:|--:|---|")
    for path in files(a.paths):
        ours, theirs = [], []
        failed = None
        for _ in range(a.rounds):
            o = statespace_run(a.statespace, path, a.threads, a.timeout)
            if o is None:
                failed = "statespace did not finish"
                break
            t = twsearch_run(a.twsearch, path, a.threads, a.timeout)
            if t is None:
                failed = "twsearch did not finish"
                break
            ours.append(o[0])
            theirs.append(t[0])
            same = o[1] == t[1]
            positions = sum(o[1])
        name = os.path.basename(path)
        if failed:
            print(f"| {name} | | {failed} (within {a.timeout:g} s, or refused) | | | |", flush=True)
            continue

        def cell(runs):
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            rss = statistics.median(r[2] for r in runs) / 1024
            return wall, f"{wall:.2f} s, {cpu:.2f} s, {rss:.1f} MB"

        ow, oc = cell(ours)
        tw, tc = cell(theirs)
        ratio = f"{ow / tw:.2f}" if tw > 0 else "n/a"  # /usr/bin/time counts hundredths
        print(f"| {name} | {positions:,} | {oc} | {tc} | {ratio} | {'identical' if same else 'DIFFER'} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
