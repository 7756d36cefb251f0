#!/usr/bin/env bash
# The README main job: builds dpq (Release), starts dpq-server on the demo
# data with TLS (a throw-away dev CA), registers a table (with cube
# dimensions and a public exact cuboid) and a graph, grants a buyer budgets,
# runs her session with the dpq client (datasets, a measure, a report, DP
# cuboids, a DP decision tree, DP influential nodes, her budgets, an
# over-budget refusal) and stops the server with SIGTERM.
# Exits 0 only if every step did what it should. Everything it creates lives
# in a temporary directory that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { printf '\n== %s\n' "$*"; }
fail() { echo "run-demo: FAILED: $*" >&2; exit 1; }

step "Build (Release) into build-release/: dpq-server, dpq, dpq-measure"
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPQ_BUILD_TESTS=OFF > /dev/null
cmake --build build-release -j "$(nproc)" --target dpq-server dpq dpq-measure
bin=build-release/bin

work=$(mktemp -d "${TMPDIR:-/tmp}/dpq-demo.XXXXXX")
server_pid=""
cleanup() {
  local rc=$?
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -TERM "$server_pid" 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
  fi
  if [[ $rc -ne 0 && -s "$work/server.log" ]]; then
    echo "run-demo: last lines of the server log:" >&2
    tail -n 20 "$work/server.log" >&2
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "Dev certificates (a throw-away CA; server cert for localhost, 127.0.0.1)"
./deploy/make-certs.sh "$work/certs"

step "Start dpq-server (TLS) with a fresh data directory"
"$bin/dpq-server" --data-dir "$work/data" --listen 127.0.0.1:0 \
  --tls-cert "$work/certs/server.pem" --tls-key "$work/certs/server.key" \
  2> "$work/server.log" &
server_pid=$!
address=""
for _ in $(seq 1 300); do
  address=$(sed -n 's/^dpq-server listening on \([^ ]*\)$/\1/p' "$work/server.log" | head -n 1)
  [[ -n "$address" ]] && break
  kill -0 "$server_pid" 2> /dev/null || fail "dpq-server exited during start-up"
  sleep 0.1
done
[[ -n "$address" ]] || fail "dpq-server did not report its address within 30 s"
grep '^dpq-server' "$work/server.log"

# Every client call below: this server, verified against the dev CA.
dpq() { "$bin/dpq" --server "$address" --ca "$work/certs/ca.pem" "$@"; }

step "dpq health"
healthy=0
for _ in $(seq 1 50); do
  if dpq health; then healthy=1; break; fi
  sleep 0.2
done
[[ $healthy -eq 1 ]] || fail "dpq health never reported SERVING"

step "Admin: the token dpq-server created on its first start"
[[ -s "$work/data/admin.token" ]] || fail "no admin token in $work/data/admin.token"
ls -l "$work/data/admin.token"
DPQ_TOKEN=$(tr -d '[:space:]' < "$work/data/admin.token")
export DPQ_TOKEN

step "Admin: register the hospital dataset (1,000 rows, 15 DCs, declared column types; public N = 2000)"
dpq admin register hospital --data deploy/demo/hospital.csv \
  --constraints deploy/demo/hospital.dc --schema deploy/demo/hospital.schema \
  --public-max-rows 2000 \
  --description "HoloClean hospital benchmark: US hospital quality measures with real typos" \
  --cube-dimension 'EmergencyService=yes|no' \
  --cube-dimension 'Condition=heart attack|heart failure|pneumonia|surgical infection prevention|children s asthma care' \
  --cube-dimension 'HospitalOwner=government - federal|government - hospital district or authority|government - local|government - state|proprietary|voluntary non-profit - church|voluntary non-profit - other|voluntary non-profit - private' \
  --public-cuboid EmergencyService

step "Admin: register the network graph (edge list over 400 declared nodes; privacy unit: one edge)"
dpq admin register network --kind graph --data deploy/demo/network.csv \
  --nodes deploy/demo/network.nodes \
  --description "Synthetic social network: who follows whom"

step "Admin: create the buyer alice (her token is shown once); grant her epsilon 9 on hospital, 1 on network"
buyer_json=$(dpq --json admin create-buyer alice)
alice_token=$(printf '%s\n' "$buyer_json" |
  sed -n 's/.*"token" *: *"\(dpq_[0-9a-f]\{64\}\)".*/\1/p')
[[ -n "$alice_token" ]] || fail "no token in the create-buyer output: $buyer_json"
printf '%s\n' "$buyer_json" | sed 's/dpq_[0-9a-f]\{60\}/dpq_...redacted.../'
dpq admin grant alice hospital 9
dpq admin grant alice network 1

step "Buyer alice: what is for sale"
export DPQ_TOKEN="$alice_token"
dpq datasets
dpq describe hospital

step "Buyer alice: I_MI (conflicting pairs) at epsilon 1 (charged 2: the public exact cuboid makes every non-cube release cost k_Q = 2 times its epsilon)"
measure_text=$(dpq measure hospital --measure mi --epsilon 1)
printf '%s\n' "$measure_text"

step "Buyer alice: quality report (I_MI, I_P, I_R) for epsilon 0.9 in total (charged 1.8)"
report_text=$(dpq report hospital --epsilon 0.9)
printf '%s\n' "$report_text"

step "Owner's check (never shown to buyers): the exact values from dpq-measure --exact next to alice's DP answers"
# The owner runs dpq-measure on her own copy of the rows. gem and
# cover_bound estimate lower bounds (they may undercount, never
# overcount); the +- is the 95% bound of the noise alone.
exact_of() {
  "$bin/dpq-measure" --data deploy/demo/hospital.csv \
    --constraints deploy/demo/hospital.dc --schema deploy/demo/hospital.schema \
    --measure "$1" --exact | sed -n 's/.*"value":\([0-9]*\).*/\1/p'
}
report_value() {  # the VALUE column of the report row of measure $1
  printf '%s\n' "$report_text" | sed -n -E "s/^$1 \([^)]*\) +(-?[0-9]+) .*/\1/p"
}
measure_value=$(printf '%s\n' "$measure_text" | sed -n -E 's/^I_MI \([^)]*\) ~ (-?[0-9]+) .*/\1/p')
printf '%-6s %14s %18s %24s\n' MEASURE "EXACT (owner)" "alice, eps 1" "alice's report, eps 0.3"
for m in MI P R; do
  exact=$(exact_of "$(printf '%s' "$m" | tr 'A-Z' 'a-z')")
  [[ -n "$exact" ]] || fail "dpq-measure --exact printed no value for $m"
  single="-"; [[ $m == MI ]] && single=$measure_value
  printf '%-6s %14s %18s %24s\n' "I_$m" "$exact" "$single" "$(report_value "I_$m")"
done

step "Buyer alice: DP count marginals, consistent with the public exact EmergencyService counts, for epsilon 0.5 (charged 0.5)"
dpq cuboids hospital --dims Condition,EmergencyService --dims HospitalOwner --epsilon 0.5

step "Buyer alice: a DP decision tree predicting EmergencyService=yes (balanced accuracy, the default; epsilon 1.5, the least that buys a useful tree at N = 2000, plus 0.5 for its DP accuracy; charged 4)"
dpq tree hospital --label EmergencyService --positive yes \
  --features HospitalOwner,Condition --epsilon 1.5 --accuracy-epsilon 0.5

step "Buyer alice: the 5 most influential members of the network (degree + 100 x egocentric density, local sensitivity), epsilon 1"
dpq top-nodes network --k 5 --approach aggregation --weights 1,100 \
  --sensitivity local --epsilon 1

step "Buyer alice: her budgets (hospital: 9 granted, 8.3 spent; network: 1 granted, 1 spent)"
dpq budget

step "Buyer alice: I_R at epsilon 1 (charged 2) is over budget and must be refused"
set +e
refusal=$(dpq measure hospital --measure r --epsilon 1 2>&1)
rc=$?
set -e
printf '%s\n' "$refusal"
[[ $rc -eq 1 ]] || fail "over-budget request: expected exit status 1, got $rc"
[[ "$refusal" == *RESOURCE_EXHAUSTED* ]] || fail "over-budget request was not refused with RESOURCE_EXHAUSTED"
echo "-> refused with RESOURCE_EXHAUSTED, as expected: no noise was drawn, nothing was charged."
dpq budget hospital

step "Stop dpq-server with SIGTERM (drains in-flight requests)"
kill -TERM "$server_pid"
set +e
wait "$server_pid"
server_rc=$?
set -e
server_pid=""
[[ $server_rc -eq 0 ]] || fail "dpq-server exited with status $server_rc after SIGTERM"
echo "dpq-server stopped cleanly (exit status 0)."

step "Server log: one line per request (no data values)"
grep -v '^dpq-server' "$work/server.log" || true

step "Demo complete"
