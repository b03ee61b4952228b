#!/usr/bin/env bash
# Runs two statespace binaries on the same inputs and diffs their report folders,
# ignoring the facts of the run (seconds, peak memory, threads), which differ from
# run to run. Inputs: analyze --all, every examples/puzzles/ file (.toml and .tws),
# tiles:3x4 on the implicit engine, and the report manifest examples/article.toml.
#   scripts/compare-reports.sh OLD_BINARY NEW_BINARY [WORK_DIR]
# Exit code 0 when every bundle agrees, 1 otherwise (the differences are printed).
set -euo pipefail
old=${1:?usage: compare-reports.sh OLD_BINARY NEW_BINARY [WORK_DIR]}
new=${2:?usage: compare-reports.sh OLD_BINARY NEW_BINARY [WORK_DIR]}
work=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)

run() {  # run BINARY OUT
  local bin=$1 out=$2 f
  rm -rf "$out"
  mkdir -p "$out"
  "$bin" analyze --all --quiet --out "$out/all"
  for f in "$root"/examples/puzzles/*.toml "$root"/examples/puzzles/*.tws; do
    "$bin" analyze "$f" --quiet --out "$out/files/$(basename "$f")"
  done
  "$bin" analyze tiles:3x4 --engine implicit --quiet --out "$out/implicit"
  "$bin" report "$root/examples/article.toml" --quiet --out "$out/article"
  rm -rf "$out/article/cache"
}

# The run facts, blanked where they are written: summary.json's run fields and the
# provenance lines of the article's index.md.
normalise() {
  find "$1" -type f -print0 | xargs -0 sed -i -E \
    -e 's/("(seconds|peak_bytes|peak_per_run|threads)": *)[^,}]*/\1_/g' \
    -e 's/[0-9]+ threads?, [0-9.]+ s on/_ threads, _ s on/g'
}

[ -d "$work/old" ] && [ "${REUSE_OLD:-0}" = 1 ] || run "$old" "$work/old"
run "$new" "$work/new"
normalise "$work/old"
normalise "$work/new"
if diff -r "$work/old" "$work/new"; then
  echo "reports agree ($work)"
else
  exit 1
fi
