#!/usr/bin/env bash
# Installs every Debian 12 package dpq needs to build and test. Idempotent:
# packages already present are left alone and apt is not touched at all when
# nothing is missing. Used by the README, CI (.ci/run) and the Dockerfile.
#   deploy/install-deps.sh            build + test dependencies
#   deploy/install-deps.sh --runtime  only the shared libraries dpq-* link
#   deploy/install-deps.sh --fuzz     build + test dependencies and the
#                                     fuzzing toolchain (tests/fuzz)
#   deploy/install-deps.sh --style    clang-format alone, for the style
#                                     check (.ci/check-format)
#   deploy/install-deps.sh --no-browser
#                                     build + test dependencies without the
#                                     browser the console's tests drive
set -euo pipefail

BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config openssl
  libabsl-dev libssl-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libcli11-dev  # header-only: the command line of dpq (client/)
  libsqlite3-dev libpq-dev
  libcivetweb-dev  # the metrics listener's HTTP server (server/metrics)
  # The HTTP/JSON listener and web console (server/http, docs/http.md):
  # libmicrohttpd with GnuTLS (its -dev package brings libgnutls28-dev).
  libmicrohttpd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libglpk-dev gnuplot-nox  # GLPK: the I_R clique LP (core/measures)
  libgmp-dev  # GMP: the exact certificate of that LP's optimum
  # The PostgreSQL server, for tests only: they start throw-away clusters
  # (tests/testing/postgres_cluster.h); dpq itself needs only libpq5.
  postgresql
  # nginx with the grpc module, for tests only: the deployment tests put it
  # in front of two replicas (grpc_pass), as deploy/compose.yaml does.
  nginx-light
  # A YAML parser, for tests only: the deployment manifests' checks
  # (tests/integration/deploy_scripts_test.cc).
  python3-yaml
  # Python gRPC for buyers: the SDK client/python/dpq_client
  # (docs/clients.md) and client/python/tools/dpq_reflect.py (a
  # reflection-driven client, docs/reflection.md), and their tests; both
  # run under Debian's /usr/bin/python3. The SDK's modules are generated
  # by protoc and grpc_python_plugin above, not by python3-grpc-tools
  # (whose protoc 3.5 rejects proto3 `optional`).
  python3-grpcio python3-protobuf
  # The SDK as an installed package: its wheel is built offline with
  # Debian's pip/setuptools/wheel and installed into a venv
  # (tests/integration/python_wheel_test.sh); pandas and matplotlib for
  # to_pandas() and the plotting example in docs/clients.md.
  python3-pip python3-venv python3-setuptools python3-wheel
  python3-pandas python3-matplotlib
  # For tests only: curl runs docs/http.md's examples.
  curl
)
# For tests only: Debian's Chromium, its ChromeDriver and Selenium drive
# the web console in a real browser (tests/browser, label
# integration-browser). Left out by --no-browser (the image's build stage,
# whose tests skip that label).
BROWSER_PACKAGES=(chromium chromium-driver python3-selenium)
# libFuzzer with clang (docs/fuzzing.md): the compiler, its runtime
# libraries (libFuzzer, ASan, UBSan) and llvm-symbolizer for the stacks;
# python3 collects the seed corpora.
FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev llvm-14 python3)
# Debian's clang-format 14: the style check every CI run starts with.
STYLE_PACKAGES=(clang-format)
RUNTIME_PACKAGES=(
  libabsl20220623 libssl3 libgrpc++1.51 libprotobuf32 libsqlite3-0 libpq5
  libglpk40 libgmp10 libgmpxx4ldbl libcivetweb1 libmicrohttpd12
  ca-certificates
)

packages=("${BUILD_PACKAGES[@]}" "${BROWSER_PACKAGES[@]}")
if [[ "${1:-}" == "--no-browser" ]]; then
  packages=("${BUILD_PACKAGES[@]}")
elif [[ "${1:-}" == "--runtime" ]]; then
  packages=("${RUNTIME_PACKAGES[@]}")
elif [[ "${1:-}" == "--fuzz" ]]; then
  packages+=("${FUZZ_PACKAGES[@]}")
elif [[ "${1:-}" == "--style" ]]; then
  packages=("${STYLE_PACKAGES[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages already installed."
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
