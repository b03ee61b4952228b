#!/usr/bin/env bash
# Fails on any #include "folder/..." that points against the dependency order
#   core <- puzzles <- analysis/runtime <- analysis/engines <- analysis/solvers
#        <- analysis/problems <- analysis <- distributed <- analysis/pipeline <- reports <- cli
# A file belongs to the deepest folder of the list that holds it (analysis/engines/
# implicit/x.hpp is in analysis/engines); it may include its own folder and the ones
# to its left. Within analysis/engines/ each engine's folder (explicit/, implicit/,
# ...) may include only itself, analysis/engines/common/ and the top-level
# analysis/engines/*.hpp headers, and those headers and common/ no engine's folder:
# engines share code through common/, never through each other. With --self-test it
# checks that planted wrong includes are caught.
set -euo pipefail
root=${1:?usage: include_order_test.sh SOURCE_DIR [--self-test]}
order=(core puzzles analysis/runtime analysis/engines analysis/solvers analysis/problems analysis distributed
       analysis/pipeline reports cli)

# level PATH: the index of the deepest folder of `order` that is a prefix of PATH.
level() {
  local i best=-1 length=0
  for i in "${!order[@]}"; do
    case "$1/" in
      "${order[$i]}"/*) [ ${#order[$i]} -gt "$length" ] && { best=$i; length=${#order[$i]}; } ;;
    esac
  done
  echo "$best"
}

# engine_folder PATH: the engine folder under analysis/engines/ that holds PATH
# ("common" for the shared one), empty for a top-level header or a file elsewhere.
engine_folder() {
  case "$1" in
    analysis/engines/*/*) local rest=${1#analysis/engines/}; echo "${rest%%/*}" ;;
  esac
}

check() {
  local dir=$1 bad=0 f rel line target mine theirs from to
  while IFS= read -r -d '' f; do
    rel=${f#"$dir"/}
    mine=$(level "$(dirname "$rel")")
    [ "$mine" -ge 0 ] || continue
    while IFS= read -r line; do
      target=${line#*\"}; target=${target%\"*}
      theirs=$(level "$(dirname "$target")")
      if [ "$theirs" -gt "$mine" ]; then
        echo "$rel: includes $target (a ${order[$mine]}/ file may include only: ${order[*]:0:$((mine + 1))})"
        bad=1
      fi
      case "$rel" in analysis/engines/*) ;; *) continue ;; esac
      from=$(engine_folder "$rel")
      to=$(engine_folder "$target")
      if [ -n "$to" ] && [ "$to" != common ] && [ "$to" != "$from" ]; then
        echo "$rel: includes $target (an engine folder may include only itself, analysis/engines/common/ and" \
          "analysis/engines/*.hpp; share code through common/)"
        bad=1
      fi
    done < <(grep -E '^#include "[a-z_]+/' "$f" || true)
  done < <(find "$dir" \( -path "$dir/build*" -o -path "$dir/.git" \) -prune -o -name '*.[ch]pp' -print0)
  return $bad
}

if [ "${2:-}" = "--self-test" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  # refused FILE LINE WHAT: FILE holding LINE alone must fail the check.
  refused() {
    printf "$2" > "$tmp/$1"
    if check "$tmp" >/dev/null; then echo "self-test: $3 went unnoticed"; exit 1; fi
    rm "$tmp/$1"
  }
  mkdir -p "$tmp/core" "$tmp/cli" "$tmp/analysis/runtime" "$tmp/analysis/engines/implicit"
  refused core/bad.hpp '#include "cli/cli.hpp"\n' "a core/ -> cli/ include"
  refused analysis/runtime/bad.hpp '#include "analysis/engines/implicit/x.hpp"\n' "a runtime/ -> engines/ include"
  mkdir -p "$tmp/distributed" "$tmp/analysis/pipeline"
  refused distributed/bad.hpp '#include "analysis/pipeline/analyze_puzzle.hpp"\n' "a distributed/ -> analysis/pipeline/ include"
  mkdir -p "$tmp/analysis/engines/explicit" "$tmp/analysis/engines/common"
  refused analysis/engines/explicit/bad.hpp '#include "analysis/engines/implicit/level_bits.hpp"\n' "an explicit/ -> implicit/ include"
  refused analysis/engines/common/bad.hpp '#include "analysis/engines/explicit/x.hpp"\n' "a common/ -> explicit/ include"
  refused analysis/engines/bad.hpp '#include "analysis/engines/implicit/x.hpp"\n' "an engines/ header -> implicit/ include"
  printf '#include "analysis/engines/common/level_bits.hpp"\n#include "analysis/engines/result.hpp"\n' \
    > "$tmp/analysis/engines/explicit/good.hpp"
  printf '#include "analysis/engines/implicit/y.hpp"\n' > "$tmp/analysis/engines/implicit/own.hpp"
  printf '#include "distributed/analyze_mpi.hpp"\n' > "$tmp/analysis/pipeline/good.cpp"
  printf '#include "analysis/runtime/x.hpp"\n#include "core/x.hpp"\n' > "$tmp/analysis/engines/implicit/good.hpp"
  printf '#include "analysis/engines/implicit/good.hpp"\n' > "$tmp/cli/good.cpp"
  if ! check "$tmp" >/dev/null; then echo "self-test: allowed includes were refused"; exit 1; fi
  exit 0
fi
check "$root"
