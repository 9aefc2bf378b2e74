#!/usr/bin/env bash
# The compose proof (`npm run container:compose-test`; also the last stage of test.sh): runs
# deploy/compose as an operator does, with podman-compose, and proves the replicas that follow.
#
#   scripts/container/compose-test.sh              build (or reuse) the image, then the checks
#   scripts/container/compose-test.sh --ref HEAD   build from a clean export of a commit
#   scripts/container/compose-test.sh --no-build   use $APP_IMAGE as it is (test.sh built it)
#
# Steps: copy deploy/compose (compose.yaml, replica.json, both nginx configs as shipped) to a work
# directory; the operator's own files beside it: appliance.json (the shipped one with the
# project's source a directory instead of the Gitea repository), ca.pem, compose.override.yaml
# (the docs directory mounted at /srv/docs) and .env (images, published ports on 127.0.0.1,
# DOCS_NGINX_CONF=./nginx-static-upstream.conf, later the replica key); `podman-compose up -d
# appliance`; the replica key made with the appliance's CLI through `podman-compose exec`
# (docs/operations.md); `podman-compose up -d site` (3 replicas, deploy.replicas; their compose
# healthcheck fails while nothing is published); then compose-check.mjs from the host:
#   - publish with POST /v1/project/update/{projectId} (admin key): every replica serves it
#     within BOUND_S (30) seconds of the publish's end; the replicas' healthcheck passes;
#   - `up -d lb` (Debian's nginx, build-nginx.sh): it serves the site and spreads requests over
#     every replica; it joins the checks below;
#   - a change published: every replica and the lb serve it within BOUND_S seconds;
#   - a search beacon (what search.js posts) to each replica and the lb: each is in GET
#     /v1/analytics/{projectId}/searches, counted once;
#   - the appliance stopped for a few seconds: the replicas keep serving, take beacons, log the
#     failed forward, and deliver them once it is back; a publish after it is followed again.
# `podman-compose down -v` and a sweep of what the project left remove everything at the end.
# Needs root, podman, podman-compose, runc, curl, Node on the host (and, once, Debian's mirror
# for the nginx image).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build=true
build_args=()
case "${1:-}" in
  --no-build) build=false ;;
  --ref) build_args=(--ref "${2:?--ref needs a git ref}") ;;
esac

require_commands podman podman-compose runc node curl
project="dact-compose-$$"
work="$(mktemp -d /var/tmp/docs-appliance-compose.XXXXXX)"
compose_dir="$work/compose"
replicas=3
bound_s="${BOUND_S:-30}"
started_at=$SECONDS

compose() { (cd "$compose_dir" && podman-compose -p "$project" "$@"); }
# podman-compose prints every podman command it runs; the test shows only what went wrong.
quiet_compose() {
  local log="$work/compose-$RANDOM.log"
  compose "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "podman-compose $*"; }
}

cleanup() {
  local status=$?
  if ((status != 0)) && [[ -d "$compose_dir" ]]; then
    for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}'); do
      printf '\n--- podman logs --tail 15 %s\n' "$c" >&2
      podman logs --tail 15 "$c" >&2 2>&1 || true
    done
  fi
  # `down -v` removes the named volume but not the replicas' anonymous /data volumes (podman rm
  # without -v) nor the network: their names are taken first, removed after.
  local anonymous=()
  for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.ID}}'); do
    anonymous+=($(podman inspect --format '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' "$c"))
  done
  [[ -d "$compose_dir" ]] && compose down -v >/dev/null 2>&1 || true
  for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.ID}}'); do
    podman rm -f -v -t 0 "$c" >/dev/null 2>&1 || true
  done
  for v in "${anonymous[@]}" $(podman volume ls --filter "label=io.podman.compose.project=$project" --format '{{.Name}}'); do
    podman volume rm -f "$v" >/dev/null 2>&1 || true
  done
  podman network rm -f "${project}_default" >/dev/null 2>&1 || true
  rm -rf "$work"
  if ((status == 0)); then printf '\nPASS: compose test (%d s)\n' "$((SECONDS - started_at))"; else printf '\nFAIL: compose test (exit %d)\n' "$status" >&2; fi
}
trap cleanup EXIT

if $build; then bash "$CONTAINER_DIR/build-image.sh" "${build_args[@]}"; fi
image_exists "$APP_IMAGE" || fail "no image $APP_IMAGE (run build-image.sh)"
step "Load balancer image (build-nginx.sh)"
bash "$CONTAINER_DIR/build-nginx.sh"

