#!/usr/bin/env bash
# Installs the Debian 12 packages statespace builds with, only if some are missing.
# librsvg2-bin and texlive (48 MB download, ~45 s) let the report test render SVG and LaTeX.
# clang and libclang-rt-14-dev (libFuzzer) build the fuzz harnesses (scripts/fuzz.sh).
set -euo pipefail

packages=(cmake ninja-build g++ ccache clang-format-14 libboost-graph-dev libboost-program-options-dev libtbb-dev
          libtomlplusplus-dev
          libabsl-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev openmpi-bin libopenmpi-dev
          libboost-mpi-dev librsvg2-bin texlive-latex-base texlive-latex-recommended
          graphviz clang libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps.sh: installing ${#missing[@]} Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "install-deps.sh: apt-get update" >&2
$sudo apt-get update -qq
# One line per package unpacked and set up, so a long install shows it is moving.
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" |
  grep --line-buffered -E '^(Unpacking|Setting up) ' | sed -u 's/^/install-deps.sh: /' >&2 || true
for p in "${missing[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    { echo "install-deps.sh: $p did not install" >&2; exit 1; }
done
echo "install-deps.sh: done" >&2
