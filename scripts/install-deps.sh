#!/usr/bin/env bash
# Installs the Debian 12 packages statespace builds with, only those missing.
#   scripts/install-deps.sh run   what the binary needs (scripts/run.sh): compiler, CMake,
#                                 Ninja, ccache and the libraries it links
#   scripts/install-deps.sh all   also what the tests, benchmarks, the MPI engine and the
#                                 Python module need (scripts/test.sh); the default
#   scripts/install-deps.sh fuzz  also clang and libFuzzer (scripts/fuzz.sh)
# The split keeps a first run short: texlive alone is a 48 MB download (~45 s), and
# the report test is its only user (with librsvg2-bin and graphviz, for SVG and LaTeX).
# chromium and nodejs run the browser tests (tests/web/); `statespace serve`'s
# Boost.Beast and Asio are headers of the Boost that libboost-graph-dev installs.
# Open MPI stays out of `run`: CMake builds the binary without the MPI engine when it
# is absent. clang and libclang-rt-14-dev (libFuzzer) build the fuzz harnesses
# (scripts/fuzz.sh; CI replays their seeds in the g++ trees instead). ccache is small and makes a rebuild after switching branches cheap.
set -euo pipefail

run_packages=(cmake ninja-build g++ ccache libboost-graph-dev libboost-program-options-dev libtbb-dev
              libtomlplusplus-dev libabsl-dev nlohmann-json3-dev)
test_packages=(clang-format-14 libgtest-dev libbenchmark-dev openmpi-bin libopenmpi-dev libboost-mpi-dev
               librsvg2-bin texlive-latex-base texlive-latex-recommended graphviz chromium nodejs)
# The Python module (python/, docs/python.md): pybind11 and Debian's Python with what
# its tests and the notebook use; wheel and venv for the offline `pip install .`.
python_packages=(pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-nbclient
                 python3-ipykernel python3-matplotlib python3-setuptools python3-wheel python3-venv)
fuzz_packages=(clang libclang-rt-14-dev)

case "${1:-all}" in
  run) packages=("${run_packages[@]}") ;;
  all) packages=("${run_packages[@]}" "${test_packages[@]}" "${python_packages[@]}") ;;
  fuzz) packages=("${run_packages[@]}" "${test_packages[@]}" "${python_packages[@]}" "${fuzz_packages[@]}") ;;
  *)
    echo "install-deps.sh: unknown set '$1' (expected run, all or fuzz)" >&2
    exit 2
    ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The browser tests' playwright-core comes from npm (scripts/test.sh); Debian's nodejs
# ships npm apart, NodeSource's with it.
if [ "${1:-all}" != run ] && ! command -v npm >/dev/null; then missing+=(npm); fi
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
