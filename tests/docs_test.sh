#!/usr/bin/env bash
# Fails when the front door (README.md and docs/*.md) stops telling the truth about
# the code:
#   - every file under examples/ is named (by its file name) in README.md or docs/;
#   - every kind of puzzle file (the rows of puzzle_kinds() in puzzles/puzzle_file.cpp)
#     is named in README.md and docs/puzzle-files.md: `kind = "NAME"` for a .toml
#     kind, its extension for another format;
#   - every engine (the rows of kEngines in analysis/engines/options.hpp) is named as
#     `NAME` in README.md and has its row "| `NAME` |" in docs/engines.md;
#   - every link in README.md and docs/*.md is relative and resolves inside the
#     repository: the file, and for FILE#anchor a heading of FILE; every `../` path
#     in them names a file of the repository.
# With --self-test it checks that planted faults are caught.
set -euo pipefail
root=${1:?usage: docs_test.sh SOURCE_DIR [--self-test]}

# The GitHub anchors of FILE's headings, one a line (code blocks left out).
anchors() {
  awk '
    /^(```|~~~)/ { fence = !fence; next }
    fence || !/^#+ / { next }
    {
      s = tolower($0); sub(/^#+ +/, "", s)
      gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s)
      n = seen[s]++
      print (n ? s "-" n : s)
    }' "$1"
}

# The link targets of FILE, one a line: [text](target) outside code blocks and spans.
links() {
  awk '/^(```|~~~)/ { fence = !fence; next } !fence { gsub(/`[^`]*`/, ""); print }' "$1" |
    grep -oE '\]\([^) ]+\)' | sed -E 's/^\]\((.*)\)$/\1/' || true
}

# Whether PATH (already made absolute) lies inside the repository at $1.
inside() { case "$(realpath -m "$2")/" in "$(realpath -m "$1")"/*) return 0 ;; *) return 1 ;; esac; }

check() {
  local dir=$1 bad=0 docs f name target path anchor base ext kind engine rel
  docs=("$dir/README.md" "$dir"/docs/*.md)
  local text; text=$(cat "${docs[@]}")

  while IFS= read -r -d '' f; do
    name=$(basename "$f")
    if ! grep -qE "(^|[^A-Za-z0-9_.-])${name//./\\.}([^A-Za-z0-9_-]|$)" <<<"$text"; then
      echo "${f#"$dir"/}: named nowhere in README.md or docs/*.md"
      bad=1
    fi
  done < <(find "$dir/examples" -type f -print0)

  local kinds; kinds=$(grep -oE '^ *\{"\.[a-z]+", "[a-z]+"' "$dir/puzzles/puzzle_file.cpp" | tr -d ' {"' || true)
  [ -n "$kinds" ] || { echo "puzzles/puzzle_file.cpp: no kinds found (expected rows {\".toml\", \"NAME\", ...})"; bad=1; }
  for kind in $kinds; do
    ext=${kind%%,*} name=${kind#*,}
    if [ "$ext" = .toml ]; then want="kind = \"$name\""; else want=$ext; fi
    for f in README.md docs/puzzle-files.md; do
      grep -qF -- "$want" "$dir/$f" || { echo "$f: the kind $name is not named ($want)"; bad=1; }
    done
  done

  local engines; engines=$(grep -oE '^ *\{Engine::[a-z_]+, "[a-z]+"' "$dir/analysis/engines/options.hpp" |
    sed -E 's/.*"([a-z]+)"/\1/' || true)
  [ -n "$engines" ] || { echo "analysis/engines/options.hpp: no engines found (expected rows {Engine::x, \"NAME\", ...})"; bad=1; }
  for engine in $engines; do
    grep -qF "\`$engine\`" "$dir/README.md" || { echo "README.md: the engine $engine is not named (\`$engine\`)"; bad=1; }
    grep -qF "| \`$engine\`" "$dir/docs/engines.md" || { echo "docs/engines.md: no table row for the engine $engine"; bad=1; }
  done

  for f in "${docs[@]}"; do
    rel=${f#"$dir"/}
    while IFS= read -r target; do
      [ -n "$target" ] || continue
      if [[ $target =~ ^[a-zA-Z][a-zA-Z0-9+.-]*: ]]; then
        echo "$rel: the link $target leaves the repository (expected a relative link)"
        bad=1
        continue
      fi
      path=${target%%#*} anchor=
      [[ $target == *'#'* ]] && anchor=${target#*#}
      if [ -z "$path" ]; then base=$f; else base=$(dirname "$f")/$path; fi
      if ! inside "$dir" "$base" || [ ! -e "$base" ]; then
        echo "$rel: the link $target names no file of the repository"
        bad=1
      elif [ -n "$anchor" ] && ! anchors "$base" | grep -qxF -- "$anchor"; then
        echo "$rel: the link $target names no heading of ${base#"$dir"/}"
        bad=1
      fi
    done < <(links "$f")
    while IFS= read -r path; do
      if ! inside "$dir" "$(dirname "$f")/$path" || [ ! -e "$(dirname "$f")/$path" ]; then
        echo "$rel: $path names no file of the repository"
        bad=1
      fi
    done < <(grep -oE '(^|[^A-Za-z0-9_.])\.\./[A-Za-z0-9_./-]*' "$f" | sed -E 's/^[^.]//' || true)
  done
  return $bad
}

if [ "${2:-}" = "--self-test" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/docs" "$tmp/examples/puzzles" "$tmp/puzzles" "$tmp/analysis/engines"
  printf '      {".toml", "graph", "tokens",\n      {".tws", "tws", "twisty",\n' > "$tmp/puzzles/puzzle_file.cpp"
  printf '    {Engine::explicit_graph, "explicit", "the graph",\n' > "$tmp/analysis/engines/options.hpp"
  touch "$tmp/examples/puzzles/theta0.toml" "$tmp/examples/puzzles/cube2.tws"
  printf '# Top\nFiles: [graph](docs/files.md#graph-files), `kind = "graph"`, .tws; engine `explicit`.\n' \
    > "$tmp/README.md"
  printf '# Files\n\n## Graph files\n\n```\n# not a heading\n[not](a-link.md)\n```\n' > "$tmp/docs/files.md"
  printf 'theta0.toml and cube2.tws; `kind = "graph"`, .tws. [Back](../README.md#top)\n' \
    > "$tmp/docs/puzzle-files.md"
  printf '| `explicit` | every puzzle |\n' > "$tmp/docs/engines.md"
  if ! check "$tmp" >/dev/null; then echo "self-test: true docs were refused:"; check "$tmp"; exit 1; fi
  plant() {  # plant WHAT FILE TEXT: appends TEXT to FILE, expects a failure, restores
    cp "$tmp/$2" "$tmp/saved"
    printf '%s\n' "$3" >> "$tmp/$2"
    if check "$tmp" >/dev/null; then echo "self-test: $1 went unnoticed"; exit 1; fi
    mv "$tmp/saved" "$tmp/$2"
  }
  plant "a link to a missing file" docs/engines.md "[x](gone.md)"
  plant "a link to a missing heading" docs/engines.md "[x](files.md#no-such-heading)"
  plant "a link to a heading inside a code block" docs/engines.md "[x](files.md#not-a-heading)"
  plant "a link out of the repository" docs/engines.md "[x](../../etc/hostname)"
  plant "a web link" README.md "[x](https://example.org/)"
  plant "a path out of the repository" docs/engines.md 'the style is `../shared/STYLE.md`'
  plant "an engine without its docs" analysis/engines/options.hpp '    {Engine::ranked, "ranked", "bitsets",'
  plant "a kind without its docs" puzzles/puzzle_file.cpp '      {".toml", "rules", "rewrites",'
  touch "$tmp/examples/puzzles/skewb.toml"
  if check "$tmp" >/dev/null; then echo "self-test: an example file named nowhere went unnoticed"; exit 1; fi
  exit 0
fi
check "$root"
