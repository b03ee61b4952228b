#!/usr/bin/env bash
# Korf's 100 random 15-puzzle instances (tests/data/korf100.csv) solved optimally by
# `statespace solve --batch` with the pattern databases of PARTITION (default 7-8,
# with reflection), each result checked against the published optimal length (sum
# 5305). Prints the database build (or load) wall and CPU time and peak memory, then
# the batch's wall and CPU time (instances run side by side on every core) and the
# sum of the per-instance times, nodes and nodes/s.
#
#   scripts/korf100.sh                      # 7-8, all cores, cache in $PDB_DIR
#   PARTITION=6-6-3 scripts/korf100.sh      # a smaller partition
#   THREADS=1 FIRST=10 scripts/korf100.sh   # one worker, the first ten instances
#   PDB_DIR=/tmp/pdb scripts/korf100.sh     # default: statespace's own cache folder
#   BIN=/path/to/statespace scripts/korf100.sh   # that binary, no build
#
# The first run builds the databases (7-8: 288 MB of tables, under 1 GB while
# building) and caches them; later runs map them.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-}
if [ -z "$bin" ]; then
  build=${BUILD:-build}
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$build" --target statespace >/dev/null
  bin="$build/statespace"
fi
partition=${PARTITION:-7-8}
threads=${THREADS:-$(nproc)}
first=${FIRST:-100}
pdb_args=(--partition "$partition")
if [ -n "${PDB_DIR:-}" ]; then pdb_args+=(--pdb-dir "$PDB_DIR"); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() {  # field NAME FILE: one value of /usr/bin/time -v
  grep -F "$1" "$2" | sed 's/.*: //'
}

grep -v '^#' tests/data/korf100.csv | tail -n +2 | head -n "$first" >"$work/korf.csv"
cut -d, -f4 "$work/korf.csv" >"$work/positions.txt"

/usr/bin/time -v "$bin" --threads "$threads" pdb build tiles:4x4 "${pdb_args[@]}" \
  >"$work/pdb.out" 2>"$work/pdb.err" || { cat "$work/pdb.err" >&2; exit 1; }
cat "$work/pdb.out"
echo "databases: $(grep -E '^statespace: (built|loaded)' "$work/pdb.err" | sed 's/statespace: //'), wall $(field 'Elapsed (wall' "$work/pdb.err"), cpu $(field 'User time' "$work/pdb.err") s user + $(field 'System time' "$work/pdb.err") s system, peak RSS $(($(field 'Maximum resident' "$work/pdb.err") / 1024)) MiB"

/usr/bin/time -v "$bin" --threads "$threads" solve tiles:4x4 --batch "$work/positions.txt" --format csv \
  "${pdb_args[@]}" >"$work/solve.csv" 2>"$work/solve.err" || { cat "$work/solve.err" >&2; exit 1; }
echo "solve: $threads threads, wall $(field 'Elapsed (wall' "$work/solve.err"), cpu $(field 'User time' "$work/solve.err") s user + $(field 'System time' "$work/solve.err") s system, peak RSS $(($(field 'Maximum resident' "$work/solve.err") / 1024)) MiB"
# korf.csv: id,length,korf,position   solve.csv: position,length,seconds,nodes
tail -n +2 "$work/solve.csv" | paste -d, "$work/korf.csv" - | awk -F, '
  { n++; want += $2; got += $6; secs += $7; nodes += $8
    if ($2 != $6) { bad++; printf "instance %d: length %d, published %d\n", $1, $6, $2 }
    if ($7 > max) { max = $7; worst = $1 } }
  END {
    printf "instances %d, lengths sum %d (published %d), mismatches %d\n", n, got, want, bad
    printf "time per instance %.1f s summed, mean %.3f s, max %.3f s (instance %d)\n", secs, secs / n, max, worst
    printf "nodes %d total, mean %d, %.3g nodes/s\n", nodes, nodes / n, nodes / secs
    exit bad > 0 }'
