#!/usr/bin/env bash
# Makes the secrets of a replicated dpq deployment (deploy/compose.yaml,
# deploy/k8s; docs/operations.md) with the openssl CLI:
#   admin.token        the admin's bearer token (dpq_ + 64 hex digits), the
#                      same file for every replica (--admin-token-file): the
#                      first replica to start creates the admin from it
#   postgres.password  the password of the PostgreSQL role dpq (compose's
#                      postgres service reads it, POSTGRES_PASSWORD_FILE)
#   database.dsn       the connection string the replicas read
#                      (--database-file): postgresql://dpq:PASSWORD@HOST:PORT/dpq
#
#   deploy/make-secrets.sh OUT_DIR [--force] [--database-host HOST]
#                                  [--database-port PORT]
#
# HOST defaults to `postgres` (the compose service), PORT to 5432. For a
# database of your own, write database.dsn yourself (any libpq connection
# string or URI; PG* environment variables fill in the rest) and keep the
# other two files. Idempotent: existing files are kept and only missing
# ones are made (database.dsn from the kept password); --force replaces all
# three. OUT_DIR is mode 0700 and the files 0644: compose bind-mounts each
# file into containers whose users (uid 65532 for dpq-server, 999 for
# postgres) must read it, and the directory keeps other users of this host
# out. For development; production secrets come from your secret store.
set -euo pipefail

usage() {
  echo "usage: $0 OUT_DIR [--force] [--database-host HOST] [--database-port PORT]" >&2
  exit 2
}

out=""
force=0
host=postgres
port=5432
while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) force=1 ;;
    --database-host)
      [[ $# -ge 2 ]] || usage
      host="$2"
      shift ;;
    --database-port)
      [[ $# -ge 2 ]] || usage
      port="$2"
      shift ;;
    -h|--help) usage ;;
    -*) echo "make-secrets: unknown option $1" >&2; usage ;;
    *)
      [[ -z "$out" ]] || usage
      out="$1" ;;
  esac
  shift
done
[[ -n "$out" ]] || usage
host_re='^[A-Za-z0-9._-]+$'
[[ "$host" =~ $host_re ]] || { echo "make-secrets: bad --database-host '$host'" >&2; exit 2; }
[[ "$port" =~ ^[0-9]{1,5}$ ]] || { echo "make-secrets: bad --database-port '$port'" >&2; exit 2; }

if ! command -v openssl > /dev/null; then
  echo "make-secrets: the openssl command is missing; run deploy/install-deps.sh" >&2
  exit 1
fi

mkdir -p "$out"
chmod 0700 "$out"
cd "$out"
if [[ $force -eq 1 ]]; then
  rm -f admin.token postgres.password database.dsn
fi

made=()
# write FILE CONTENT: a new file, never readable by others before its mode
# is set (umask), then 0644 (see above).
write() {
  (umask 077 && printf '%s\n' "$2" > "$1.tmp")
  chmod 0644 "$1.tmp"
  mv "$1.tmp" "$1"
  made+=("$1")
}

if [[ ! -s admin.token ]]; then
  write admin.token "dpq_$(openssl rand -hex 32)"
fi
if [[ ! -s postgres.password ]]; then
  write postgres.password "$(openssl rand -hex 24)"
  rm -f database.dsn  # it held the old password
fi
if [[ ! -s database.dsn ]]; then
  password=$(tr -d '[:space:]' < postgres.password)
  write database.dsn "postgresql://dpq:${password}@${host}:${port}/dpq"
fi

if [[ ${#made[@]} -eq 0 ]]; then
  echo "make-secrets: all files already in $out (use --force to replace them)"
else
  echo "make-secrets: wrote ${made[*]} in $out"
fi
