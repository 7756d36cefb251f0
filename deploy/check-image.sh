#!/usr/bin/env bash
# Builds the dpq container image from the Dockerfile with Debian's podman and
# checks the runtime image's files without running a container (no container
# runtime is needed: the image is created, mounted and its binaries are run
# with chroot, as the image's user, on loopback):
#   1. base images: debian:bookworm and debian:bookworm-slim made with
#      `debootstrap --variant=minbase bookworm` (cached, see DPQ_IMAGE_CACHE)
#      and imported under the names the Dockerfile's FROM lines use;
#   2. `podman build --isolation chroot --network host --pull=never` of the
#      Dockerfile (its build stage compiles in Release and runs the fast
#      suite), in docker format so that the HEALTHCHECK is kept;
#   3. the image's configuration: non-root USER, HEALTHCHECK, ENTRYPOINT;
#   4. in a chroot of the mounted image, with TLS material from
#      deploy/make-certs.sh in /etc/dpq: dpq-server started with the image's
#      own ENTRYPOINT and CMD (listening on 127.0.0.1 instead of 0.0.0.0, and
#      with --import-dir /usr/share/dpq/demo), the HEALTHCHECK command,
#      registration of the demo hospital table by server-side path, a buyer,
#      a budget, one MeasureInconsistency release, dpq-measure on the demo
#      files, and SIGTERM with a clean exit.
# Exits 0 only if every step worked. Needs root (podman, mount, chroot) and
# Debian 12; installs podman and debootstrap with apt-get if they are missing.
# Idempotent: the base images and podman's layer cache are reused, so a
# second run rebuilds only what changed; the image stays tagged as
# localhost/dpq:check. Takes 15-30 minutes from scratch on 2 cores (the
# image's Release build and test suite); it is not part of CI (.ci/run), see
# docs/image.md for when to run it and its last recorded result.
#
#   deploy/check-image.sh [--rebuild-base] [--fresh]
#     --rebuild-base  re-run debootstrap and re-import the base images
#     --fresh         build every layer again (podman build --no-cache)
set -euo pipefail
cd "$(dirname "$0")/.."

readonly CACHE="${DPQ_IMAGE_CACHE:-/var/cache/dpq-image}"
readonly MIRROR="${DPQ_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
readonly IMAGE=localhost/dpq:check
readonly BASE=docker.io/library/debian:bookworm
readonly SLIM=docker.io/library/debian:bookworm-slim

step() { printf '\n== %s\n' "$*"; }
fail() { echo "check-image: FAILED: $*" >&2; exit 1; }

rebuild_base=0
cache_flag=--layers
DPQ_TOKEN=""
for arg in "$@"; do
  case "$arg" in
    --rebuild-base) rebuild_base=1 ;;
    --fresh) cache_flag=--no-cache ;;
    *) echo "usage: $0 [--rebuild-base] [--fresh]" >&2; exit 2 ;;
  esac
done
[[ $(id -u) -eq 0 ]] || fail "run as root (podman build, mount and chroot need it)"

started=$(date +%s)

step "Tools: podman and debootstrap (Debian packages)"
missing=()
for tool in podman debootstrap; do
  command -v "$tool" > /dev/null || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi
podman --version
mkdir -p "$CACHE"

