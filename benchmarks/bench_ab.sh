#!/usr/bin/env bash
# `doublesix bench` of two commits, run alternately on this machine, one JSON line per run.
#
# Each commit's src/ is unpacked to a temporary folder and imported from there
# with this checkout's .venv, so both measure the same interpreter and
# libraries. Runs alternate (A, B, A, B …) so a change in the machine's load
# falls on both. benchmarks/bench_ab.py prints the medians and the ratio.
# Usage: benchmarks/bench_ab.sh A B PRESET [PAIRS] > benchmarks/bench/NAME.jsonl
set -euo pipefail
cd "$(dirname "$0")/.."
A=$1 B=$2 PRESET=$3 PAIRS=${4:-5}
PYTHON=${PYTHON:-.venv/bin/python}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for rev in "$A" "$B"; do
  mkdir -p "$TMP/$rev"
  git archive "$rev" src | tar -x -C "$TMP/$rev"
done
for _ in $(seq "$PAIRS"); do
  for rev in "$A" "$B"; do
    PYTHONPATH="$TMP/$rev/src" nice -n 10 "$PYTHON" -c '
import json, sys
from doublesix.cli.bench import measure
from doublesix.rules.ruleset import preset
figures = measure(preset(sys.argv[2]), 4.0, 4, 1)
print(json.dumps({"rev": sys.argv[1], **figures}), flush=True)
' "$rev" "$PRESET"
  done
done
