#!/usr/bin/env bash
# The Kubernetes proof (`npm run container:kube-test`; also a stage of test.sh, after the compose
# one): runs deploy/kubernetes/docs-appliance.yaml with `podman kube play` and proves the appliance
# and two site replicas come up from it, follow a publish, and keep serving while the appliance
# restarts. What podman cannot run (Services, the StatefulSet kind, probes, the PDB) is validated
# offline by test/deploy/kubernetes-schema.test.ts.
#
#   scripts/container/kube-test.sh              build (or reuse) the image, then the checks
#   scripts/container/kube-test.sh --ref HEAD   build from a clean export of a commit
#   scripts/container/kube-test.sh --no-build   use $APP_IMAGE as it is (test.sh built it)
#
# podman 4.3 runs Pods, Deployments, PersistentVolumeClaims and the ConfigMaps of the same file, so
# kube-variant.mjs derives a podman-runnable variant of the shipped manifest; its header lists each
# change and why (in short: names prefixed with the run id; the StatefulSet → a Pod named like its
# pod, its volumeClaimTemplate → a PVC; Services dropped and the replicas' upstream URLs → the
# appliance pod's DNS name; the Deployment played once per replica, replicas: 1, so that each pod
# has emptyDirs of its own; a ConfigMap mounted with subPath → its directory; probes dropped and
# made by this script from the shipped fields; containerPorts dropped (podman 4.3 publishes each
# on the host); the local image; the project from a directory in
# the docs-source PVC; a generated CA ConfigMap; Secrets created with `podman secret create`).
# Steps, on a network of its own (aardvark-dns resolves pod names):
#   1. play the PVCs; fill docs-source with the example docs (`podman volume import`); create the
#      docs-git Secret; play the appliance; its readinessProbe's request (GET /readyz, admin
#      port) answers 200;
#   2. the replica key with the appliance's CLI through `podman exec`, as the manifest's header
#      says; the docs-replica-key Secret from it; an admin key the same way (`keys create`);
#   3. play the site replicas; their livenessProbe's request answers 200 and their
#      readinessProbe's (GET / with the project's Host) does not while nothing is published;
#   4. publish with POST /v1/project/update/{projectId}: both replicas serve it within BOUND_S
#      (30) s of the publish's end (compose-check.mjs from the host, on the pods' addresses); the
#      readinessProbe's request answers 200; a search beacon to each replica reaches the
#      appliance's report (the rewritten upstreamSiteUrl);
#   5. `podman pod stop` the appliance: both replicas still serve; `podman pod start`: ready
#      again; a change published: both follow within BOUND_S s.
# Every pod, volume, secret and network it made is removed at the end (trap), by name and label.
# Needs root, podman (4.3: netavark, aardvark-dns), runc, curl, openssl, Node on the host.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build=true
build_args=()
case "${1:-}" in
  --no-build) build=false ;;
  --ref) build_args=(--ref "${2:?--ref needs a git ref}") ;;
esac

require_commands podman runc node curl openssl
run="dakt-$$"
work="$(mktemp -d /var/tmp/docs-appliance-kube.XXXXXX)"
network="$run"
bound_s="${BOUND_S:-30}"
replicas="${REPLICAS:-2}"
started_at=$SECONDS
secrets=()

fact() { node -p "const f=require(process.argv[1]); $1" "$work/variant/facts.json"; }
# podman prints what it created (and, on hosts without systemd, an error for any healthcheck
# timer): the test shows only what went wrong.
quiet_podman() {
  local log="$work/podman-$RANDOM.log"
  podman "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "podman $*"; }
}

cleanup() {
  local status=$?
  local pods=()
  if [[ -f "$work/variant/facts.json" ]]; then
    mapfile -t pods < <(podman pod ps --filter "label=$(fact 'f.label')" --format '{{.Name}}')
    if ((status != 0)); then
      for pod in "${pods[@]}"; do
        for c in $(podman ps -a --filter "pod=$pod" --format '{{.Names}}' | grep -v -- '-infra$'); do
          printf '\n--- podman logs --tail 15 %s\n' "$c" >&2
          podman logs --tail 15 "$c" >&2 2>&1 || true
        done
      done
    fi
  fi
  for pod in "${pods[@]}"; do podman pod rm -f -t 0 "$pod" >/dev/null 2>&1 || true; done
  # PVCs, ConfigMap volumes and emptyDirs: all named RUN-… by kube-variant.mjs.
  for v in $(podman volume ls --format '{{.Name}}' | grep -- "^$run-" || true); do podman volume rm -f "$v" >/dev/null 2>&1 || true; done
  for s in "${secrets[@]}"; do podman secret rm "$s" >/dev/null 2>&1 || true; done
  podman network rm -f "$network" >/dev/null 2>&1 || true
  rm -rf "$work"
  if ((status == 0)); then printf '\nPASS: kube test (%d s)\n' "$((SECONDS - started_at))"; else printf '\nFAIL: kube test (exit %d)\n' "$status" >&2; fi
}
trap cleanup EXIT

