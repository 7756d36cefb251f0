#!/usr/bin/env bash
# Encodes seeds/release_request.txt into seeds/release_request/<name>.bin:
# the selector byte, then the request's wire bytes (protoc --encode).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
out="$here/seeds/release_request"
mkdir -p "$out"
grep -v '^#' "$here/seeds/release_request.txt" |
  while read -r name selector type text; do
    [[ -z "$name" ]] && continue
    {
      printf "\\x0$selector"
      printf '%s\n' "$text" |
        protoc -I "$root/proto" --encode="dpq.v1.$type" \
          "$root/proto/dpq/v1/buyer_service.proto"
    } > "$out/$name.bin"
  done
ls "$out"
