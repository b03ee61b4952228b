#!/usr/bin/env bash
# Checking a file of Rush Hour database rows: `statespace analyze ROWS --check` under
# /usr/bin/time, RUNS times, with the wall and CPU (user + sys) time of each run and
# the load average before and after. Target: 1,000 rows in at most 60 s wall on 2
# cores, every row agreeing (on a loaded machine, judge by CPU / 2).
# ROWS defaults to tests/data/rush-1000.txt, made by scripts/rush_rows.py 1000.
#
#   scripts/bench-rush-rows.sh                        # build/statespace, 3 runs
#   ROWS=my-rows.txt RUNS=1 THREADS=1 scripts/bench-rush-rows.sh
#   BASELINE=/path/to/other/statespace scripts/bench-rush-rows.sh
#       also times that binary, alternated run by run with ours, the same way
#       (`analyze ROWS --out DIR`, writing every row's report, when it has no --check).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${STATESPACE:-build/statespace}
rows=${ROWS:-tests/data/rush-1000.txt}
runs=${RUNS:-3}
threads=()
if [ -n "${THREADS:-}" ]; then threads=(--threads "$THREADS"); fi
[ -x "$binary" ] || cmake --build build --parallel "$(nproc)" --target statespace >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One timed run of $1: its totals line, then wall, user and sys seconds.
time_one() {
  local bin=$1 label=$2 args=(analyze "$rows" --check -q)
  if ! "$bin" analyze --help | grep -q -- '--check'; then
    rm -rf "$work/out"
    args=(analyze "$rows" --out "$work/out")
  fi
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  set +e
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$bin" "${threads[@]}" "${args[@]}" >"$work/out.txt" 2>"$work/err.txt"
  local code=$?
  set -e
  read -r wall user sys <"$work/time"
  printf '%-9s exit %d  %7.2f s wall  %7.2f s CPU (user %.2f + sys %.2f)  load %s -> %s  %s\n' "$label" "$code" \
    "$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$load" "$(cut -d' ' -f1 /proc/loadavg)" \
    "$(grep ' rows agree ' "$work/out.txt" | tail -1)"
}

echo "rows: $rows ($(grep -cv '^#' "$rows") lines), $(nproc) cores"
for ((i = 1; i <= runs; i++)); do
  time_one "$binary" current
  if [ -n "${BASELINE:-}" ]; then time_one "$BASELINE" baseline; fi
done
