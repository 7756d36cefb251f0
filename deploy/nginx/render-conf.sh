#!/usr/bin/env bash
# Renders the nginx template deploy/nginx/dpq.conf for a set of dpq-server
# replicas: replaces its @DPQ_...@ placeholders from the environment and
# repeats the line holding @DPQ_UPSTREAM@ once per replica. Pure bash, so
# that it runs in a slim nginx image (deploy/nginx/Dockerfile) as well as
# in the tests (tests/integration/nginx_proxy.h).
#
#   DPQ_UPSTREAMS="dpq-1:50051 dpq-2:50051" render-conf.sh TEMPLATE OUT
#
# Environment (defaults in brackets):
#   DPQ_UPSTREAMS          the replicas, HOST:PORT separated by spaces or
#                          commas (required)
#   DPQ_UPSTREAMS_DOWN     of those, the ones nginx sends no calls to (the
#                          `down` flag) while they are replaced in a
#                          rolling upgrade (docs/operations.md) [none]
#   DPQ_LISTEN             where nginx listens [0.0.0.0:50051]
#   DPQ_TLS_CERT           nginx's certificate for clients [/etc/dpq/server.pem]
#   DPQ_TLS_KEY            its key [/etc/dpq/server.key]
#   DPQ_UPSTREAM_CA        the CA that signed the replicas' certificate
#                          [/etc/dpq/ca.pem]
#   DPQ_UPSTREAM_TLS_NAME  the name nginx expects in the replicas'
#                          certificate [localhost: deploy/make-certs.sh's]
#   DPQ_HTTP_UPSTREAMS     the replicas' HTTP listeners (dpq-server
#                          --http-listen), HOST:PORT ...; without it the
#                          template's HTTP block (between @DPQ_HTTP_BEGIN@
#                          and @DPQ_HTTP_END@) is left out [none]
#   DPQ_HTTP_LISTEN        where nginx serves that HTTP [0.0.0.0:8443]
# A value that could end or extend an nginx directive (space, ';', '{',
# '}', quote, '#', '$') is refused, so the output is always the template's
# own directives. Exit status 2 on a usage or value error.
set -euo pipefail

fail() { echo "render-conf: $*" >&2; exit 2; }

[[ $# -eq 2 ]] || fail "usage: DPQ_UPSTREAMS='HOST:PORT ...' $0 TEMPLATE OUT"
template="$1"
out="$2"
[[ -r "$template" ]] || fail "cannot read the template $template"

listen="${DPQ_LISTEN:-0.0.0.0:50051}"
tls_cert="${DPQ_TLS_CERT:-/etc/dpq/server.pem}"
tls_key="${DPQ_TLS_KEY:-/etc/dpq/server.key}"
upstream_ca="${DPQ_UPSTREAM_CA:-/etc/dpq/ca.pem}"
upstream_name="${DPQ_UPSTREAM_TLS_NAME:-localhost}"
http_listen="${DPQ_HTTP_LISTEN:-0.0.0.0:8443}"

# plain NAME VALUE: VALUE is one nginx word without anything that could
# start another directive, block or variable.
plain() {
  [[ -n "$2" ]] || fail "$1 is empty"
  local word='^[]A-Za-z0-9._/:@%+=,[-]+$'
  [[ "$2" =~ $word ]] ||
    fail "$1 may hold only letters, digits and ._/:@%+=,[]- but is '$2'"
}
plain DPQ_LISTEN "$listen"
plain DPQ_TLS_CERT "$tls_cert"
plain DPQ_TLS_KEY "$tls_key"
plain DPQ_UPSTREAM_CA "$upstream_ca"
plain DPQ_UPSTREAM_TLS_NAME "$upstream_name"
plain DPQ_HTTP_LISTEN "$http_listen"

host_port='^([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}$'
upstreams=()
upstream_list="${DPQ_UPSTREAMS:-}"
for u in ${upstream_list//,/ }; do
  [[ "$u" =~ $host_port ]] ||
    fail "DPQ_UPSTREAMS: '$u' is not HOST:PORT"
  upstreams+=("$u")
done
http_upstreams=()
http_list="${DPQ_HTTP_UPSTREAMS:-}"
for u in ${http_list//,/ }; do
  [[ "$u" =~ $host_port ]] ||
    fail "DPQ_HTTP_UPSTREAMS: '$u' is not HOST:PORT"
  http_upstreams+=("$u")
done
[[ ${#upstreams[@]} -gt 0 ]] || fail "DPQ_UPSTREAMS names no replica (HOST:PORT ...)"

declare -A down=()
down_list="${DPQ_UPSTREAMS_DOWN:-}"
for u in ${down_list//,/ }; do
  found=0
  for known in "${upstreams[@]}"; do [[ "$known" == "$u" ]] && found=1; done
  [[ $found -eq 1 ]] || fail "DPQ_UPSTREAMS_DOWN: '$u' is not in DPQ_UPSTREAMS"
  down["$u"]=1
done
[[ ${#down[@]} -lt ${#upstreams[@]} ]] ||
  fail "DPQ_UPSTREAMS_DOWN marks every replica down: nginx would serve nothing"

rendered=""
in_http=0
while IFS= read -r line || [[ -n "$line" ]]; do
  # The HTTP block only when its replicas are given.
  if [[ "$line" == *@DPQ_HTTP_BEGIN@* ]]; then in_http=1; fi
  if [[ "$line" == *@DPQ_HTTP_END@* ]]; then in_http=0; continue; fi
  if [[ $in_http -eq 1 && ${#http_upstreams[@]} -eq 0 ]]; then continue; fi
  if [[ "$line" == *@DPQ_HTTP_BEGIN@* ]]; then
    rendered+="    # The HTTP/JSON API and the web console (docs/http.md)."$'\n'
    continue
  fi
  if [[ "$line" == *@DPQ_HTTP_UPSTREAM@* ]]; then
    for u in "${http_upstreams[@]}"; do
      rendered+="${line//@DPQ_HTTP_UPSTREAM@/$u}"$'\n'
    done
    continue
  fi
  if [[ "$line" == *@DPQ_UPSTREAM@* ]]; then
    for u in "${upstreams[@]}"; do
      server_line="${line//@DPQ_UPSTREAM@/$u}"
      if [[ -n "${down[$u]:-}" ]]; then
        server_line="${server_line%;*} down;"
      fi
      rendered+="$server_line"$'\n'
    done
    continue
  fi
  line="${line//@DPQ_LISTEN@/$listen}"
  line="${line//@DPQ_TLS_CERT@/$tls_cert}"
  line="${line//@DPQ_TLS_KEY@/$tls_key}"
  line="${line//@DPQ_UPSTREAM_CA@/$upstream_ca}"
  line="${line//@DPQ_UPSTREAM_TLS_NAME@/$upstream_name}"
  line="${line//@DPQ_HTTP_LISTEN@/$http_listen}"
  rendered+="$line"$'\n'
done < "$template"

left=$(grep -o '@DPQ_[A-Z_]*@' <<< "$rendered" | sort -u | tr '\n' ' ' || true)
[[ -z "$left" ]] || fail "the template has placeholders this script does not know: $left"

tmp="$out.tmp.$$"
printf '%s' "$rendered" > "$tmp"
mv "$tmp" "$out"
down_note=""
[[ ${#down[@]} -eq 0 ]] || down_note="; down: ${!down[*]}"
echo "render-conf: wrote $out (${#upstreams[@]} replicas: ${upstreams[*]}${down_note}; listening on $listen)"
