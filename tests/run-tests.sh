#!/usr/bin/env bash
# Builds dpq and runs the whole test suite (unit, tool, statistical).
#   tests/run-tests.sh              Release-with-debug-info build in build/
#   tests/run-tests.sh --sanitize   AddressSanitizer + UBSan build in build-asan/
#                                   (skips label `scale`: exact arithmetic at
#                                   10^5-10^6 nodes, run by the plain build)
# Extra arguments after the mode go to ctest (e.g. -LE statistical).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=build
cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [[ "${1:-}" == "--sanitize" ]]; then
  shift
  build_dir=build-asan
  cmake_args=(-DCMAKE_BUILD_TYPE=Debug -DENABLE_SANITIZERS=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  set -- -LE scale "$@"
fi

jobs=$(nproc)
cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}" > /dev/null
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" "$@"
