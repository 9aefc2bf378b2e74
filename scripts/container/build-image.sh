#!/usr/bin/env bash
# Builds the appliance image with podman on the local base images (build-bases.sh).
#   scripts/container/build-image.sh                 the working tree as it is
#   scripts/container/build-image.sh --ref HEAD      a clean export of a commit (git archive)
# Settings: APP_IMAGE (tag), CA_BUNDLE (PEM passed as the `cabundle` build secret), NPMRC (passed
# as the `npmrc` build secret when set), and those of lib.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ref=""
if [[ "${1:-}" == "--ref" ]]; then
  ref="${2:?--ref needs a git ref}"
fi

require_commands podman runc git
bash "$CONTAINER_DIR/build-bases.sh"

context="$REPO_ROOT"
if [[ -n "$ref" ]]; then
  context="$(mktemp -d /var/tmp/docs-appliance-context.XXXXXX)"
  trap 'rm -rf "$context"' EXIT
  git -C "$REPO_ROOT" archive "$ref" | tar -x -C "$context"
fi

secrets=()
if [[ -f "$CA_BUNDLE" ]]; then secrets+=(--secret "id=cabundle,src=$CA_BUNDLE"); fi
if [[ -n "${NPMRC:-}" ]]; then secrets+=(--secret "id=npmrc,src=$NPMRC"); fi

source_label="working tree"
if [[ -n "$ref" ]]; then source_label="git archive $ref"; fi
step "podman build $APP_IMAGE (context: $source_label)"
info "BUILD_BASE=$NODE_BUILD_IMAGE BASE=$NODE_IMAGE"
started=$SECONDS
# --format docker: the OCI format has no HEALTHCHECK. --pull=never: the bases are local images.
podman build --format docker --pull=never \
  --build-arg BUILD_BASE="$NODE_BUILD_IMAGE" \
  --build-arg BASE="$NODE_IMAGE" \
  "${secrets[@]}" \
  -f "$REPO_ROOT/Dockerfile" -t "$APP_IMAGE" "$context" 2>&1 \
  | grep -vE '^(Copying (blob|config)|Writing manifest|Storing signatures|Getting image source)' \
  | sed 's/^/    /'
info "built in $((SECONDS - started)) s: $(podman image inspect --format '{{.Id}} {{.Size}}' "$APP_IMAGE" | awk '{printf "%s, %d MB", substr($1,1,12), $2/1000000}')"
