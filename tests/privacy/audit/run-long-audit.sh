#!/usr/bin/env bash
# The long tier of the end-to-end DP audit (docs/privacy.md 8): every release
# path on its worst-case neighbouring pairs with 40,000 releases per input (the
# quick tier in ctest uses 1,000-3,000), certified at alpha = 1e-4 over all
# cases. Prints the Markdown table docs/privacy.md shows; exits 1 if any
# certified loss exceeds its charge. About 5 minutes on 2 cores.
#   tests/privacy/audit/run-long-audit.sh [--samples N] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/../../.."
cmake -S . -B build-audit -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build-audit -j "$(nproc)" --target dpq-privacy-audit
exec build-audit/tests/privacy/audit/dpq-privacy-audit --samples 40000 "$@"
