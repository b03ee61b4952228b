#!/usr/bin/env bash
# Formats every C++ file with clang-format (.clang-format); --check only reports
# the files that differ and fails if there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$formatter" ]; then
  echo "format.sh: clang-format not found (apt-get install clang-format-14)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    "$formatter" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format.sh: not clang-formatted (run scripts/format.sh): ${bad[*]}" >&2
    exit 1
  fi
  exit 0
fi
"$formatter" -i "${files[@]}"
