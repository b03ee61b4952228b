#!/bin/sh
# The 2x2x2 cube's whole distributions from examples/puzzles/cube2*.toml against the
# published ones (3,674,160 positions; God's number 11 half-turn, 14 quarter-turn).
# The suite checks them through the sorted-levels engine
# (tests/permutation_file_test.cpp); this runs the CLI end to end. By hand:
#   scripts/check-cube2.sh [build/statespace]
set -eu
bin=${1:-build/statespace}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() {
  "$bin" analyze "examples/puzzles/$1.toml" --quiet --out "$out"
  got=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['distribution'])" "$out/$1/summary.json")
  if [ "$got" = "$2" ]; then echo "$1: ok $got"; else echo "$1: expected $2, got $got"; exit 1; fi
}
check cube2 "[1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]"
check cube2-quarter "[1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276]"
