#!/usr/bin/env bash
# The container proof (`npm run container:test`): builds the image on locally made base images,
# runs it the way an air-gapped install does, and checks it end to end. Takes minutes; not in CI.
#
#   scripts/container/test.sh              build from the working tree
#   scripts/container/test.sh --ref HEAD   build from a clean export of a commit
#
# Steps: lint the Dockerfile; build the bases and the image (build-image.sh); the repeated-start
# run (restarts.sh: 20 starts to ready, a GC-heavy workload, SIGTERM, no abnormal exit); export
# the example docs to a bundle with the project's own CLI; run the image with a read-only root,
# a /data volume, no network, a mounted config file and the bundle mounted as a file named by
# staticExport.bundleUrl; wait for the HEALTHCHECK; run smoke.mjs inside the container (uid,
# read-only root, git, health, initial key, admin API with a full static export, the served
# bundle); an online backup of /data; SIGTERM and a clean exit; save the image to a tarball,
# delete it, load it back; a new container from the loaded image on the same volume (state kept);
# the backup restored into a new volume (the old key still works); a serving replica configured
# to load one bundle (staticExport.bundleUrl); then compose-test.sh on the loaded image: the
# deploy/compose set-up under podman-compose, an appliance, 3 replicas that follow it and the
# nginx lb: a publish through the API is served by every replica within 30 s, a search on each
# replica is in the appliance's search report, also across a short outage of the appliance
# (compose-test.sh alone: `npm run container:compose-test`); then kube-test.sh on the same image:
# deploy/kubernetes under `podman kube play` (a variant kube-variant.mjs derives and explains), the
# appliance and two replicas that follow a publish, serve through a `podman pod stop` of the
# appliance and follow again after it (alone: `npm run container:kube-test`). Every container,
# pod, volume, secret and network it made is removed at the end.
# Needs root, podman, podman-compose, runc, debootstrap, curl, openssl, Node and this project's dev
# dependencies on the host.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build_args=()
if [[ "${1:-}" == "--ref" ]]; then build_args=(--ref "${2:?--ref needs a git ref}"); fi

require_commands podman podman-compose runc debootstrap node npx sha256sum unzip curl openssl
run_id="dact-$$"
work="$(mktemp -d /var/tmp/docs-appliance-test.XXXXXX)"
volume="$run_id-data"
containers=()
volumes=("$volume")

# The backup and restore commands documented in docs/operations.md, run here as written there.
BACKUP_SH='trap "rm -rf /data/backup" EXIT; trap "exit 1" HUP INT TERM
  docs-appliance backup /data/backup/docs-appliance.db >&2 &&
  tar -C /data -cf - --exclude=./docs-appliance.db --exclude=./docs-appliance.db-wal --exclude=./docs-appliance.db-shm .'
RESTORE_SH='set -e; cd /data; tar -xf /restore/backup.tar; if [ -f backup/docs-appliance.db ]; then mv backup/docs-appliance.db docs-appliance.db; rm -f docs-appliance.db-wal docs-appliance.db-shm; rmdir backup; fi'

cleanup() {
  local status=$?
  for c in "${containers[@]}"; do podman rm -f -v -t 0 "$c" >/dev/null 2>&1 || true; done
  for v in "${volumes[@]}"; do podman volume rm -f "$v" >/dev/null 2>&1 || true; done
  rm -rf "$work"
  if ((status == 0)); then printf '\nPASS: container test (%d s)\n' "$SECONDS"; else printf '\nFAIL: container test (exit %d)\n' "$status" >&2; fi
}
trap cleanup EXIT

# podman prints an error for the healthcheck's systemd timer on hosts without systemd; the check
# itself is run on demand below, so that line is noise here.
quiet_podman() { podman "$@" 2> >(grep -v 'systemd' >&2); }

wait_healthy() {
  local c="$1" deadline=$((SECONDS + 120)) started=$SECONDS state
  while ! podman healthcheck run "$c" >/dev/null 2>&1; do
    state="$(podman inspect --format '{{.State.Status}}' "$c")"
    if [[ "$state" != running ]]; then
      podman logs --tail 30 "$c" >&2 || true
      fail "container $c is $state before becoming healthy"
    fi
    ((SECONDS < deadline)) || { podman logs --tail 30 "$c" >&2; fail "container $c not healthy after 120 s"; }
    sleep 1
  done
  info "healthy after $((SECONDS - started)) s (podman healthcheck run: the image's HEALTHCHECK on /readyz)"
}

