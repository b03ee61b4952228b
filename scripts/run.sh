#!/usr/bin/env bash
# The first command to run: installs only what the binary needs, builds only the
# binary (build/statespace, and build/statespace-mpi, which it runs for --engine
# mpi, where the tree has Open MPI), and analyses every seed puzzle into reports-out/,
# printing a summary table. Arguments replace the default
# `analyze --all --out reports-out`, e.g. scripts/run.sh solve nooff "N O L L / F O F _".
# What it installs and builds goes to stderr as it happens; the command's own output
# is all that goes to stdout. Run again, it installs and builds nothing. The tests,
# the benchmarks and the packages of the MPI engine come with scripts/test.sh, in the
# same build/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh run
if [ ! -f build/build.ninja ]; then
  echo "run.sh: configuring build/ (cmake, Release, the binary alone)" >&2
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DSTATESPACE_BUILD_BENCH=OFF >/dev/null
fi
targets=(statespace)
if grep -q '^STATESPACE_WITH_MPI:BOOL=ON' build/CMakeCache.txt; then targets+=(statespace-mpi); fi
echo "run.sh: building ${targets[*]/#/build/} on $(nproc) cores" >&2
NINJA_STATUS="run.sh: building: %f of %t targets: " cmake --build build --parallel "$(nproc)" --target "${targets[@]}" >&2
if [ $# -eq 0 ]; then
  set -- analyze --all --out reports-out
fi
echo "run.sh: the binary is $PWD/build/statespace (cmake --install build --prefix DIR puts it in DIR/bin)" >&2
echo "run.sh: statespace $*" >&2
exec build/statespace "$@"