if $build; then bash "$CONTAINER_DIR/build-image.sh" "${build_args[@]}"; fi
image_exists "$APP_IMAGE" || fail "no image $APP_IMAGE (run build-image.sh)"

step "The podman-runnable variant of deploy/kubernetes/docs-appliance.yaml (kube-variant.mjs)"
# The customer CA: a throwaway one, as an operator's private CA would be.
openssl req -x509 -newkey rsa:2048 -nodes -keyout /dev/null -subj "/CN=docs-appliance kube test CA $run" \
  -days 2 -out "$work/ca.pem" 2>/dev/null || fail "openssl could not make a CA"
MANIFEST="$REPO_ROOT/deploy/kubernetes/docs-appliance.yaml" OUT="$work/variant" RUN="$run" IMAGE="$APP_IMAGE" \
  CA_PEM="$work/ca.pem" REPLICAS="$replicas" node "$CONTAINER_DIR/kube-variant.mjs"
project_id="$(fact 'f.projectId')"
org_id="$(fact 'f.orgId')"
domain="$(fact 'f.domain')"
appliance_pod="$(fact 'f.appliance.pod')"
appliance="$(fact 'f.appliance.container')"
mapfile -t site_pods < <(fact 'f.sites.map((s) => s.pod).join("\n")')
mapfile -t site_containers < <(fact 'f.sites.map((s) => s.container).join("\n")')
info "run $run, podman $(podman version --format '{{.Client.Version}}'), image $APP_IMAGE"
info "appliance: Pod $appliance_pod (from the StatefulSet); replicas: ${site_pods[*]} (the Deployment, once each)"
while read -r line; do info "$line"; done < <(fact 'f.rewrites.join("\n")')
info "not played: $(fact 'f.dropped.join(", ")') (schema-checked offline)"

podman network create "$network" >/dev/null
info "network $network (dns_enabled: $(podman network inspect --format '{{.DNSEnabled}}' "$network"))"

# A pod's address on the test network, from the host (its infra container holds the network).
pod_ip() {
  local infra
  infra="$(podman pod inspect --format '{{.InfraContainerID}}' "$1")"
  podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$infra"
}
# A probe of the shipped manifest, made from the host: prints the HTTP status (000: no answer).
probe() { # IP 'f.appliance.probes.readinessProbe'
  local ip="$1" spec="$2" path port headers=()
  path="$(fact "$spec.path")"
  port="$(fact "$spec.port")"
  mapfile -t headers < <(fact "Object.entries($spec.headers).map(([k, v]) => '-H\n' + k + ': ' + v).join('\n')")
  [[ -n "${headers[0]:-}" ]] || headers=()
  curl -s -o /dev/null -m 5 -w '%{http_code}' "${headers[@]}" "http://$ip:$port$path" || true
}
wait_probe() { # POD SPEC LABEL
  local pod="$1" spec="$2" label="$3" deadline=$((SECONDS + 120)) started=$SECONDS ip code
  while :; do
    ip="$(pod_ip "$pod")"
    code="$(probe "$ip" "$spec")"
    [[ "$code" == 200 ]] && break
    [[ "$(podman pod inspect --format '{{.State}}' "$pod")" == Running ]] || fail "$pod is $(podman pod inspect --format '{{.State}}' "$pod")"
    ((SECONDS < deadline)) || fail "$pod: $label answers $code after 120 s"
    sleep 1
  done
  info "$pod ($ip): $label 200 after $((SECONDS - started)) s"
}
# A Secret as podman 4.3's secretKeyRef reads it: a JSON map of base64 values.
create_secret() { # NAME KEY=VALUE…
  local name="$1"
  shift
  node -e 'const o={}; for (const a of process.argv.slice(1)) { const i=a.indexOf("="); o[a.slice(0,i)]=Buffer.from(a.slice(i+1)).toString("base64"); } process.stdout.write(JSON.stringify(o))' "$@" \
    | podman secret create "$name" - >/dev/null
  secrets+=("$name")
}