stop_cleanly() {
  local c="$1" started=$SECONDS code
  podman stop -t 10 "$c" >/dev/null 2> >(grep -v systemd >&2)
  code="$(podman inspect --format '{{.State.ExitCode}}' "$c")"
  info "podman stop -t 10 (SIGTERM): exited with status $code after $((SECONDS - started)) s"
  [[ "$code" == 0 ]] || { podman logs --tail 20 "$c" >&2; fail "exit status $code after SIGTERM (137 = killed after the grace period)"; }
  # Into a variable first: `podman logs | grep -q` fails under pipefail when grep exits early.
  local log
  log="$(podman logs "$c" 2>&1)"
  grep -q '"msg":"shutting down: readiness 503, draining requests"' <<<"$log" || fail "the log has no 'shutting down' line"
  grep -q '"msg":"stopped"' <<<"$log" || fail "the log has no 'stopped' line"
  info "log: $(grep -o '"msg":"[^"]*"' <<<"$log" | tail -2 | paste -sd' ')"
}

step "Lint the Dockerfile (dockerfile-utils)"
(cd "$REPO_ROOT" && npx --no-install dockerfile-utils lint Dockerfile) || fail "Dockerfile lint"
info "no problems"

bash "$CONTAINER_DIR/build-image.sh" "${build_args[@]}"
info "HEALTHCHECK: $(podman image inspect --format '{{json .HealthCheck.Test}}' "$APP_IMAGE")"
info "USER $(podman image inspect --format '{{.User}}' "$APP_IMAGE"), ENTRYPOINT $(podman image inspect --format '{{json .Config.Entrypoint}}' "$APP_IMAGE"), volumes $(podman image inspect --format '{{json .Config.Volumes}}' "$APP_IMAGE"), ports $(podman image inspect --format '{{json .Config.ExposedPorts}}' "$APP_IMAGE")"

# The image must start every time: RESTARTS starts (20) to ready, a GC-heavy workload and SIGTERM,
# with no abnormal exit (restarts.sh; alone: `npm run container:restarts`).
bash "$CONTAINER_DIR/restarts.sh" --no-build

step "Bundle: export the example docs with the project's CLI"
version="container-test-$(date -u +%Y%m%dT%H%M%SZ)"
(cd "$REPO_ROOT" && node --import tsx app/cli.ts export example-docs --out "$work/site.zip" --version "$version") \
  > "$work/export.log" 2>&1 || { cat "$work/export.log" >&2; fail "export"; }
info "$(tail -1 "$work/export.log")"
index_sha="$(unzip -p "$work/site.zip" index.html | sha256sum | cut -d' ' -f1)"
info "version $version, index.html sha256 ${index_sha:0:16}..."
chmod 0644 "$work/site.zip"

step "Config file and volume"
project_id=0123456789abcdef01234567
domain=docs.container-test.internal
cat > "$work/config.json" <<EOF
{
  "organizations": [ { "id": "org_test", "name": "Container test", "plan": "enterprise" } ],
  "projects": [ { "id": "$project_id", "orgId": "org_test", "name": "Example docs",
                  "domain": "$domain", "sourceDir": "/app/example-docs" } ],
  "log": { "level": "info" }
}
EOF
chmod 0644 "$work/config.json"
podman volume create "$volume" >/dev/null
info "config: organization org_test (enterprise), project $domain; volume $volume"

run_container() {
  local name="$1"
  containers+=("$name")
  quiet_podman run -d --name "$name" \
    --read-only --tmpfs /tmp:rw,size=256m,mode=1777 \
    --network none \
    -v "$volume:/data" \
    -v "$work/config.json:/etc/docs-appliance/config.json:ro" \
    -v "$work/site.zip:/bundles/site.zip:ro" \
    -v "$CONTAINER_DIR/smoke.mjs:/probe/smoke.mjs:ro" \
    -e DOCS_APPLIANCE_CONFIG=/etc/docs-appliance/config.json \
    -e DOCS_APPLIANCE_STATIC_EXPORT_ENABLED=true \
    -e DOCS_APPLIANCE_STATIC_EXPORT_BUNDLE_URL=/bundles/site.zip \
    -e DOCS_APPLIANCE_STATIC_EXPORT_VERSION="$version" \
    "$APP_IMAGE" >/dev/null
}

step "Run: --read-only --tmpfs /tmp --network none -v $volume:/data, bundle and config mounted read-only"
run_container "$run_id-1"
wait_healthy "$run_id-1"

smoke() {
  local c="$1" mode="${2:-appliance}"
  podman exec -e PROBE_MODE="$mode" -e PROBE_DOMAIN="$domain" -e PROBE_VERSION="$version" \
    -e PROBE_INDEX_SHA256="$index_sha" "$c" node /probe/smoke.mjs \
    || { podman logs --tail 30 "$c" >&2; fail "smoke checks in $c"; }
}

step "Smoke checks inside the container (smoke.mjs)"
smoke "$run_id-1"
key_sha="$(podman exec "$run_id-1" sha256sum /data/initial-admin-key | cut -d' ' -f1)"
pid1="$(podman exec "$run_id-1" cat /proc/1/comm)"
[[ "$pid1" == tini ]] || fail "PID 1 is $pid1, not tini"
info "PID 1 is tini"

step "Online backup of /data while it serves (the commands of docs/operations.md)"
podman exec "$run_id-1" sh -c "$BACKUP_SH" > "$work/backup.tar" 2> >(sed 's/^/    /' >&2)
podman exec "$run_id-1" test ! -e /data/backup || fail "the backup left /data/backup in the live volume"
listing="$(tar -tf "$work/backup.tar")"
grep -qx './backup/docs-appliance.db' <<<"$listing" || fail "backup.tar has no backup/docs-appliance.db"
grep -q '^./secrets/.' <<<"$listing" || fail "backup.tar has no secrets"
! grep -qx './docs-appliance.db' <<<"$listing" || fail "backup.tar holds the live database file"
info "backup.tar: $(du -k "$work/backup.tar" | cut -f1) KB, $(grep -vc '/$' <<<"$listing") files"

step "SIGTERM: graceful stop"
stop_cleanly "$run_id-1"
podman rm "$run_id-1" >/dev/null 2> >(grep -v systemd >&2)

step "Air-gapped distribution: podman save, delete the image, podman load"
podman save --quiet --format docker-archive -o "$work/image.tar" "$APP_IMAGE"
info "image.tar: $(du -m "$work/image.tar" | cut -f1) MB"
podman rmi "$APP_IMAGE" >/dev/null
! image_exists "$APP_IMAGE" || fail "image still present after podman rmi"
podman load --quiet -i "$work/image.tar" >/dev/null
image_exists "$APP_IMAGE" || fail "podman load did not restore $APP_IMAGE"
info "loaded; HEALTHCHECK kept: $(podman image inspect --format '{{if .HealthCheck}}yes{{else}}no{{end}}' "$APP_IMAGE")"

step "Restart: a new container from the loaded image on the same volume"
run_container "$run_id-2"
wait_healthy "$run_id-2"
[[ "$(podman exec "$run_id-2" sha256sum /data/initial-admin-key | cut -d' ' -f1)" == "$key_sha" ]] \
  || fail "initial-admin-key changed across restarts"
info "state kept: same initial-admin-key, database reopened"
smoke "$run_id-2"
stop_cleanly "$run_id-2"

step "Restore the backup into a new volume and start on it"
restored="$run_id-restored"
podman volume create "$restored" >/dev/null
volumes+=("$restored")
podman run --rm --network none -v "$restored:/data" -v "$work/backup.tar:/restore/backup.tar:ro" \
  --entrypoint sh "$APP_IMAGE" -c "$RESTORE_SH" 2> >(grep -v systemd >&2)
volume="$restored" run_container "$run_id-3"
wait_healthy "$run_id-3"
[[ "$(podman exec "$run_id-3" sha256sum /data/initial-admin-key | cut -d' ' -f1)" == "$key_sha" ]] \
  || fail "the restored initial-admin-key differs"
smoke "$run_id-3"
info "the restored database accepts the original key and runs exports"
stop_cleanly "$run_id-3"

step "Serving replica that loads one bundle (staticExport), same image, its own empty /data"
# deploy/compose/replica.json follows the appliance over the network (docs/publishing.md); this
# step keeps proving the bundle-only replica, with no network at all.
cat > "$work/bundle-replica.json" <<'JSON'
{
  "stateDir": "/data",
  "site": { "port": 8080, "exampleOnFirstStart": false },
  "staticExport": { "enabled": true, "bundleUrl": "file:///bundles/site.zip", "keepVersions": 2 },
  "log": { "level": "info" }
}
JSON
containers+=("$run_id-replica")
quiet_podman run -d --name "$run_id-replica" \
  --read-only --tmpfs /tmp:rw,size=256m,mode=1777 --network none \
  -v "$work/bundle-replica.json:/etc/docs-appliance/config.json:ro" \
  -v "$work/site.zip:/bundles/site.zip:ro" \
  -v "$CONTAINER_DIR/smoke.mjs:/probe/smoke.mjs:ro" \
  -e DOCS_APPLIANCE_CONFIG=/etc/docs-appliance/config.json \
  -e DOCS_APPLIANCE_STATIC_EXPORT_VERSION="$version" \
  "$APP_IMAGE" >/dev/null
wait_healthy "$run_id-replica"
smoke "$run_id-replica" replica
stop_cleanly "$run_id-replica"

step "Compose set-up: replicas that follow the appliance (compose-test.sh)"
bash "$CONTAINER_DIR/compose-test.sh" --no-build 2>&1 | sed 's/^/  /'

step "Kubernetes manifests under podman kube play (kube-test.sh)"
bash "$CONTAINER_DIR/kube-test.sh" --no-build 2>&1 | sed 's/^/  /'