# make_base_tarballs: bookworm.tar (minbase) and bookworm-slim.tar (the same
# without documentation, as Debian's slim image, and told dpkg to keep it so).
make_base_tarballs() {
  local root="$CACHE/rootfs"
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 ||
    { tail -n 20 "$CACHE/debootstrap.log" >&2; fail "debootstrap"; }
  # What a container runtime provides at run time does not belong in the
  # image; nor do the downloaded packages and lists.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb \
         "$root"/etc/hostname "$root"/etc/resolv.conf "$root"/etc/hosts
  tar --numeric-owner -C "$root" -cf "$CACHE/bookworm.tar.tmp" .
  mv "$CACHE/bookworm.tar.tmp" "$CACHE/bookworm.tar"
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
         "$root"/usr/share/locale/*
  cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  tar --numeric-owner -C "$root" -cf "$CACHE/bookworm-slim.tar.tmp" .
  mv "$CACHE/bookworm-slim.tar.tmp" "$CACHE/bookworm-slim.tar"
  rm -rf "$root"
}

import_base() {  # import_base TARBALL NAME
  podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$1" "$2" > /dev/null
}

step "Base images $BASE and $SLIM (debootstrap --variant=minbase bookworm, cached in $CACHE)"
if [[ $rebuild_base -eq 1 ]]; then
  rm -f "$CACHE/bookworm.tar" "$CACHE/bookworm-slim.tar"
  podman image rm -f "$BASE" "$SLIM" > /dev/null 2>&1 || true
fi
if ! podman image exists "$BASE" || ! podman image exists "$SLIM"; then
  if [[ ! -s "$CACHE/bookworm.tar" || ! -s "$CACHE/bookworm-slim.tar" ]]; then
    make_base_tarballs
  fi
  import_base "$CACHE/bookworm.tar" "$BASE"
  import_base "$CACHE/bookworm-slim.tar" "$SLIM"
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '/debian:' || true

step "podman build of the Dockerfile (Release build and fast test suite inside; long)"
build_started=$(date +%s)
rm -f "$CACHE/image.id"
# The id file, not only the exit status: podman build stopped by a signal
# may exit 0.
if ! podman build --isolation chroot --network host --pull=never --format docker \
       "$cache_flag" --iidfile "$CACHE/image.id" -t "$IMAGE" -f Dockerfile . \
       > "$CACHE/build.log" 2>&1 || [[ ! -s "$CACHE/image.id" ]]; then
  tail -n 60 "$CACHE/build.log" >&2
  fail "podman build (full log: $CACHE/build.log)"
fi
build_seconds=$(( $(date +%s) - build_started ))
grep -E '^(STEP|COMMIT|Successfully)|tests passed|tests failed' "$CACHE/build.log" | tail -n 40 || true
echo "built $IMAGE in ${build_seconds} s"

step "Image configuration: non-root user, health check, entrypoint"
inspect() { podman image inspect --format "$1" "$IMAGE"; }
user=$(inspect '{{.Config.User}}')
[[ "$user" == "65532:65532" ]] || fail "image user is '$user', not 65532:65532"
mapfile -t entrypoint < <(inspect '{{range .Config.Entrypoint}}{{println .}}{{end}}' | sed '/^$/d')
mapfile -t cmd < <(inspect '{{range .Config.Cmd}}{{println .}}{{end}}' | sed '/^$/d')
mapfile -t health < <(inspect '{{range .Config.Healthcheck.Test}}{{println .}}{{end}}' | sed '/^$/d')
[[ "${entrypoint[*]}" == "dpq-server" ]] || fail "entrypoint is '${entrypoint[*]}'"
[[ "${health[0]:-}" == "CMD" && "${health[1]:-}" == "dpq" ]] ||
  fail "no HEALTHCHECK running dpq in the image: '${health[*]}'"
workdir=$(inspect '{{.Config.WorkingDir}}')
size_bytes=$(inspect '{{.Size}}')
size_mb=$(( size_bytes / 1000000 ))
echo "user $user; entrypoint ${entrypoint[*]}; cmd ${cmd[*]}"
echo "healthcheck ${health[*]:1}"
echo "image $(inspect '{{.Id}}' | cut -c1-12), ${size_mb} MB"

step "Mount the runtime image (a created, never started, container)"
work=$(mktemp -d "${TMPDIR:-/tmp}/dpq-image-check.XXXXXX")
ctr=""
root=""
server_pid=""
cleanup() {
  local rc=$?
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2> /dev/null; then
    kill -TERM "$server_pid" 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
  fi
  if [[ $rc -ne 0 && -s "$work/server.log" ]]; then
    echo "check-image: last lines of the server log:" >&2
    tail -n 20 "$work/server.log" >&2
  fi
  if [[ -n "$root" ]]; then
    umount "$root/proc" 2> /dev/null || true
    umount "$root/dev" 2> /dev/null || true
  fi
  if [[ -n "$ctr" ]]; then
    podman umount "$ctr" > /dev/null 2>&1 || true
    podman rm -f "$ctr" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ctr=$(podman create --name "dpq-image-check-$$" "$IMAGE")
root=$(podman mount "$ctr")
[[ -x "$root/usr/local/bin/dpq-server" ]] || fail "no dpq-server in the image"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
# What podman provides when it runs the container: /etc/hosts, and the
# certificates mounted into /etc/dpq (compose.yaml, k8s).
if [[ ! -s "$root/etc/hosts" ]]; then
  printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n' > "$root/etc/hosts"
fi
./deploy/make-certs.sh "$work/certs"
install -m 0644 "$work/certs/ca.pem" "$work/certs/server.pem" "$root/etc/dpq/"
install -m 0400 -o 65532 -g 65532 "$work/certs/server.key" "$root/etc/dpq/"
echo "mounted at $root"

# in_image CMD...: runs CMD in the image as its user, in its working
# directory, with a clean environment (and DPQ_TOKEN when set).
image_env=(/usr/bin/env -i -C "$workdir"
           PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/data)
in_image() {
  chroot --userspec="$user" "$root" "${image_env[@]}" \
    ${DPQ_TOKEN:+DPQ_TOKEN="$DPQ_TOKEN"} "$@"
}

step "dpq-server from the image's ENTRYPOINT and CMD (on 127.0.0.1, server-side imports from /usr/share/dpq/demo)"
args=()
for a in "${entrypoint[@]}" "${cmd[@]}"; do
  [[ "$a" == "0.0.0.0:50051" ]] && a="127.0.0.1:0"
  args+=("$a")
done
args+=(--import-dir /usr/share/dpq/demo)
echo "${args[*]}"
# exec in a subshell (chroot and env exec too): $! is dpq-server itself,
# which the SIGTERM below must reach.
(exec chroot --userspec="$user" "$root" "${image_env[@]}" "${args[@]}") \
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
port=${address##*:}
grep '^dpq-server' "$work/server.log"

step "The image's HEALTHCHECK command (on port $port)"
check=()
for a in "${health[@]:1}"; do check+=("${a/localhost:50051/localhost:$port}"); done
echo "${check[*]}"
healthy=0
for _ in $(seq 1 50); do
  if in_image "${check[@]}"; then healthy=1; break; fi
  sleep 0.2
done
[[ $healthy -eq 1 ]] || fail "the HEALTHCHECK never reported SERVING"

dpq() { in_image dpq --server "localhost:$port" --ca /etc/dpq/ca.pem "$@"; }

step "Admin: register the demo hospital table by server-side path"
DPQ_TOKEN=$(tr -d '[:space:]' < "$root/data/admin.token")
[[ -n "$DPQ_TOKEN" ]] || fail "no admin token in the image's /data"
demo=/usr/share/dpq/demo
dpq admin register hospital --server-path "$demo/hospital.csv" \
  --constraints "$demo/hospital.dc" --schema "$demo/hospital.schema" \
  --public-max-rows 2000

step "Admin: create the buyer alice and grant her epsilon 1 on hospital"
buyer_json=$(dpq --json admin create-buyer alice)
alice_token=$(printf '%s\n' "$buyer_json" |
  sed -n 's/.*"token" *: *"\(dpq_[0-9a-f]\{64\}\)".*/\1/p')
[[ -n "$alice_token" ]] || fail "no token in the create-buyer output"
dpq admin grant alice hospital 1

step "Buyer alice: one MeasureInconsistency release (I_MI, epsilon 0.5)"
DPQ_TOKEN="$alice_token"
measure_text=$(dpq measure hospital --measure mi --epsilon 0.5)
printf '%s\n' "$measure_text"
[[ "$measure_text" =~ I_MI\ \([^\)]*\)\ ~\ -?[0-9]+ ]] || fail "no I_MI value in the release"
budget_text=$(dpq budget hospital)
printf '%s\n' "$budget_text"
[[ "$budget_text" == *0.5* ]] || fail "the release was not charged"
DPQ_TOKEN=""

step "dpq-measure (the owner's tool) on the demo files"
in_image dpq-measure --data "$demo/hospital.csv" --constraints "$demo/hospital.dc" \
  --schema "$demo/hospital.schema" --measure mi --exact > "$work/measure.json" ||
  fail "dpq-measure"
grep -q '"value"' "$work/measure.json" || fail "dpq-measure printed no value"
cat "$work/measure.json"

step "Stop dpq-server with SIGTERM"
kill -TERM "$server_pid"
set +e
wait "$server_pid"
server_rc=$?
set -e
server_pid=""
[[ $server_rc -eq 0 ]] || fail "dpq-server exited with status $server_rc after SIGTERM"
grep -v '^dpq-server' "$work/server.log" || true

total=$(( $(date +%s) - started ))
step "Image check passed"
echo "date:         $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "image:        $IMAGE $(inspect '{{.Id}}' | cut -c1-12), ${size_mb} MB"
echo "podman build: ${build_seconds} s; whole check: ${total} s"
