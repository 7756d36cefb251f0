#!/usr/bin/env bash
# Builds the libFuzzer targets (docs/fuzzing.md) in build-fuzz/ with clang,
# ASan and UBSan, collects their seeds, and runs each target for a bounded
# time. Fails, naming the reproducer, on any crash, broken invariant, leak,
# timeout or out-of-memory.
#   tests/fuzz/run-fuzzers.sh [--seconds N] [--jobs J] [--corpus DIR]
#                             [--no-build] [target...]
#     --seconds N   time per target (default 30)
#     --jobs J      targets run at once (default: the number of cores)
#     --corpus DIR  keep the corpora in DIR/<target> across runs (default
#                   build-fuzz/fuzz-corpus, which a rebuild keeps too)
#     --no-build    use the binaries already in build-fuzz/fuzz
#     target...     default: all (names as in tests/fuzz/CMakeLists.txt)
# Long run: tests/fuzz/run-fuzzers.sh --seconds 3600 --corpus ~/dpq-corpus
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)

seconds=30
jobs=$(nproc)
corpus_root="$root/build-fuzz/fuzz-corpus"
build=1
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --corpus) corpus_root="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "run-fuzzers: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
all=(csv_reader dc_native dc_fd dc_benchmark manifest config edge_list
     cube_dimension release_request http_request)
if [[ ${#targets[@]} -eq 0 ]]; then targets=("${all[@]}"); fi

# Longest input per target: a few KB reach every branch of these parsers;
# longer inputs only slow the runs down.
max_len() {
  case "$1" in
    csv_reader|edge_list|manifest) echo 8192 ;;
    release_request|cube_dimension) echo 1024 ;;
    *) echo 2048 ;;
  esac
}

build_dir="$root/build-fuzz"
if [[ $build -eq 1 ]]; then
  launcher=()
  if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
              -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # -O1 keeps asserts (no NDEBUG) and fuzzes fast enough; line tables are
  # all a crash report needs (file:line), and much cheaper to build than -g.
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DDPQ_FUZZ=ON -DDPQ_BUILD_TESTS=OFF "${launcher[@]}" > /dev/null
  ninja -C "$build_dir" -j "$(nproc)" "${targets[@]/#/fuzz_}"
fi
built=$(date +%s)
echo "run-fuzzers: build took $((built - start)) s"

seeds="$build_dir/fuzz-seeds"
tests/fuzz/collect-seeds.py "$seeds" > /dev/null
logs="$build_dir/fuzz-logs"
artifacts="$build_dir/fuzz-artifacts"
mkdir -p "$logs" "$artifacts"

symbolizer=$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer || true)
export ASAN_OPTIONS="detect_leaks=1:symbolize=1${symbolizer:+:external_symbolizer_path=$symbolizer}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

run_one() {
  local target=$1
  local corpus="$corpus_root/$target"
  mkdir -p "$corpus" "$artifacts/$target"
  # New inputs go to the first directory (the corpus); the seeds and the
  # regression inputs are read only.
  local dirs=("$corpus" "$seeds/$target")
  if [[ -d "$root/tests/fuzz/regressions/$target" ]]; then
    dirs+=("$root/tests/fuzz/regressions/$target")
  fi
  local code=0
  "$build_dir/fuzz/fuzz_$target" "${dirs[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len "$target")" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target/" > "$logs/$target.log" 2>&1 ||
    code=$?
  echo "$code" > "$logs/$target.status"
}

running=0
for target in "${targets[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
  echo "run-fuzzers: $target for ${seconds} s"
  rm -f "$logs/$target.status"
  run_one "$target" &
  running=$((running + 1))
done
wait
declare -A status
for target in "${targets[@]}"; do
  status[$target]=$(cat "$logs/$target.status" 2>/dev/null || echo 1)
done

stat() {  # stat NAME LOG: a -print_final_stats value
  sed -n "s/^stat::$1: *//p" "$2" | tail -1
}
failed=0
printf '%-16s %10s %10s %8s %10s %8s\n' target execs execs/s corpus corpus_kb result
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  corpus="$corpus_root/$target"
  files=$(find "$corpus" -type f | wc -l)
  kb=$(find "$corpus" -type f -printf '%s\n' | awk '{s += $1} END {printf "%d", s / 1024}')
  result=ok
  if [[ ${status[$target]} -ne 0 ]]; then result=FAILED; failed=1; fi
  printf '%-16s %10s %10s %8s %10s %8s\n' "$target" \
    "$(stat number_of_executed_units "$log")" \
    "$(stat average_exec_per_sec "$log")" "$files" "$kb" "$result"
done
for target in "${targets[@]}"; do
  [[ ${status[$target]} -eq 0 ]] && continue
  echo
  echo "== $target failed (exit ${status[$target]}); log $logs/$target.log"
  grep -E "ERROR: |fuzz invariant violated|SUMMARY|Test unit written" \
    "$logs/$target.log" | head -20 || true
  for repro in "$artifacts/$target"/*; do
    [[ -e "$repro" ]] || continue
    echo "reproducer: $repro"
    echo "  replay:   $build_dir/fuzz/fuzz_$target $repro"
  done
done
echo "run-fuzzers: load average $(cut -d' ' -f1-3 /proc/loadavg)," \
     "total $(( $(date +%s) - start )) s (build $((built - start)) s)"
exit $failed
