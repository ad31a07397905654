#!/usr/bin/env bash
# Capacity per CPU: P server processes, each in a CPU cgroup of QUOTA cores, M matches.
#   bench/scripts/scaleout.sh P QUOTA M [S] [D]        e.g. bench/scripts/scaleout.sh 2 0.5 100 5 20
# What it prints and cleans up: bench/scripts/scaleout.py's docstring.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec "${PY:-.venv/bin/python}" bench/scripts/scaleout.py "$@"
