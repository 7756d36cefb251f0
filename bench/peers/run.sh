#!/usr/bin/env bash
# dpq against DuckDB on conflict detection (docs/performance.md "Conflict
# detection against DuckDB"). Run by hand from the repository root:
#
#   bench/peers/run.sh [--rows 50k,1M,10M] [--repeat N] [--build DIR]
#
# For each workload it runs `dpq-measure --measure mi --exact` (whole
# process, timed by /usr/bin/time) and DuckDB on the SQL `dpq-peers sql`
# generates from the same DC file (DuckDB's own load + query time, Node.js
# start-up not counted), fails loudly if the two counts differ, and prints
# the side-by-side table. A tiny semantics check (edge-cases.csv: NULL,
# NaN, spaces, byte-wise string order) runs first.
#
# Not part of the test command or CI: it installs @duckdb/node-api with npm
# into ${DPQ_PEERS_CACHE:-$HOME/.cache/dpq-peers}, outside the tree. Scaled
# tables are made once by dpq-scale into ${DPQ_PERF_DIR:-/tmp/dpq-perf/peers}
# (10M rows: 870 MB; dpq and DuckDB then need about 4 and 5 GB of memory).
set -euo pipefail

rows=50k,1M,10M
# shellcheck source=script_options.sh
source "$(dirname "$0")/script_options.sh"
data_dir=$(cd "$root/../shared/data" && pwd)
cache=${DPQ_PEERS_CACHE:-$HOME/.cache/dpq-peers}
duckdb_version=${DPQ_DUCKDB_NODE_API_VERSION:-1.5.6-r.1}
ninja -C "$build" dpq-measure dpq-scale dpq-peers >/dev/null

# DuckDB: a pinned @duckdb/node-api next to our small Node.js program.
mkdir -p "$cache" "$perf_dir"
if [[ ! -f $cache/node_modules/@duckdb/node-api/package.json ]] ||
   ! grep -q "\"version\": \"$duckdb_version\"" \
       "$cache/node_modules/@duckdb/node-api/package.json"; then
  npm install --prefix "$cache" --no-audit --no-fund --silent \
      "@duckdb/node-api@$duckdb_version" >&2
fi
cp "$here/duckdb_count.mjs" "$cache/duckdb_count.mjs"

results=$perf_dir/results-$(date -u +%Y%m%dT%H%M%SZ).tsv
: >"$results"

# A dpq-scale table of $1 rows, made once.
scaled_table() {
  local file=$perf_dir/tax-$1.csv
  if [[ ! -s $file ]]; then
    echo "generating $file ..." >&2
    "$bin/dpq-scale" --rows "$1" --out "$file.tmp" >&2
    mv "$file.tmp" "$file"
  fi
  echo "$file"
}

# run_workload LABEL DC_LABEL CSV DC_FILE SCHEMA: one line of $results per
# repetition; exits 1 at once if the counts differ.
run_workload() {
  local label=$1 dcs=$2 csv=$3 dc_file=$4 schema=$5
  local sql=$perf_dir/query.sql timing=$perf_dir/time.txt
  "$bin/dpq-peers" sql --data "$csv" --constraints "$dc_file" \
      --schema "$schema" >"$sql"
  cat "$csv" >/dev/null  # both systems start with the file in page cache
  for ((i = 0; i < repeat; i++)); do
    local load dpq_json dpq_count dpq_time dpq_cpu dpq_rss user sys
    local duck duck_count duck_load duck_query duck_cpu duck_rss
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    dpq_json=$(/usr/bin/time -f '%e %U %S %M' -o "$timing" "$bin/dpq-measure" \
        --data "$csv" --constraints "$dc_file" --schema "$schema" \
        --measure mi --exact)
    dpq_count=$(sed -n 's/.*"value":\([0-9]*\).*/\1/p' <<<"$dpq_json")
    read -r dpq_time user sys dpq_rss <"$timing"
    dpq_cpu=$(awk "BEGIN { print $user + $sys }")
    duck=$(/usr/bin/time -f '%e %U %S %M' -o "$timing" \
        node "$cache/duckdb_count.mjs" "$sql")
    read -r _ user sys duck_rss <"$timing"
    duck_cpu=$(awk "BEGIN { print $user + $sys }")
    read -r duck_count duck_load duck_query <<<"$duck"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" \
        "$dcs" "$dpq_count" "$dpq_time" "$dpq_cpu" "$dpq_rss" "$duck_count" \
        "$duck_load" "$duck_query" "$duck_cpu" "$duck_rss" "$load" >>"$results"
    echo "$label, $dcs: dpq $dpq_count pairs in $dpq_time s;" \
         "DuckDB $duck_count in $duck_load + $duck_query s (load $load)" >&2
    if [[ -z $dpq_count || $dpq_count != "$duck_count" ]]; then
      echo "FAIL: dpq and DuckDB disagree on $label, $dcs" \
           "(dpq '$dpq_count', DuckDB '$duck_count'); SQL in $sql" >&2
      "$bin/dpq-peers" table --results "$results" || true
      exit 1
    fi
  done
}

tax=$data_dir/tax
paper="the paper's 9 (inequalities on salary, rate)"
saved_repeat=$repeat
repeat=1
run_workload "edge cases (11 rows)" "6 DCs (NULL, NaN, order)" \
    "$here/edge-cases.csv" "$here/edge-cases.dc" "$here/edge-cases.schema"
repeat=$saved_repeat
for size in ${rows//,/ }; do
  case ${size,,} in
    50k)
      run_workload "tax 50k" "$paper" "$tax/dirty-50k.csv" \
          "$tax/constraints-paper.dc" "$here/tax.schema"
      run_workload "tax 50k" "8 FDs" "$tax/dirty-50k.csv" \
          "$tax/constraints.dc" "$here/tax.schema" ;;
    1m)
      csv=$(scaled_table 1000000)
      run_workload "tax 1M (replicas)" "8 FDs" "$csv" \
          "$tax/constraints.dc" "$here/tax-scaled.schema"
      run_workload "tax 1M (replicas)" "$paper" "$csv" \
          "$tax/constraints-paper.dc" "$here/tax-scaled.schema" ;;
    10m)
      csv=$(scaled_table 10000000)
      run_workload "tax 10M (replicas)" "8 FDs" "$csv" \
          "$tax/constraints.dc" "$here/tax-scaled.schema" ;;
    *) echo "unknown size '$size' (50k, 1M, 10M)" >&2; exit 2 ;;
  esac
done

echo "results: $results" >&2
"$bin/dpq-peers" table --results "$results"
