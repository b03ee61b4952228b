#!/usr/bin/env bash
# Fails on any #include "folder/..." that points against the dependency order
#   core <- puzzles <- analysis <- distributed <- reports <- cli
# (a folder may include itself and the folders to its left). With --self-test it
# checks that a planted wrong include is caught.
set -euo pipefail
root=${1:?usage: include_order_test.sh SOURCE_DIR [--self-test]}
order=(core puzzles analysis distributed reports cli)

level() {
  local i
  for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && { echo "$i"; return; }; done
  echo -1
}

check() {
  local dir=$1 bad=0 folder f line target
  for folder in "${order[@]}"; do
    [ -d "$dir/$folder" ] || continue
    local mine; mine=$(level "$folder")
    while IFS= read -r -d '' f; do
      while IFS= read -r line; do
        target=${line#*\"}; target=${target%%/*}
        local theirs; theirs=$(level "$target")
        if [ "$theirs" -gt "$mine" ]; then
          echo "${f#"$dir"/}: includes $target/ (a $folder/ file may include only: ${order[*]:0:$((mine + 1))})"
          bad=1
        fi
      done < <(grep -E '^#include "[a-z_]+/' "$f" || true)
    done < <(find "$dir/$folder" -name '*.[ch]pp' -print0)
  done
  return $bad
}

if [ "${2:-}" = "--self-test" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/core" "$tmp/cli"
  printf '#include "cli/cli.hpp"\n' > "$tmp/core/bad.hpp"
  printf '#include "core/bad.hpp"\n' > "$tmp/cli/good.cpp"
  if check "$tmp" >/dev/null; then echo "self-test: a core/ -> cli/ include went unnoticed"; exit 1; fi
  exit 0
fi
check "$root"
