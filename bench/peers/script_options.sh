# Sourced by run.sh, private_releases.sh and server_registration.sh: the
# paths and the options they share. The caller sets `rows` (its default)
# first.
#   --rows N      table size (dpq-scale; run.sh: a list such as 50k,1M)
#   --repeat N    runs per measurement
#   --build DIR   the build tree with bin/ (default: build/)
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tax=$(cd "$root/../shared/data/tax" && pwd)
perf_dir=${DPQ_PERF_DIR:-/tmp/dpq-perf/peers}
repeat=1
build=$root/build
while (($#)); do
  case $1 in
    --rows) rows=${2:?}; shift 2 ;;
    --repeat) repeat=${2:?}; shift 2 ;;
    --build) build=$(cd "${2:?}" && pwd); shift 2 ;;
    *) echo "usage: $0 [--rows N] [--repeat N] [--build DIR]" >&2; exit 2 ;;
  esac
done
bin=$build/bin
