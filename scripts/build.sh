#!/usr/bin/env bash
# Builds the Release tree in build/: every target (the binary, the tests, the
# benchmarks) after installing all the packages they need, saying what it does as
# it goes (ninja's "building: N of M targets" lines). Extra arguments go to cmake.
# STATESPACE_WERROR=1 (.ci/run sets it) makes every warning an error.
# scripts/run.sh builds the binary alone in the same tree.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh all
configure=(-DBUILD_TESTING=ON -DSTATESPACE_BUILD_BENCH=ON)
if [ "${STATESPACE_WERROR:-}" = 1 ]; then configure+=(-DSTATESPACE_WERROR=ON); fi
if [ ! -f build/build.ninja ]; then
  echo "build.sh: configuring build/ (cmake, Release)" >&2
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" "$@" >/dev/null
elif grep -q '^BUILD_TESTING:BOOL=OFF' build/CMakeCache.txt; then
  # Configured by scripts/run.sh before the test packages were there: CMake keeps what
  # it did not find then (Open MPI among them), so the cache starts afresh. The
  # compiled objects stay, and ninja reuses those whose command lines did not change.
  echo "build.sh: configuring build/ afresh with the tests (it held the binary alone)" >&2
  cmake --fresh -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" "$@" >/dev/null
elif [ $# -gt 0 ] || { [ "${STATESPACE_WERROR:-}" = 1 ] && ! grep -q '^STATESPACE_WERROR:BOOL=ON' build/CMakeCache.txt; }; then
  echo "build.sh: configuring build/ with ${configure[*]} $*" >&2
  cmake -S . -B build "${configure[@]}" "$@" >/dev/null
fi
echo "build.sh: building build/ (all targets) on $(nproc) cores" >&2
NINJA_STATUS="build.sh: building: %f of %t targets: " cmake --build build --parallel "$(nproc)"
