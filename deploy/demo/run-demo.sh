#!/usr/bin/env bash
# The README main job: builds dpq (Release) and runs dpq-measure on the demo
# data, the HoloClean hospital benchmark (1,000 rows with real typos, 15 DCs):
# the exact measures a data owner sees, then the DP answers a buyer would get.
set -euo pipefail
cd "$(dirname "$0")/../.."

cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPQ_BUILD_TESTS=OFF > /dev/null
cmake --build build-release -j "$(nproc)" --target dpq-measure

tool=build-release/bin/dpq-measure
data=(--data deploy/demo/hospital.csv --constraints deploy/demo/hospital.dc)

echo "== Exact measures (owner only; never released to buyers)"
"$tool" "${data[@]}" --measure mi --exact --stats
for m in p r d; do
  "$tool" "${data[@]}" --measure "$m" --exact
done

echo "== I_MC is refused on a graph this large, with the reason:"
"$tool" "${data[@]}" --measure mc --exact || true

echo "== DP answers at epsilon = 1, public_max_rows N = 2000"
for m in mi p r; do
  "$tool" "${data[@]}" --measure "$m" --epsilon 1 --public-max-rows 2000
done
for method in hierarchical basic baseline; do
  "$tool" "${data[@]}" --measure mi --epsilon 1 --public-max-rows 2000 --method "$method"
done

echo "== I_D under DP is refused, with the reason:"
"$tool" "${data[@]}" --measure d --epsilon 1 --public-max-rows 2000 || true
