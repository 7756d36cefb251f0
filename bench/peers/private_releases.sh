#!/usr/bin/env bash
# The private releases (every releasable measure, default methods) against
# the exact count, on a dpq-scale tax table with the 8 FDs
# (docs/performance.md "Conflict detection against DuckDB"). Run by hand
# from the repository root:
#
#   bench/peers/private_releases.sh [--rows 10000000] [--repeat N]
#                                         [--build DIR]
#
# Each line is one whole `dpq-measure` process (CSV load, graph, release),
# timed by /usr/bin/time: --exact for I_MI, then --epsilon 1 without
# --method for mi, p and r (gem, gem, cover_bound today), N = 2 x rows,
# seed 1. I_D and I_MC are not releasable.
set -euo pipefail

rows=10000000
# shellcheck source=script_options.sh
source "$(dirname "$0")/script_options.sh"
ninja -C "$build" dpq-measure dpq-scale >/dev/null

mkdir -p "$perf_dir"
csv=$perf_dir/tax-$rows.csv
if [[ ! -s $csv ]]; then
  "$bin/dpq-scale" --rows "$rows" --out "$csv.tmp" >&2
  mv "$csv.tmp" "$csv"
fi
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT
cat "$csv" >/dev/null

echo "| run | wall | x exact (wall; CPU) | CPU (user+sys) | peak RSS | value | method | graph_seconds | load avg |"
echo "|---|---|---|---|---|---|---|---|---|"
for ((i = 0; i < repeat; i++)); do
  exact_wall=
  exact_cpu=
  for measure in exact mi p r; do
    args=(--measure "$measure" --epsilon 1 --public-max-rows $((2 * rows))
          --seed 1)
    [[ $measure == exact ]] && args=(--measure mi --exact)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    json=$(/usr/bin/time -f '%e %U %S %M' -o "$timing" "$bin/dpq-measure" \
        --data "$csv" --constraints "$tax/constraints.dc" \
        --schema "$here/tax-scaled.schema" "${args[@]}")
    read -r wall user sys rss <"$timing"
    cpu=$(awk "BEGIN { print $user + $sys }")
    [[ -z $exact_wall ]] && exact_wall=$wall && exact_cpu=$cpu
    field() { sed -n "s/.*\"$1\":\"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p" <<<"$json"; }
    printf '| %s | %s s | %s | %s s | %d MB | %s | %s | %s | %s |\n' \
        "${measure/#exact/mi --exact}" "$wall" \
        "$(awk "BEGIN { printf \"%.2fx; %.2fx\", $wall / $exact_wall, \
            $cpu / ($exact_cpu > 0 ? $exact_cpu : 0.01) }")" \
        "$cpu" $((rss * 1024 / 1000000)) \
        "$(field value)" "$(field method)" "$(field graph_seconds)" "$load"
  done
done
