#!/usr/bin/env bash
# The main job: installs what is missing, builds Release, and analyses every seed
# puzzle into reports-out/, printing a summary table. Arguments replace the default
# `analyze --all --out reports-out`, e.g. scripts/run.sh solve nooff "N O L L / F O F _".
# What it installs and builds goes to stderr as it happens; the command's own output
# is all that goes to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2
if [ $# -eq 0 ]; then
  set -- analyze --all --out reports-out
fi
echo "run.sh: the binary is $PWD/build/statespace (cmake --install build --prefix DIR puts it in DIR/bin)" >&2
echo "run.sh: statespace $*" >&2
exec build/statespace "$@"