step "1. PVCs, the docs source, the docs-git Secret; podman kube play the appliance"
quiet_podman kube play --network "$network" "$work/variant/volumes.yaml"
source_dir="$(fact 'f.sourceDir')"
rel="${source_dir#$(fact 'f.docsSourceMount')/}"
mkdir -p "$work/docs"
cp -a "$REPO_ROOT/example-docs" "$work/docs/$rel"
chmod -R a+rX "$work/docs"
tar -C "$work/docs" -cf "$work/docs.tar" "$rel"
podman volume import "$(fact 'f.docsSourceVolume')" "$work/docs.tar"
source_index="$(podman volume inspect --format '{{.Mountpoint}}' "$(fact 'f.docsSourceVolume')")/$rel/index.mdx"
[[ -f "$source_index" ]] || fail "no $source_index after podman volume import"
info "PVCs: $(podman volume ls --format '{{.Name}}' | grep -- "^$run-" | paste -sd' '); $(fact 'f.docsSourceVolume') holds $rel/ (example-docs)"
for name in $(fact 'Object.keys(f.appliance.secrets).join(" ")'); do
  create_secret "$name" token=kube-test-unused webhook-secret="kube-test-$RANDOM$RANDOM"
  info "podman secret create $name (keys $(fact "f.appliance.secrets['$name'].join(', ')"))"
done
play_started=$SECONDS
quiet_podman kube play --network "$network" "$work/variant/appliance.yaml"
wait_probe "$appliance_pod" 'f.appliance.probes.readinessProbe' "readinessProbe GET $(fact 'f.appliance.probes.readinessProbe.path')"
appliance_ip="$(pod_ip "$appliance_pod")"
code="$(probe "$appliance_ip" 'f.appliance.probes.livenessProbe')"
[[ "$code" == 200 ]] || fail "the appliance's livenessProbe request answers $code"
info "livenessProbe GET $(fact 'f.appliance.probes.livenessProbe.path'): 200"
info "as played: $(podman inspect --format 'user {{.Config.User}}, read-only root {{.HostConfig.ReadonlyRootfs}}, {{len .HostConfig.CapDrop}} capabilities dropped, security {{json .HostConfig.SecurityOpt}}, memory limit {{.HostConfig.Memory}}, reservation {{.HostConfig.MemoryReservation}}, stop timeout {{.Config.StopTimeout}} s' "$appliance")"

step "2. Keys with the appliance's CLI: podman exec $appliance docs-appliance keys create …"
key_json() { # ARGS… → the JSON line keys create --json prints
  podman exec "$appliance" docs-appliance keys create --org "$org_id" --json "$@" | grep '^{"id":' | tail -1
}
replica_json="$(key_json --scopes replica --label kube-test-replicas)"
replica_key="$(node -e 'const o=JSON.parse(process.argv[1]); if(!o.key) process.exit(1); console.log(o.key)' "$replica_json")" \
  || fail "keys create printed no key: $replica_json"
for name in $(fact 'Object.keys(f.siteSecrets).join(" ")'); do
  create_secret "$name" key="$replica_key"
  info "--scopes replica: ${replica_key:0:9}… → podman secret create $name (key key)"
done
admin_json="$(key_json --label kube-test-admin)"
admin_key="$(node -e 'const o=JSON.parse(process.argv[1]); if(!o.key) process.exit(1); console.log(o.key)' "$admin_json")" \
  || fail "keys create printed no key: $admin_json"
info "admin key ${admin_key:0:9}… (scopes $(node -p 'JSON.parse(process.argv[1]).scopes' "$admin_json"))"

