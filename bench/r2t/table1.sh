#!/usr/bin/env bash
# Reproduces Table 1 of the inconsistency-measures paper end to end: the
# relative error of the R2T baseline and of dpq's private I_MI at epsilon 1
# on Adult, Flight and Stock-like data (docs/r2t.md), with dpq's I_MI by the
# paper's method (optimized) and by dpq's default (gem).
#
#   bench/r2t/table1.sh            # build, generate, run, print
#
# Environment (defaults in brackets): BUILD [build-r2t], OUT [$BUILD/table1],
# RUNS [10], EPSILON [1], SEED [1], ROWS [10000] (Adult subset and Stock-like
# size, as in the paper's 10k-row experiments), NOISE [conoise] (or rnoise),
# ALPHA [0.01] (rnoise only), ITERATIONS [200] (conoise only), BASE [2]
# (5.5 = the R2T authors' code), THRESHOLDS [cover] (or authors: L =
# floor(log_base N) as in the R2T/DPMeasures code), SOLVER [flow] (or glpk),
# THREADS [2], SPARSE_ITERATIONS [20] (CONoise iterations of the extra
# "Stock-like sparse" column: the paper's Stock has very few violations).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-r2t}
DATA=${DATA:-$ROOT/../shared/data}
OUT=${OUT:-$BUILD/table1}
RUNS=${RUNS:-10}
EPSILON=${EPSILON:-1}
SEED=${SEED:-1}
ROWS=${ROWS:-10000}
NOISE=${NOISE:-conoise}
ALPHA=${ALPHA:-0.01}
ITERATIONS=${ITERATIONS:-200}
BASE=${BASE:-2}
THRESHOLDS=${THRESHOLDS:-cover}
SPARSE_ITERATIONS=${SPARSE_ITERATIONS:-20}
SOLVER=${SOLVER:-flow}
THREADS=${THREADS:-2}

if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$BUILD" --target dpq-r2t dpq-noise dpq-stock -j 2 >/dev/null
# dpq-r2t lands in bin/; the generators may live next to their sources.
tool() {
  local t
  for t in "$BUILD/bin/$1" "$BUILD/bench/generators/$1"; do
    [[ -x "$t" ]] && { echo "$t"; return; }
  done
  echo "table1.sh: $1 not built" >&2
  exit 1
}
R2T=$(tool dpq-r2t)
NOISE_TOOL=$(tool dpq-noise)
STOCK_TOOL=$(tool dpq-stock)
mkdir -p "$OUT"

noise_flags() {
  if [[ "$NOISE" == rnoise ]]; then
    echo "--method rnoise --alpha $ALPHA"
  else
    echo "--method conoise --iterations $ITERATIONS"
  fi
}

# Adult: the first ROWS rows (consistent as shipped), then injected noise.
head -n $((ROWS + 1)) "$DATA/adult/adult.csv" >"$OUT/adult-clean.csv"
cp "$DATA/adult/constraints.dc" "$OUT/adult.dc"
# shellcheck disable=SC2046
"$NOISE_TOOL" --input "$OUT/adult-clean.csv" --dcs "$OUT/adult.dc" \
  $(noise_flags) --seed "$SEED" --output "$OUT/adult.csv" >/dev/null

# Flight: the real violations of the shipped dirty file.
cp "$DATA/flights/dirty.csv" "$OUT/flight.csv"
cp "$DATA/flights/constraints.dc" "$OUT/flight.dc"

# Stock-like: synthetic quotes (the real Stock file is not in shared/data),
# consistent by construction, then injected noise.
"$STOCK_TOOL" --rows "$ROWS" --seed "$SEED" --output "$OUT/stock-clean.csv" \
  --dcs-output "$OUT/stock.dc" >/dev/null
# shellcheck disable=SC2046
"$NOISE_TOOL" --input "$OUT/stock-clean.csv" --dcs "$OUT/stock.dc" \
  $(noise_flags) --seed "$SEED" --output "$OUT/stock.csv" >/dev/null

# Stock-like sparse: the same clean quotes with only a few CONoise steps.
"$NOISE_TOOL" --input "$OUT/stock-clean.csv" --dcs "$OUT/stock.dc" \
  --method conoise --iterations "$SPARSE_ITERATIONS" --seed "$SEED" \
  --output "$OUT/stock-sparse.csv" >/dev/null
cp "$OUT/stock.dc" "$OUT/stock-sparse.dc"

for name in adult flight stock stock-sparse; do
  echo "== $name" >&2
  "$R2T" --data "$OUT/$name.csv" --dcs "$OUT/$name.dc" \
    --epsilon "$EPSILON" --runs "$RUNS" --seed "$SEED" --base "$BASE" \
    --thresholds "$THRESHOLDS" --method optimized,gem \
    --solver "$SOLVER" --threads "$THREADS" --label "$name" \
    --csv "$OUT/$name-result.csv" | tee "$OUT/$name-report.txt" >&2
done

# Columns of the result CSV: 6 true_imi, 8 r2t_rel_error, 10 dpq_rel_error
# (optimized), 11 r2t_lp_seconds, 12 dpq_seconds (optimized), 14
# dpq_gem_rel_error, 15 dpq_gem_seconds; rows "mean" and "std".
cell() {  # file column
  awk -F, -v c="$2" '$2 == "mean" { m = $c } $2 == "std" { s = $c }
    END { printf "%.2f ± %.2f", m, s }' "$1"
}
field() {  # file column format
  awk -F, -v c="$2" -v f="$3" '$2 == "mean" { printf f, $c }' "$1"
}
echo
echo "Table 1 (epsilon $EPSILON, $RUNS runs, noise $NOISE, R2T base $BASE," \
  "thresholds $THRESHOLDS, solver $SOLVER)"
echo
sets="adult flight stock stock-sparse"
row() {  # title, then a command printing one cell for a result file
  local title=$1 line
  shift
  line="| $title |"
  for name in $sets; do line+=" $("$@" "$OUT/$name-result.csv") |"; done
  echo "$line"
}
r2t_err() { cell "$1" 8; }
dpq_err() { cell "$1" 10; }
gem_err() { cell "$1" 14; }
truth() { field "$1" 6 %d; }
lp_time() { field "$1" 11 %.4f; }
dpq_time() { field "$1" 12 %.5f; }
gem_time() { field "$1" 15 %.5f; }
echo "| DP algorithm | Adult | Flight | Stock-like | Stock-like sparse |"
echo "|---|---|---|---|---|"
row "R2T" r2t_err
row "dpq (optimized, the paper's)" dpq_err
row "dpq (gem, dpq default)" gem_err
row "true I_MI" truth
row "R2T LPs (s, once)" lp_time
row "dpq optimized (s, per run)" dpq_time
row "dpq gem (s, per run)" gem_time
