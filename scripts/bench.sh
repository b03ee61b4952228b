#!/usr/bin/env bash
# The lookup benchmark: a Release build (build-bench/), then
# statespace_bench's BM_Enumerate (full enumerations, every puzzle x visited-set
# strategy), BM_Lookup (insert + find alone at fixed sizes) and BM_RankedOverHashed
# (the paired ratio the 5x target is judged by) with JSON output in bench-out/,
# rendered by scripts/bench_table.py into bench-out/lookups.md: a Markdown table
# of median times and speed-ups over the linear scan, the lookup costs per size,
# the lookup targets checked, and the machine it ran on.
# docs/benchmarks.md quotes that file. Not part of CI (it takes a few minutes; the linear
# scans of tiles:3x3 alone take ~20 s each).
#
#   scripts/bench.sh                          # everything, 5 repetitions (medians)
#   REPETITIONS=1 scripts/bench.sh            # quicker, noisier
#   FILTER='BM_Enumerate/tiles' scripts/bench.sh
#   THREADS=1 scripts/bench.sh                # pin to one core (oneTBB follows the affinity mask)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
out=bench-out
repetitions=${REPETITIONS:-5}
filter=${FILTER:-'BM_Enumerate|BM_Lookup|BM_RankedOverHashed'}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)" --target statespace_bench >/dev/null
mkdir -p "$out"

pin=()
if [ -n "${THREADS:-}" ]; then
  pin=(taskset -c "0-$((THREADS - 1))")
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"${pin[@]}" "$build/statespace_bench" \
  --benchmark_filter="$filter" \
  --benchmark_repetitions="$repetitions" \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/lookups.json" \
  --benchmark_out_format=json
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) RAM," \
    "$(. /etc/os-release && echo "$PRETTY_NAME"), $(c++ --version | head -1)," \
    "load average ${load_before} before and ${load_after} after the run" \
    "(the machine is shared), ${THREADS:-$(nproc)} thread(s), medians of ${repetitions} repetitions."
} >"$out/machine.txt"
python3 scripts/bench_table.py "$out/lookups.json" "$out/machine.txt" >"$out/lookups.md"
cat "$out/lookups.md"
echo "written: $out/lookups.json $out/lookups.md"
