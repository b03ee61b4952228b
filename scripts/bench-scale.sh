#!/usr/bin/env bash
# The scale targets of the implicit engine: a Release build (build-bench-scale/), then
# complete BFS runs of tiles:3x4 and tiles:2x6 (239,500,800 positions each) through
# the CLI under /usr/bin/time -v, and a table of wall time, peak RSS, states/s and
# the puzzle facts (eccentricity, farthest positions). Target: <= 10 s wall and
# <= 256 MB peak RSS each on 2 cores.
#
#   scripts/bench-scale.sh                  # tiles:3x4 and tiles:2x6, all cores
#   THREADS=1 scripts/bench-scale.sh        # one worker thread
#   PUZZLES="tiles:2x5" scripts/bench-scale.sh
#   STATESPACE_2X7_SECONDS=300 scripts/bench-scale.sh
#       also starts tiles:2x7 (43,589,145,600 positions, 10.9 GB of tables) with a
#       checkpoint folder and kills it after that many seconds; prints its per-level
#       progress so the full run can be extrapolated. Needs ~11 GB of free RAM.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench-scale
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)" --target statespace >/dev/null
bin="$build/statespace"
threads=${THREADS:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() {  # field NAME FILE: one value of /usr/bin/time -v
  grep -F "$1" "$2" | sed 's/.*: //'
}

printf '%-10s %8s %10s %14s %12s %6s %9s\n' puzzle threads wall_s peak_rss_MB states/s depth farthest
for puzzle in ${PUZZLES:-tiles:3x4 tiles:2x6}; do
  /usr/bin/time -v "$bin" --threads "$threads" analyze "$puzzle" --engine implicit --quiet \
    --out "$work/out" 2>"$work/time.txt" >/dev/null
  wall=$(field "Elapsed (wall clock)" "$work/time.txt" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  rss_kb=$(field "Maximum resident set size" "$work/time.txt")
  summary="$work/out/${puzzle/:/-}/summary.json"
  states=$(grep -m1 '"states"' "$summary" | tr -dc 0-9)
  depth=$(grep -m1 '"eccentricity"' "$summary" | tr -dc 0-9)
  farthest=$(grep -m1 '"farthest_count"' "$summary" | tr -dc 0-9)
  awk -v p="$puzzle" -v t="$threads" -v w="$wall" -v r="$rss_kb" -v s="$states" -v d="$depth" -v f="$farthest" \
    'BEGIN { printf "%-10s %8d %10.2f %14.1f %12.3g %6d %9d\n", p, t, w, r / 1024, s / w, d, f }'
done
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"

if [ -n "${STATESPACE_2X7_SECONDS:-}" ]; then
  # Killed mid-run, as an interrupted multi-hour run would be; --resume would continue it.
  echo "tiles:2x7: first ${STATESPACE_2X7_SECONDS} s, checkpoints in $work/ckpt"
  timeout -s KILL "$STATESPACE_2X7_SECONDS" \
    "$bin" --threads "$threads" analyze tiles:2x7 --engine implicit --checkpoint "$work/ckpt" \
    --out "$work/out" 2>&1 >/dev/null || true
  ls -ls "$work/ckpt"
fi
