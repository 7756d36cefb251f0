#!/usr/bin/env bash
# Makes development TLS material for dpq-server and the dpq client with the
# openssl CLI (EC P-256 keys, SHA-256 signatures, 825 days):
#   ca.pem, ca.key          a private development CA
#   server.pem, server.key  the server, valid for localhost, 127.0.0.1 and ::1
#   client.pem, client.key  a client certificate for mutual TLS (--client-ca)
#
#   deploy/make-certs.sh OUT_DIR [--force] [--server-name NAME]...
#
# Idempotent: existing files are kept; only missing ones are made (a new CA
# re-issues both leaf certificates). --force replaces everything.
# --server-name adds a DNS name to the server certificate (e.g. the name of a
# Kubernetes Service); repeatable. Keys are written with mode 0600.
# For development and tests only: production certificates come from your CA.
set -euo pipefail

usage() {
  echo "usage: $0 OUT_DIR [--force] [--server-name NAME]..." >&2
  exit 2
}

out=""
force=0
extra_names=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --force) force=1 ;;
    --server-name)
      [[ $# -ge 2 ]] || usage
      extra_names+=("$2")
      shift ;;
    -h|--help) usage ;;
    -*) echo "make-certs: unknown option $1" >&2; usage ;;
    *)
      [[ -z "$out" ]] || usage
      out="$1" ;;
  esac
  shift
done
[[ -n "$out" ]] || usage

if ! command -v openssl > /dev/null; then
  echo "make-certs: the openssl command is missing; run deploy/install-deps.sh" >&2
  exit 1
fi

readonly DAYS=825
mkdir -p "$out"
cd "$out"

if [[ $force -eq 1 ]]; then
  rm -f ca.pem ca.key server.pem server.key client.pem client.key
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# new_key FILE: an EC P-256 private key, mode 0600 from the start.
new_key() {
  (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
                 -out "$1" 2> /dev/null)
  chmod 0600 "$1"
}

serial() { echo "0x$(openssl rand -hex 16)"; }

made=()

# The CA. A new CA invalidates both leaf certificates.
if [[ ! -s ca.pem || ! -s ca.key ]]; then
  new_key ca.key
  openssl req -x509 -new -key ca.key -sha256 -days "$DAYS" -set_serial "$(serial)" \
    -subj "/O=dpq development/CN=dpq development CA" \
    -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -addext "subjectKeyIdentifier=hash" \
    -out ca.pem
  chmod 0644 ca.pem
  rm -f server.pem server.key client.pem client.key
  made+=(ca.pem ca.key)
fi

# issue NAME CN EXTENSIONS: NAME.key + NAME.pem signed by the CA.
issue() {
  local name="$1" cn="$2" ext="$3"
  new_key "$name.key"
  openssl req -new -key "$name.key" -sha256 -subj "/O=dpq development/CN=$cn" \
    -out "$tmp/$name.csr"
  printf '%s\n' "$ext" > "$tmp/$name.ext"
  openssl x509 -req -in "$tmp/$name.csr" -CA ca.pem -CAkey ca.key \
    -set_serial "$(serial)" -days "$DAYS" -sha256 -extfile "$tmp/$name.ext" \
    -out "$name.pem" 2> /dev/null
  chmod 0644 "$name.pem"
  made+=("$name.pem" "$name.key")
}

if [[ ! -s server.pem || ! -s server.key ]]; then
  san="DNS:localhost,IP:127.0.0.1,IP:::1"
  for n in "${extra_names[@]}"; do san+=",DNS:$n"; done
  issue server localhost "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=$san
authorityKeyIdentifier=keyid"
fi

if [[ ! -s client.pem || ! -s client.key ]]; then
  issue client dpq-client "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth
authorityKeyIdentifier=keyid"
fi

# Sanity check: both leaves chain to the CA.
openssl verify -CAfile ca.pem server.pem client.pem > /dev/null

if [[ ${#made[@]} -eq 0 ]]; then
  echo "make-certs: all files already in $out (use --force to replace them)"
else
  echo "make-certs: wrote ${made[*]} in $out"
fi
