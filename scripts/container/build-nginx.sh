#!/usr/bin/env bash
# Builds NGINX_IMAGE (Debian's nginx-light on the local runtime base, base/nginx.Containerfile)
# for the compose test's load balancer: no nginx image is reachable without a registry. Reused
# while its recipe (a label) is the same; `--rebuild` builds it again.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

require_commands podman runc
image_exists "$RUNBASE_IMAGE" || bash "$CONTAINER_DIR/build-bases.sh"
recipe="nginx-light on $(podman image inspect --format '{{.Id}}' "$RUNBASE_IMAGE"), $(sha256sum "$CONTAINER_DIR/base/nginx.Containerfile" | cut -c1-16)"
if [[ "${1:-}" != --rebuild ]] && image_exists "$NGINX_IMAGE" &&
  [[ "$(podman image inspect --format '{{index .Labels "docs-appliance.recipe"}}' "$NGINX_IMAGE")" == "$recipe" ]]; then
  info "$NGINX_IMAGE exists (cached)"
  exit 0
fi
info "podman build -> $NGINX_IMAGE (FROM $RUNBASE_IMAGE, apt-get install nginx-light)"
podman build --quiet --format docker --pull=never --build-arg FROM_IMAGE="$RUNBASE_IMAGE" \
  --label "docs-appliance.recipe=$recipe" -f "$CONTAINER_DIR/base/nginx.Containerfile" -t "$NGINX_IMAGE" \
  "$CONTAINER_DIR/base" >"$CACHE_DIR/build-nginx.log" 2>&1 || { tail -20 "$CACHE_DIR/build-nginx.log" >&2; fail "podman build $NGINX_IMAGE"; }
info "$(podman run --rm --network none "$NGINX_IMAGE" nginx -v 2>&1)"
