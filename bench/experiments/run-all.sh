#!/usr/bin/env bash
# Full reproduction of Section 6 of "Computing Inconsistency Measures Under
# Differential Privacy" with dpq's core (docs/experiments.md):
# Figures 3, 4, 5, 6 (from the epsilon x method grid) and 7, 10 runs each,
# the paper's methods next to dpq's defaults (gem, cover_bound, exact; see
# FigureMethods in experiment_runner.h).
#
#   bench/experiments/run-all.sh [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR defaults to build-release (configured if missing), OUT_DIR to
# docs/experiments. Writes OUT_DIR/results.csv, figN.gp and figN.png.
# Extra dpq-experiments flags can be passed in DPQ_EXPERIMENT_FLAGS.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-release}
out=${2:-$root/docs/experiments}
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" --target dpq-experiments -j 2
mkdir -p "$out"
start=$(date +%s)
# shellcheck disable=SC2086
"$build/bench/experiments/dpq-experiments" --out-dir "$out" \
  --figures fig3,fig4,fig5,grid,fig7 --runs 10 --seed 1 --checkpoints 5 \
  ${DPQ_EXPERIMENT_FLAGS:-}
echo "run-all.sh: done in $(( $(date +%s) - start )) s; results in $out"
