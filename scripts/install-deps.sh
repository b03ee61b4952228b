#!/usr/bin/env bash
# Installs the Debian 12 packages statespace builds with, only if some are missing.
# librsvg2-bin and texlive (48 MB download, ~45 s) let the report test render SVG and LaTeX.
set -euo pipefail

packages=(cmake ninja-build g++ ccache clang-format-14 libboost-graph-dev libboost-program-options-dev libtbb-dev
          libtomlplusplus-dev
          libabsl-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev openmpi-bin libopenmpi-dev
          libboost-mpi-dev librsvg2-bin texlive-latex-base texlive-latex-recommended)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
