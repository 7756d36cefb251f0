#!/usr/bin/env bash
# Re-renders the nginx configuration of the dpq image (deploy/nginx/Dockerfile)
# from the container's environment and reloads nginx gracefully: the rolling
# upgrade's step that takes a replica out before it is replaced and puts it
# back afterwards (docs/operations.md, "Upgrades"):
#
#   docker compose -f deploy/compose.yaml exec -e DPQ_UPSTREAMS_DOWN=dpq-1:50051 nginx dpq-nginx-reload
#   docker compose -f deploy/compose.yaml exec nginx dpq-nginx-reload
#
# Waits until the old workers have finished their calls and exited, so that
# the replica marked down gets no call once it returns.
set -euo pipefail
prefix=/var/lib/dpq-nginx
dpq-nginx-render /usr/share/dpq-nginx/dpq.conf "$prefix/nginx.conf"
master=$(cat "$prefix/nginx.pid")
old_workers=$(pgrep -P "$master" || true)
nginx -p "$prefix/" -c "$prefix/nginx.conf" -e stderr -s reload
for _ in $(seq 1 300); do
  left=0
  for w in $old_workers; do
    [[ -d "/proc/$w" ]] && left=1
  done
  [[ $left -eq 0 ]] && { echo "dpq-nginx-reload: reloaded"; exit 0; }
  sleep 0.1
done
echo "dpq-nginx-reload: old workers still finishing calls after 30 s" >&2
exit 1
