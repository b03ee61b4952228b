#!/usr/bin/env python3
"""Renders statespace_bench's JSON (scripts/bench.sh) as the Markdown that docs/benchmarks.md
quotes: BM_Enumerate as rows = puzzle, columns = lookup, cells = median time and
speed-up over the linear scan; BM_Lookup as ns per lookup by size; the lookup targets
(ranked vs hashed, hashed vs linear, the 2x5 enumeration) checked. Standard library only.

usage: bench_table.py lookups.json machine.txt
"""
import json
import sys

ENUMERATE_LOOKUPS = ["linear", "linear-sentinel", "std-hashed", "hashed", "ranked-serial", "ranked"]
PUZZLES = ["oshidori", "nooff", "hex6", "tiles:3x3", "tiles:2x5"]
MICRO_LOOKUPS = ["linear", "linear-sentinel", "std-hashed", "hashed", "ranked"]


def medians(report):
    """name without the aggregate suffix -> median run (or the single run)."""
    runs = {}
    for b in report["benchmarks"]:
        name = "/".join(part for part in b["run_name"].split("/")
                        if part != "real_time" and not part.startswith(("iterations:", "min_time:")))
        if b.get("aggregate_name", "median") == "median":
            runs[name] = b
    return runs


def ms(run):
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[run["time_unit"]]
    return run["real_time"] * scale


def fmt_time(t_ms):
    if t_ms >= 1000:
        return f"{t_ms / 1000:.2f} s"
    if t_ms >= 1:
        return f"{t_ms:.2f} ms"
    return f"{t_ms * 1000:.1f} µs"


def enumerate_table(runs):
    lines = ["| puzzle (states) | " + " | ".join(ENUMERATE_LOOKUPS) + " |",
             "|---|" + "---:|" * len(ENUMERATE_LOOKUPS)]
    for puzzle in PUZZLES:
        row = {l: runs.get(f"BM_Enumerate/{puzzle}/{l}") for l in ENUMERATE_LOOKUPS}
        present = [r for r in row.values() if r]
        if not present:
            continue
        states = int(present[0]["states"])
        base = row["linear"]
        cells = []
        for l in ENUMERATE_LOOKUPS:
            r = row[l]
            if r is None:
                cells.append("skipped")
            elif base is None:
                cells.append(fmt_time(ms(r)))
            else:
                cells.append(f"{fmt_time(ms(r))} (×{ms(base) / ms(r):,.1f})")
        lines.append(f"| {puzzle} ({states:,}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def micro_table(runs):
    sizes = sorted({int(n.rsplit("/", 1)[1]) for n in runs if n.startswith("BM_Lookup/")})
    if not sizes:
        return ""
    lines = ["| lookup | " + " | ".join(f"{s:,}" for s in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for l in MICRO_LOOKUPS:
        cells = []
        for s in sizes:
            r = runs.get(f"BM_Lookup/{l}/{s}")
            cells.append(f"{1e9 / r['items_per_second']:.1f}" if r else "skipped")
        lines.append(f"| {l} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(runs):
    def ratio(a, b):
        ra, rb = runs.get(a), runs.get(b)
        return ms(ra) / ms(rb) if ra and rb else None

    out = []
    for puzzle in ["tiles:3x3", "tiles:2x5"]:
        table = ratio(f"BM_Enumerate/{puzzle}/hashed", f"BM_Enumerate/{puzzle}/ranked")
        paired = runs.get(f"BM_RankedOverHashed/{puzzle}")
        if paired:  # both timed in alternation: immune to the machine's drift
            r = paired["speedup"]
            how = f"paired runs: hashed {paired['hashed_ms']:.2f} ms, ranked {paired['ranked_ms']:.2f} ms"
            if table is not None:
                how += f"; from the table above ×{table:.1f}"
        else:
            r, how = table, "from the table above"
        if r is not None:
            out.append(f"- ranked vs hashed (absl) per state on {puzzle}: ×{r:.1f} ({how};"
                       f" target ≥ ×5: {'met' if r >= 5 else 'NOT met'})")
    r = ratio("BM_Enumerate/hex6/linear", "BM_Enumerate/hex6/hashed")
    if r is not None:
        out.append(f"- hashed vs linear on hex6: ×{r:,.0f} (target ≥ ×100: {'met' if r >= 100 else 'NOT met'})")
    t = runs.get("BM_Enumerate/tiles:2x5/ranked")
    if t:
        out.append(f"- tiles:2x5 ranked enumeration: {fmt_time(ms(t))} (target < 100 ms: {'met' if ms(t) < 100 else 'NOT met'})")
    return "\n".join(out)


def main():
    report = json.load(open(sys.argv[1]))
    machine = open(sys.argv[2]).read().strip()
    runs = medians(report)
    print("Full enumeration from the goal, median wall time (speed-up over `linear`):\n")
    print(enumerate_table(runs))
    print("\n`ranked` is the parallel enumeration `analyze --lookup ranked` runs; the other columns run one"
          " sequential BFS loop (`discover()`) with that visited set, `ranked-serial` included."
          " Linear scans skipped on tiles:2x5: about 4.4e12 comparisons.\n")
    micro = micro_table(runs)
    if micro:
        print("The lookup alone (insert + find), ns per lookup, by number of states stored:\n")
        print(micro + "\n")
    print("The lookup targets:\n")
    print(targets(runs) + "\n")
    print(machine)


if __name__ == "__main__":
    main()
