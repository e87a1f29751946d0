#!/usr/bin/env bash
# The perf gate (docs/performance.md, "The perf gate"): callgrind's instructions per query of
# the answer path and the bench zone's counted bytes against bench/budgets.json. Exit 1 with
# both numbers when a figure exceeds its budget (or fell far enough below it that the budget
# must come down in the same commit).
# Usage: scripts/perf-gate.sh [BUILD_DIR] [--update]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
if [ "$#" -gt 0 ] && [ "${1#--}" = "$1" ]; then
  build="$1"
  shift
fi
exec python3 "$root/bench/perf-gate" --build "$build" "$@"
