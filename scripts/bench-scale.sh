#!/usr/bin/env bash
# The scale targets of the implicit engine: a Release build (build-bench-scale/), then
# complete BFS runs of tiles:3x4 and tiles:2x6 (239,500,800 positions each) through
# the CLI under /usr/bin/time -v, and a table of the median wall time and peak RSS
# over RUNS runs, states/s and the puzzle facts (eccentricity, farthest positions).
# Target: <= 2.5 s wall and <= 64 MB peak RSS each on 2 cores.
#
#   scripts/bench-scale.sh                  # tiles:3x4 and tiles:2x6, all cores
#   THREADS=1 scripts/bench-scale.sh        # one worker thread
#   PUZZLES="tiles:2x5" RUNS=5 scripts/bench-scale.sh
#   BASELINE=main scripts/bench-scale.sh
#       also builds that git revision (build-bench-baseline/) and alternates the two
#       binaries run by run, so that a shared, noisy machine affects both alike;
#       prints the ratio of the medians.
#   STATESPACE_2X7_SECONDS=300 scripts/bench-scale.sh
#       also starts tiles:2x7 (43,589,145,600 positions, 8.2 GB of layer bitsets) with a
#       checkpoint folder and kills it after that many seconds; prints its per-level
#       progress so the full run can be extrapolated. Needs ~9 GB of free RAM.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench-scale
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DSTATESPACE_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)" --target statespace >/dev/null
bins=("$build/statespace")
names=(current)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${BASELINE:-}" ]; then
  base_build=build-bench-baseline
  rm -rf "$base_build/src" && mkdir -p "$base_build/src"
  git archive "$BASELINE" | tar -x -C "$base_build/src"
  cmake -S "$base_build/src" -B "$base_build/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
    -DSTATESPACE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$base_build/build" --parallel "$(nproc)" --target statespace >/dev/null
  bins+=("$(find "$base_build/build" -name statespace -type f -executable | head -1)")
  names+=("$BASELINE")
fi
threads=${THREADS:-$(nproc)}
runs=${RUNS:-3}

field() {  # field NAME FILE: one value of /usr/bin/time -v
  grep -F "$1" "$2" | sed 's/.*: //'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-10s %-10s %8s %5s %10s %12s %12s %6s %9s\n' puzzle binary threads runs wall_s peak_rss_MB states/s depth farthest
for puzzle in ${PUZZLES:-tiles:3x4 tiles:2x6}; do
  for ((run = 0; run < runs; run++)); do
    for i in "${!bins[@]}"; do
      /usr/bin/time -v "${bins[$i]}" --threads "$threads" analyze "$puzzle" --engine implicit --quiet \
        --out "$work/out$i" 2>"$work/time.txt" >/dev/null
      field "Elapsed (wall clock)" "$work/time.txt" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' >>"$work/wall$i"
      field "Maximum resident set size" "$work/time.txt" >>"$work/rss$i"
    done
  done
  for i in "${!bins[@]}"; do
    wall=$(median <"$work/wall$i")
    rss_kb=$(median <"$work/rss$i")
    echo "$wall" >"$work/median$i"
    summary="$work/out$i/${puzzle/:/-}/summary.json"
    states=$(grep -m1 '"states"' "$summary" | tr -dc 0-9)
    depth=$(grep -m1 '"eccentricity"' "$summary" | tr -dc 0-9)
    farthest=$(grep -m1 '"farthest_count"' "$summary" | tr -dc 0-9)
    awk -v p="$puzzle" -v b="${names[$i]}" -v t="$threads" -v n="$runs" -v w="$wall" -v r="$rss_kb" -v s="$states" \
      -v d="$depth" -v f="$farthest" \
      'BEGIN { printf "%-10s %-10s %8d %5d %10.2f %12.1f %12.3g %6d %9d\n", p, b, t, n, w, r / 1024, s / w, d, f }'
    rm -f "$work/wall$i" "$work/rss$i"
  done
  if [ ${#bins[@]} -gt 1 ]; then
    awk -v a="$(cat "$work/median1")" -v b="$(cat "$work/median0")" -v p="$puzzle" \
      'BEGIN { printf "%s: %s / current = %.2fx\n", p, "'"$BASELINE"'", a / b }'
  fi
done
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"

if [ -n "${STATESPACE_2X7_SECONDS:-}" ]; then
  # Killed mid-run, as an interrupted multi-hour run would be; --resume would continue it.
  echo "tiles:2x7: first ${STATESPACE_2X7_SECONDS} s, checkpoints in $work/ckpt"
  timeout -s KILL "$STATESPACE_2X7_SECONDS" \
    "${bins[0]}" --threads "$threads" analyze tiles:2x7 --engine implicit --checkpoint "$work/ckpt" \
    --out "$work/out" 2>&1 >/dev/null || true
  ls -ls "$work/ckpt"
fi
