#!/usr/bin/env bash
# The whole test suite: installs what is missing (all of scripts/install-deps.sh),
# checks the formatting, builds Release (every target), installs the browser tests'
# playwright-core (npm), runs CTest. Then, when
# STATESPACE_SANITIZE_IN_TEST=1 (.ci/run sets it), the suite again under
# AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh, without the
# tests labelled `long`). STATESPACE_WERROR=1 (.ci/run sets it too) fails both
# builds on any compiler warning. Last, scripts/fuzz.sh --short (a third build, with
# clang: core and the puzzle readers only): the fuzz seeds checked current against
# the examples and tests, every seed replayed and 3 s of fuzzing per harness
# (eleven harnesses, 33 s).
# STATESPACE_SKIP_FUZZ=1 leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, so that a slow CI run says where its minutes went.
stage_start=$SECONDS
stage_done() {
  echo "test.sh: $1 took $((SECONDS - stage_start)) s (${SECONDS} s in all)" >&2
  stage_start=$SECONDS
}
scripts/build.sh
stage_done "the Release build"
scripts/format.sh --check
# playwright-core for the browser tests, as the committed lock file pins it.
npm ci --prefix tests/web --no-audit --no-fund --loglevel=error
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
stage_done "the Release suite"
if [ "${STATESPACE_SANITIZE_IN_TEST:-}" = 1 ]; then
  echo "test.sh: the suite again under ASan and UBSan (scripts/sanitize.sh)" >&2
  scripts/sanitize.sh "$@"
  stage_done "the sanitizer build and suite"
fi
if [ "${STATESPACE_SKIP_FUZZ:-}" != 1 ]; then
  echo "test.sh: the fuzz harnesses, briefly (scripts/fuzz.sh --short)" >&2
  scripts/fuzz.sh --short
  stage_done "the fuzz build and harnesses"
fi
