#!/usr/bin/env bash
# The whole test suite: installs what is missing (all of scripts/install-deps.sh),
# checks the formatting, builds Release (every target), runs CTest. Then, when
# STATESPACE_SANITIZE_IN_TEST=1 (.ci/run sets it), the suite again under
# AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize.sh, without the
# tests labelled `long`), and the libFuzzer harnesses replay their seed corpus and
# fuzz for a short while (scripts/fuzz.sh --short). STATESPACE_WERROR=1 (.ci/run sets it too) fails both builds
# on any compiler warning.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/format.sh --check
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
if [ "${STATESPACE_SANITIZE_IN_TEST:-}" = 1 ]; then
  echo "test.sh: the suite again under ASan and UBSan (scripts/sanitize.sh)" >&2
  scripts/sanitize.sh "$@"
  echo "test.sh: the fuzz harnesses over their seeds, then briefly fuzzing (scripts/fuzz.sh --short)" >&2
  scripts/fuzz.sh --short
fi
