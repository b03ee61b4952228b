#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/),
# without the tests labelled `long` in tests/CMakeLists.txt: the Release pass runs
# those, and under the sanitizers (5-10x slower) they would take most of CI's time
# while taking no path through parsing or the engines that the short ones skip.
# Arguments go to ctest instead (e.g. -R Cli, or -L long for the long ones).
# STATESPACE_WERROR=1 (.ci/run sets it) makes every warning an error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh all
werror=()
if [ "${STATESPACE_WERROR:-}" = 1 ]; then werror=(-DSTATESPACE_WERROR=ON); fi
if [ ! -f build-asan/build.ninja ]; then
  echo "sanitize.sh: configuring build-asan/ (cmake, -O1 -g1, ASan+UBSan)" >&2
  # -O1 -g1 (line tables only): the instrumented test files compile in less than half
  # the time -O2 -g takes (35 s against 83 s for implicit_test.cpp), and ASan's stack
  # traces keep their file and line.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DSTATESPACE_SANITIZE=ON \
    -DSTATESPACE_BUILD_BENCH=OFF "${werror[@]}" >/dev/null
elif [ ${#werror[@]} -gt 0 ] && ! grep -q '^STATESPACE_WERROR:BOOL=ON' build-asan/CMakeCache.txt; then
  cmake -S . -B build-asan "${werror[@]}" >/dev/null
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
  ASAN_OPTIONS=$leaks ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -LE '^long$' \
    -E '^MpiEngine[.]'
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)" -LE '^long$' -R '^MpiEngine[.]'
fi