step "3. podman kube play the site replicas ($replicas)"
quiet_podman kube play --network "$network" "$work/variant/site.yaml"
targets=()
for i in "${!site_pods[@]}"; do
  pod="${site_pods[$i]}"
  wait_probe "$pod" 'f.siteProbes.livenessProbe' "livenessProbe GET $(fact 'f.siteProbes.livenessProbe.path')"
  ip="$(pod_ip "$pod")"
  code="$(probe "$ip" 'f.siteProbes.readinessProbe')"
  [[ "$code" != 200 ]] || fail "$pod is ready (GET / with Host $domain: 200) before anything was published"
  info "$pod: readinessProbe GET / with Host $domain: $code (nothing published yet)"
  targets+=("site_$((i + 1))=http://$ip:8080")
done
info "the replicas reached from the host: ${targets[*]}; from the pods, the appliance is $appliance_pod (aardvark-dns)"

check() { # STEP [LABEL]
  QUERIES_FILE="${QUERIES_FILE:-}" ADMIN_URL="http://$appliance_ip:3000" ADMIN_KEY="$admin_key" PROJECT_ID="$project_id" DOMAIN="$domain" \
    TARGETS="$(IFS=,; echo "${targets[*]}")" SOURCE_INDEX="$source_index" \
    BOUND_S="${BOUND_S:-$bound_s}" STEP="$1" LABEL="${2:-}" node "$CONTAINER_DIR/compose-check.mjs"
}
site_ready() {
  for pod in "${site_pods[@]}"; do
    code="$(probe "$(pod_ip "$pod")" 'f.siteProbes.readinessProbe')"
    [[ "$code" == 200 ]] || fail "$pod: readinessProbe answers $code while the site is served"
  done
  info "readinessProbe (GET / with Host $domain) of every replica: 200"
}

step "4. Publish the first version; both replicas serve it within $bound_s s"
check publish "kube first version $(date -u +%H%M%S)"
site_ready
check search

step "5. The appliance restarted: podman pod stop, the replicas keep serving, podman pod start"
label="kube second version $(date -u +%H%M%S)"
check publish "$label"
stop_started=$SECONDS
stop_at="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
podman pod stop "$appliance_pod" >/dev/null 2> >(grep -v systemd >&2)
stop_status="$(podman inspect --format '{{.State.ExitCode}}' "$appliance")"
info "podman pod stop $appliance_pod: $((SECONDS - stop_started)) s, exit status $stop_status"
stop_log="$(podman logs --since "$stop_at" "$appliance" 2>&1)"
info "its log since the stop: $(grep -o '"msg":"[^"]*"' <<<"$stop_log" | grep -v -e '"msg":"request"' -e '"msg":"cron job done"' | paste -sd' ')"
# A graceful stop with replicas following: their long-polls are answered as it begins, not waited out.
[[ "$stop_status" == 0 ]] || fail "the appliance's stop exited $stop_status, not 0 (its long-polls held the drain?)"
# The replicas' long-poll to the appliance's old address: podman stops the pod's infra container
# (its network) with the others, so the FIN of the appliance's exit never reaches them.
old_ip_hex="$(node -p 'process.argv[1].split(".").reverse().map((n) => Number(n).toString(16).padStart(2, "0")).join("").toUpperCase()' "$appliance_ip")"
for c in "${site_containers[@]}"; do
  open_polls="$(podman exec "$c" cat /proc/net/tcp | awk -v peer="$old_ip_hex:0BB8" 'NR > 1 && $3 == peer && $4 == "01"' | wc -l)"
  info "$c: $open_polls connection(s) to the old $appliance_ip:3000 still ESTABLISHED"
done
check served "$label"
site_ready
podman pod start "$appliance_pod" >/dev/null 2> >(grep -v systemd >&2)
wait_probe "$appliance_pod" 'f.appliance.probes.readinessProbe' "readinessProbe GET $(fact 'f.appliance.probes.readinessProbe.path') after podman pod start"
appliance_ip="$(pod_ip "$appliance_pod")"
info "the appliance was down for $((SECONDS - stop_started)) s"

follower_timeout_s="$(fact 'f.followerTimeoutS')"
restart_bound_s=$((follower_timeout_s + bound_s))
step "A change published after the restart: both replicas follow within $restart_bound_s s"
# A replica whose long-poll was left open on the old address notices at its request timeout
# (followerTimeoutS, 35 s after that poll began, so at most 35 s after this publish), then
# follows as usual: the bound is that timeout plus BOUND_S.
BOUND_S="$restart_bound_s" check publish "kube third version $(date -u +%H%M%S)"
info "from the first play to here: $((SECONDS - play_started)) s"
