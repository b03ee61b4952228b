#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks the formatting, builds
# Release, runs CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scripts/format.sh --check
ctest --test-dir build --output-on-failure --parallel "$(nproc)" "$@"
