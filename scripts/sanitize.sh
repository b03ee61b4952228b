#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/).
# Slower than scripts/test.sh; arguments go to ctest (e.g. -R Cli).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ ! -f build-asan/build.ninja ]; then
  echo "sanitize.sh: configuring build-asan/ (cmake, RelWithDebInfo, ASan+UBSan)" >&2
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTATESPACE_SANITIZE=ON \
    -DSTATESPACE_BUILD_BENCH=OFF >/dev/null
fi
NINJA_STATUS="sanitize.sh: building: %f of %t targets: " \
  cmake --build build-asan --parallel "$(nproc)"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
leaks=detect_leaks=1:abort_on_error=1
# Open MPI leaves its own allocations (libmpi and the plugins it unloads, which
# LeakSanitizer cannot even name) at exit: the MPI tests run with every check but
# the leak check.
if [ $# -gt 0 ]; then
  ASAN_OPTIONS=$leaks ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" "$@"
else
  ASAN_OPTIONS=$leaks ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -E '^MpiEngine[.]'
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -R '^MpiEngine[.]'
fi
