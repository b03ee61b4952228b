#!/usr/bin/env bash
# The main job: installs what is missing, builds Release, and analyses every seed
# puzzle into reports-out/, printing a summary table. Arguments replace the default
# `analyze --all --out reports-out`, e.g. scripts/run.sh solve nooff "N O L L / F O F _".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
if [ $# -eq 0 ]; then
  set -- analyze --all --out reports-out
fi
exec build/statespace "$@"
