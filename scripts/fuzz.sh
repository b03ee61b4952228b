#!/usr/bin/env bash
# The libFuzzer harnesses over every parser (tests/fuzz), built with clang++, ASan and
# UBSan in build-fuzz/, run one at a time.
#   scripts/fuzz.sh [SECONDS]  fuzz each harness SECONDS (default 60) from its seeds
#   scripts/fuzz.sh --replay   run each harness over its seeds only, no mutation
#   scripts/fuzz.sh --short    check the seeds are current, replay, then 3 s of fuzzing
#                              per harness (33 s in all); scripts/test.sh runs it
#   scripts/fuzz.sh --seeds    rewrite the seeds from the examples and the unit tests
# New inputs go to build-fuzz/corpus/HARNESS/ (FUZZ_KEEP=1: to the seed folder
# instead), crashes to build-fuzz/crashes/; a crash stops the script with exit code 1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh fuzz

mode=fuzz seconds=60
case "${1:-}" in
  --replay) mode=replay ;;
  --short) mode=short seconds=3 ;;
  --seeds) mode=seeds ;;
  "") ;;
  *[!0-9]*) echo "fuzz.sh: bad argument '$1' (expected SECONDS, --replay, --short or --seeds)" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac

if [ ! -f build-fuzz/build.ninja ]; then
  echo "fuzz.sh: configuring build-fuzz/ (clang++, -O1, asserts on, ASan+UBSan+libFuzzer)" >&2
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DSTATESPACE_FUZZ=ON -DBUILD_TESTING=OFF \
    -DSTATESPACE_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
fi
NINJA_STATUS="fuzz.sh: building: %f of %t targets: " cmake --build build-fuzz --parallel "$(nproc)"

# harness  seed folder  longest input (bytes)
harnesses=(
  "puzzle_file puzzle_file 4096"
  "blocks puzzle_file 4096"
  "graph puzzle_file 4096"
  "permutation puzzle_file 4096"
  "rules puzzle_file 4096"
  "tws tws 4096"
  "xsb xsb 4096"
  "rush rush 4096"
  "position position 512"
  "manifest manifest 4096"
  "checkpoint checkpoint 1024"
)

# The position seeds, made by the harness itself: into the folder $1.
position_seeds() {
  mkdir -p "$1"
  find "$1" -maxdepth 1 -type f ! -name 'crash-*' -delete
  STATESPACE_FUZZ_WRITE_SEEDS="$1" build-fuzz/tests/fuzz/fuzz_position
}

if [ "$mode" = seeds ]; then
  python3 tests/fuzz/make_seeds.py
  position_seeds tests/fuzz/position
  exit 0
fi
if [ "$mode" = short ]; then
  python3 tests/fuzz/make_seeds.py --check
  fresh=build-fuzz/position-seeds
  rm -rf "$fresh"
  position_seeds "$fresh"
  if ! diff -rq --exclude='crash-*' "$fresh" tests/fuzz/position >&2; then
    echo "fuzz.sh: tests/fuzz/position/ differs from the models' seeds (run scripts/fuzz.sh --seeds)" >&2
    exit 1
  fi
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p build-fuzz/crashes
for h in "${harnesses[@]}"; do
  read -r name seeds max_len <<<"$h"
  bin=build-fuzz/tests/fuzz/fuzz_$name
  common=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="build-fuzz/crashes/$name-")
  if [ "$mode" != fuzz ]; then
    echo "fuzz.sh: $name: replaying tests/fuzz/$seeds/" >&2
    log=build-fuzz/replay-$name.log
    if ! "$bin" "${common[@]}" -runs=0 "tests/fuzz/$seeds" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      echo "fuzz.sh: $name: a seed fails (log $log)" >&2
      exit 1
    fi
  fi
  [ "$mode" = replay ] && continue
  scratch=build-fuzz/corpus/$name
  [ "${FUZZ_KEEP:-0}" = 1 ] && scratch=tests/fuzz/$seeds
  mkdir -p "$scratch"
  echo "fuzz.sh: $name: fuzzing ${seconds}s (new inputs in $scratch/)" >&2
  log=build-fuzz/fuzz-$name.log
  if ! "$bin" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 "$scratch" "tests/fuzz/$seeds" \
    >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz.sh: $name: crash; input in build-fuzz/crashes/ (log $log)" >&2
    exit 1
  fi
  grep -E '^stat::number_of_executed_units|^#.*DONE' "$log" | sed "s/^/fuzz.sh: $name: /" >&2
done
echo "fuzz.sh: no findings" >&2
