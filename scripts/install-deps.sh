#!/usr/bin/env bash
# Installs the Debian 12 packages statespace builds with, only those missing.
#   scripts/install-deps.sh run   what the binary needs (scripts/run.sh): compiler, CMake,
#                                 Ninja, ccache and the libraries it links
#   scripts/install-deps.sh all   also what the tests, benchmarks and the MPI engine need
#                                 (scripts/test.sh); the default
#   scripts/install-deps.sh fuzz  also clang and libFuzzer (scripts/fuzz.sh)
# The split keeps a first run short: texlive alone is a 48 MB download (~45 s), and
# the report test is its only user (with librsvg2-bin and graphviz, for SVG and LaTeX).
# Open MPI stays out of `run`: CMake builds the binary without the MPI engine when it
# is absent. clang and libclang-rt-14-dev (libFuzzer) build the fuzz harnesses
# (scripts/fuzz.sh --short, which scripts/test.sh and so CI run). ccache is small and makes a rebuild after switching branches cheap.
set -euo pipefail

run_packages=(cmake ninja-build g++ ccache libboost-graph-dev libboost-program-options-dev libtbb-dev
              libtomlplusplus-dev libabsl-dev nlohmann-json3-dev)
test_packages=(clang-format-14 libgtest-dev libbenchmark-dev openmpi-bin libopenmpi-dev libboost-mpi-dev
               librsvg2-bin texlive-latex-base texlive-latex-recommended graphviz)
fuzz_packages=(clang libclang-rt-14-dev)

case "${1:-all}" in
  run) packages=("${run_packages[@]}") ;;
  all) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  fuzz) packages=("${run_packages[@]}" "${test_packages[@]}" "${fuzz_packages[@]}") ;;
  *)
    echo "install-deps.sh: unknown set '$1' (expected run, all or fuzz)" >&2
    exit 2
    ;;
esac

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
