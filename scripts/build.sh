#!/usr/bin/env bash
# Configures (once) and builds the Release tree in build/, saying what it does as it
# goes (ninja's "building: N of M targets" lines). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  echo "build.sh: configuring build/ (cmake, Release)" >&2
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
echo "build.sh: building build/statespace on $(nproc) cores" >&2
NINJA_STATUS="build.sh: building: %f of %t targets: " cmake --build build --parallel "$(nproc)"