step "The operator's directory: deploy/compose as shipped, plus their own files"
mkdir -p "$compose_dir" "$work/docs"
cp "$REPO_ROOT"/deploy/compose/{compose.yaml,replica.json,nginx.conf,nginx-static-upstream.conf} "$compose_dir/"
# The project of the shipped appliance.json, its source a directory: the example docs.
project_id="$(node -e '
  const fs = require("node:fs");
  const [from, to] = process.argv.slice(1);
  const c = JSON.parse(fs.readFileSync(from, "utf8"));
  const p = c.projects[0];
  for (const k of ["repository", "branch", "gitHost", "publish"]) delete p[k];
  fs.writeFileSync(to, JSON.stringify(c, null, 2));
  console.log(p.id);
' "$REPO_ROOT/deploy/compose/appliance.json" "$compose_dir/appliance.json")"
domain="$(node -p 'JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).projects[0].domain' "$compose_dir/appliance.json")"
source_dir="$(node -p 'JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).projects[0].sourceDir' "$compose_dir/appliance.json")"
[[ "$source_dir" == /srv/docs/* ]] || fail "the shipped appliance.json's sourceDir is not under /srv/docs: $source_dir"
cp -a "$REPO_ROOT/example-docs" "$work/docs/${source_dir#/srv/docs/}"
chmod -R a+rX "$work/docs"
cp "$CA_BUNDLE" "$compose_dir/ca.pem"
chmod 0644 "$compose_dir"/*
cat > "$compose_dir/compose.override.yaml" <<EOF
# The operator's docs directory (compose merges volumes by their target).
services:
  appliance:
    volumes:
      - $work/docs:/srv/docs:ro
EOF
# Free host ports on the loopback: other work on this machine may hold 3000 or 80.
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
admin_port="$(free_port)"
lb_port="$(free_port)"
# Podman: the load balancer with nginx-static-upstream.conf (nginx.conf needs Docker's DNS).
cat > "$compose_dir/.env" <<EOF
DOCS_APPLIANCE_IMAGE=$APP_IMAGE
DOCS_ADMIN_PUBLISH=127.0.0.1:$admin_port
DOCS_SITE_PUBLISH=127.0.0.1:$lb_port
NGINX_IMAGE=$NGINX_IMAGE
DOCS_NGINX_CONF=./nginx-static-upstream.conf
EOF
info "project $project_id at $domain, source $source_dir (example-docs); admin API on 127.0.0.1:$admin_port, lb on 127.0.0.1:$lb_port"
info "podman-compose $(podman-compose version 2>/dev/null | awk '/podman-compose/{print $3; exit}'), project name $project"

appliance="${project}_appliance_1"
wait_appliance() {
  local deadline=$((SECONDS + 120)) started=$SECONDS
  until podman healthcheck run "$appliance" >/dev/null 2>&1; do
    [[ "$(podman inspect --format '{{.State.Status}}' "$appliance")" == running ]] || fail "$appliance stopped"
    ((SECONDS < deadline)) || fail "$appliance not healthy after 120 s"
    sleep 1
  done
  info "$appliance healthy after $((SECONDS - started)) s (the image's HEALTHCHECK, podman healthcheck run)"
}

step "podman-compose up -d appliance"
quiet_compose up -d appliance
wait_appliance
admin_key="$(podman exec "$appliance" cat /data/initial-admin-key)"

step "Replica key with the appliance's CLI: podman-compose exec appliance docs-appliance keys create --org org_acme --scopes replica --json"
# podman-compose 1.0.3 prints the resolved compose file and the podman command on stdout too.
key_json="$(compose exec -T appliance docs-appliance keys create --org org_acme --scopes replica --json 2>/dev/null | grep '^{"id":' | tail -1)"
replica_key="$(node -e 'const o=JSON.parse(process.argv[1]); if(!o.key) process.exit(1); console.log(o.key)' "$key_json")" \
  || fail "keys create printed no key: $key_json"
echo "DOCS_REPLICA_KEY=$replica_key" >> "$compose_dir/.env"
info "key ${replica_key:0:9}… written to .env as DOCS_REPLICA_KEY (scopes $(node -p 'JSON.parse(process.argv[1]).scopes' "$key_json"))"

step "podman-compose up -d site ($replicas replicas, deploy.replicas)"
quiet_compose up -d site
replica_urls=()
for n in $(seq 1 "$replicas"); do
  c="${project}_site_$n"
  [[ "$(podman inspect --format '{{.State.Status}}' "$c")" == running ]] || fail "$c is not running"
  ip="$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$c")"
  replica_urls+=("site_$n=http://$ip:8080")
done
info "${replica_urls[*]} (reached from the host on the compose network's addresses)"

targets=("${replica_urls[@]}")
check() { # STEP [LABEL]; BOUND_S and QUERIES_FILE from the caller's environment
  QUERIES_FILE="${QUERIES_FILE:-}" ADMIN_URL="http://127.0.0.1:$admin_port" ADMIN_KEY="$admin_key" PROJECT_ID="$project_id" DOMAIN="$domain" \
    TARGETS="$(IFS=,; echo "${targets[*]}")" SOURCE_INDEX="$work/docs/${source_dir#/srv/docs/}/index.mdx" \
    BOUND_S="${BOUND_S:-$bound_s}" STEP="$1" LABEL="${2:-}" node "$CONTAINER_DIR/compose-check.mjs"
}

# Nothing is published yet: the replicas serve nothing, and the compose healthcheck says so.
for n in $(seq 1 "$replicas"); do
  ! podman healthcheck run "${project}_site_$n" >/dev/null 2>&1 || fail "${project}_site_$n is healthy before anything was published"
done
info "compose healthcheck of each replica: unhealthy (nothing published yet)"

step "Publish the first version; every replica serves it"
check publish "first version $(date -u +%H%M%S)"

step "The replicas' compose healthcheck (GET / with the project's Host)"
for n in $(seq 1 "$replicas"); do
  podman healthcheck run "${project}_site_$n" >/dev/null 2>&1 || fail "${project}_site_$n: the compose healthcheck fails while the site is served"
done
info "healthy: ${project}_site_1 … _$replicas"

step "podman-compose up -d lb (nginx $(podman run --rm --network none "$NGINX_IMAGE" nginx -v 2>&1 | sed 's/.*nginx\///'), nginx-static-upstream.conf)"
quiet_compose up -d lb
deadline=$((SECONDS + 30))
until [[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Host: $domain" "http://127.0.0.1:$lb_port/" || true)" == 200 ]]; do
  ((SECONDS < deadline)) || fail "the load balancer does not serve the site after 30 s"
  sleep 0.5
done
targets+=("lb=http://127.0.0.1:$lb_port")
info "GET / with Host $domain through the lb: 200; the lb joins the checks below"
# Spread: pages served from memory are not logged, a 404 is, so 6 misses show who answered.
probe="compose-lb-probe-$$"
for i in 1 2 3 4 5 6; do curl -s -o /dev/null -H "Host: $domain" "http://127.0.0.1:$lb_port/$probe-$i"; done
spread=()
for n in $(seq 1 "$replicas"); do
  log="$(podman logs "${project}_site_$n" 2>&1)"
  count="$(grep -c "/$probe-" <<<"$log" || true)"
  ((count > 0)) || fail "${project}_site_$n answered none of 6 requests through the lb"
  spread+=("site_$n: $count")
done
info "6 requests through the lb reached every replica (${spread[*]})"

step "A change published; every replica serves the new version within $bound_s s"
label="second version $(date -u +%H%M%S)"
check publish "$label"

step "A search on each replica appears in the appliance's search report"
check search

step "The appliance briefly down: the replicas keep serving and hold the beacons"
quiet_compose stop appliance
stopped_at=$SECONDS
QUERIES_FILE="$work/outage-queries.json" check outage-post "$label"
# Give each forwarder time to try and fail at least once (it sends after 1 s).
sleep 3
for n in $(seq 1 "$replicas"); do
  log="$(podman logs "${project}_site_$n" 2>&1)"
  grep -q 'replica: cannot forward beacons to the publisher; kept in memory and retried' <<<"$log" \
    || fail "${project}_site_$n did not try to forward while the appliance was down"
done
info "each replica logged: replica: cannot forward beacons to the publisher; kept in memory and retried"
quiet_compose start appliance
wait_appliance
info "the appliance was down for $((SECONDS - stopped_at)) s"
BOUND_S=60 QUERIES_FILE="$work/outage-queries.json" check outage-report

step "A publish after the outage: every replica follows again within $bound_s s"
check publish "third version $(date -u +%H%M%S)"
