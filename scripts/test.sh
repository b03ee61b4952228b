#!/usr/bin/env bash
# The whole test suite: installs what is missing (all of scripts/install-deps.sh),
# checks the formatting, builds Release (every target), installs the browser tests'
# playwright-core (npm), runs CTest. Then, when
# STATESPACE_SANITIZE_IN_TEST=1 (.ci/run sets it), the suite again under
# AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh, without the
# tests labelled `long`). STATESPACE_WERROR=1 (.ci/run sets it too) fails both
# builds on any compiler warning. The suite holds the fuzz harnesses too
# (tests/fuzz): every seed replayed (FuzzReplay.*, under the sanitizers in their
# pass) and the seed folders checked current (FuzzSeeds.*); fuzzing itself, with
# libFuzzer in a clang tree, is scripts/fuzz.sh.
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
