#!/usr/bin/env bash
# Server registration of a tax-like table until its conflict graph is ready,
# against `dpq-measure --measure mi --exact` on the same files
# (docs/performance.md "Conflict detection against DuckDB"). Run by hand
# from the repository root:
#
#   bench/peers/server_registration.sh [--rows 1000000] [--repeat N]
#                                            [--build DIR]
#
# RegisterDataset returns once the graph is built (DatasetStats.graph_ready
# is true in its response), so the time of `dpq admin register` from process
# start to its printed answer is "registration to graph ready". It is timed
# twice: streaming the CSV to the server (the default) and with
# `--server-path` (the server reads the file itself, no upload). The server
# runs plaintext on loopback with its data directory in a temporary folder.
set -euo pipefail

rows=1000000
# shellcheck source=script_options.sh
source "$(dirname "$0")/script_options.sh"
ninja -C "$build" dpq-measure dpq-scale dpq-server dpq >/dev/null

mkdir -p "$perf_dir"
csv=$perf_dir/tax-$rows.csv
if [[ ! -s $csv ]]; then
  "$bin/dpq-scale" --rows "$rows" --out "$csv.tmp" >&2
  mv "$csv.tmp" "$csv"
fi
dcs=$tax/constraints.dc
schema=$here/tax-scaled.schema
max_rows=$((2 * rows))

work=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin/dpq-server" --data-dir "$work/data" --listen 127.0.0.1:0 --insecure \
    --import-dir "$perf_dir" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q 'listening on' "$work/server.log" && break
  sleep 0.1
done
address=$(sed -n 's/.*listening on \([^ ]*\).*/\1/p' "$work/server.log" | head -1)
[[ -n $address ]] || { cat "$work/server.log" >&2; exit 1; }
export DPQ_TOKEN
DPQ_TOKEN=$(cat "$work/data/admin.token")

# timed LABEL COMMAND...: prints "LABEL<TAB>wall<TAB>cpu<TAB>rss_kb<TAB>stdout".
timed() {
  local label=$1 out
  shift
  out=$(/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@")
  out=${out//$'\n'/ }
  local wall user sys rss
  read -r wall user sys rss <"$work/time"
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$wall" \
      "$(awk "BEGIN { print $user + $sys }")" "$rss" "$out"
}

cat "$csv" >/dev/null
# user + sys seconds the server has used so far.
ticks=$(getconf CLK_TCK)
server_cpu() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$server_pid/stat"; }

echo "| run | wall | CPU (user+sys; register: client / server) | peak RSS (client) | result | load avg |"
echo "|---|---|---|---|---|---|"
row() {  # the line of `timed` plus the load average taken before it
  local load=$1 label wall cpu rss out
  IFS=$'\t' read -r label wall cpu rss out
  printf '| %s | %s s | %s s | %d MB | %s | %s |\n' "$label" "$wall" "$cpu" \
      $((rss * 1024 / 1000000)) "$out" "$load"
}
for ((i = 0; i < repeat; i++)); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  timed "dpq-measure --exact (mi)" "$bin/dpq-measure" --data "$csv" \
      --constraints "$dcs" --schema "$schema" --measure mi --exact |
      row "$load"
  for mode in upload server-path; do
    id=tax-$mode-$i
    source=(--data "$csv")
    [[ $mode == server-path ]] && source=(--server-path "$csv")
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    before=$(server_cpu)
    line=$(timed "register, $mode (graph ready on return)" \
        "$bin/dpq" --server "$address" --insecure admin register "$id" \
        "${source[@]}" --constraints "$dcs" --schema "$schema" \
        --public-max-rows "$max_rows")
    server=$(awk "BEGIN { print $(server_cpu) - $before }")
    # The CPU column gets the server's share after the client's.
    awk -F'\t' -v s="$server" 'BEGIN { OFS = "\t" } { $3 = $3 " / " s; print }' \
        <<<"$line" | row "$load"
    "$bin/dpq" --server "$address" --insecure admin delete "$id" >/dev/null
  done
done
echo
echo "Server peak RSS over all registrations: $(
  awk '/VmHWM/ { printf "%d MB", $2 * 1024 / 1000000 }' /proc/$server_pid/status)"
