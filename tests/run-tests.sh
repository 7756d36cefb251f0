#!/usr/bin/env bash
# Builds dpq and runs the whole test suite (unit, tool, statistical).
#   tests/run-tests.sh              Release-with-debug-info build in build/
#                                   (-O2 -g1)
#   tests/run-tests.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
#                                   (skips label `scale`: exact arithmetic at
#                                   10^5-10^6 nodes, and `statistical-privacy`:
#                                   the DP audit's thousands of releases per
#                                   case, 40x slower there, about 500 s of
#                                   CI's test time; both run in the plain
#                                   build, and the audit's release paths run
#                                   under the sanitizers in the integration
#                                   tests)
# Extra arguments after the mode go to ctest (e.g. -LE statistical).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debug information is -g1 (line tables and functions: what a stack trace,
# a sanitizer report and perf need; no local variables): objects 5x smaller
# and about 25% less compile time than -g, which CI's two cores notice.
# For a debugger, configure a build of your own with -g.
build_dir=build
cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
            "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
if [[ "${1:-}" == "--sanitize" ]]; then
  shift
  build_dir=build-asan
  # The benchmark programs stay out: no test runs them (bench/CMakeLists.txt).
  cmake_args=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1"
              -DENABLE_SANITIZERS=ON -DDPQ_BENCH_PROGRAMS=OFF)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  set -- -LE "scale|statistical-privacy" "$@"
fi

jobs=$(nproc)
cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}" > /dev/null
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
