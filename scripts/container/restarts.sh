#!/usr/bin/env bash
# The repeated-start proof (`npm run container:restarts`; also a step of `npm run container:test`):
# the built image started RESTARTS times (default 20) on one volume, each time
#   1. to ready: the image's HEALTHCHECK (/readyz 200) passes;
#   2. a GC-heavy workload (gc-workload.mjs through `podman exec … node --expose-gc`): a second
#      connection to the appliance's database that prepares thousands of statements with forced
#      collections and leaves 20,000 more to free as it exits, then 1,000 API requests that make
#      the appliance prepare and drop statements;
#   3. `docs-appliance keys list` through `podman exec` (an operator's command beside the server);
#   4. SIGTERM (`podman stop -t 10`) right after, with the appliance's dropped statements still
#      to free (the appliance runs with NODE_OPTIONS=--expose-gc, like the workload).
# That is when a pair that frees statements unsafely aborts (Node 24 with better-sqlite3 12: a
# collection while the process tears down; gc-workload.mjs says what was measured).
# An abnormal exit is any of: the container not running before the stop, an exit status other than
# 0 (134 = SIGABRT, 139 = SIGSEGV, 137 = killed after the grace period), the workload or the
# command exiting non-zero, or Node's "Assertion failed" in any of their output. One is enough to
# fail. Prints the figures: starts, abnormal exits (of which process), time.
#
#   scripts/container/restarts.sh              build the image (build-image.sh), then the run
#   scripts/container/restarts.sh --no-build   use the image APP_IMAGE names as it is
# Settings: RESTARTS, and those of lib.sh (NODE_VERSION builds on another Node). The proof that it
# catches an aborting pair: NODE_VERSION=24.21.0 with DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1
# (passed to the appliance when set; without it the appliance refuses that pair, exit 69).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build=true
if [[ "${1:-}" == "--no-build" ]]; then build=false; fi
RESTARTS="${RESTARTS:-20}"

require_commands podman runc
$build && bash "$CONTAINER_DIR/build-image.sh"
image_exists "$APP_IMAGE" || fail "no image $APP_IMAGE (build it, or drop --no-build)"

run_id="dars-$$"
volume="$run_id-data"
work="$(mktemp -d /var/tmp/docs-appliance-restarts.XXXXXX)"
current=""
cleanup() {
  [[ -n "$current" ]] && podman rm -f -v -t 0 "$current" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

native_assertion() { awk '!/^(\{|Refusing to run:|warning: )/ && /Assertion failed|Assertion .+ failed/ { found = 1 } END { exit !found }'; }

env_args=()
if [[ -n "${DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME:-}" ]]; then
  env_args+=(-e "DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=$DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME")
fi

step "Repeated start: $RESTARTS starts of $APP_IMAGE on one volume (ready, GC-heavy workload, SIGTERM)"
image_node="$(podman run --rm --network none --entrypoint node "$APP_IMAGE" -p 'process.versions.node + " with better-sqlite3 " + require("/app/node_modules/better-sqlite3/package.json").version' 2> >(grep -v systemd >&2))"
info "image runtime: Node $image_node${env_args:+ (${env_args[*]})}"
podman volume create "$volume" >/dev/null

abnormal=0 abnormal_appliance=0 abnormal_workload=0 abnormal_cli=0
ready_times=()
started_all=$SECONDS
for ((i = 1; i <= RESTARTS; i++)); do
  current="$run_id-$i"
  start_ns=$(date +%s%N)
  podman run -d --name "$current" --read-only --tmpfs /tmp:rw,size=256m,mode=1777 --network none \
    -v "$volume:/data" -v "$CONTAINER_DIR/gc-workload.mjs:/probe/gc-workload.mjs:ro" \
    -e NODE_OPTIONS=--expose-gc "${env_args[@]}" "$APP_IMAGE" >/dev/null 2> >(grep -v systemd >&2)
  why=""
  deadline=$((SECONDS + 60))
  while ! podman healthcheck run "$current" >/dev/null 2>&1; do
    state="$(podman inspect --format '{{.State.Status}} {{.State.ExitCode}}' "$current")"
    if [[ "$state" != running* ]]; then why="died before ready ($state)"; break; fi
    if ((SECONDS > deadline)); then why="not ready after 60 s"; break; fi
    sleep 0.2
  done
  ready_ms=$((($(date +%s%N) - start_ns) / 1000000))
  workload=""
  if [[ -z "$why" ]]; then
    ready_times+=("$ready_ms")
    set +e
    workload="$(podman exec "$current" node --expose-gc /probe/gc-workload.mjs 2>&1)"
    workload_status=$?
    set -e
    if ((workload_status != 0)) || native_assertion <<<"$workload"; then
      why="workload exited $workload_status: $(grep -m1 -E 'Assertion failed|Error' <<<"$workload" | sed 's/^ *//' || tail -1 <<<"$workload")"
      abnormal_workload=$((abnormal_workload + 1))
    fi
    # An operator's command beside the server: the image's node and driver, opened and closed.
    set +e
    cli="$(podman exec "$current" docs-appliance keys list --json 2>&1)"
    cli_status=$?
    set -e
    if ((cli_status != 0)) || native_assertion <<<"$cli"; then
      why="${why:+$why; }keys list exited $cli_status$(grep -m1 -E 'Assertion failed|error' <<<"$cli" | sed 's/^ */: /')"
      abnormal_cli=$((abnormal_cli + 1))
    fi
    state="$(podman inspect --format '{{.State.Status}} {{.State.ExitCode}}' "$current")"
    [[ "$state" == running* ]] || why="${why:+$why; }died during the workload ($state)"
    podman stop -t 10 "$current" >/dev/null 2> >(grep -v systemd >&2) || true
  fi
  code="$(podman inspect --format '{{.State.ExitCode}}' "$current")"
  log="$(podman logs "$current" 2>&1)"
  # Node's own assertion lines ("#  Assertion failed: …" on 22/24, "Assertion `…' failed." before);
  # the appliance's JSON lines and the guard's refusal may quote the words and are not counted.
  appliance_why=""
  if [[ "$code" != 0 ]]; then appliance_why="exit status $code"; fi
  if native_assertion <<<"$log"; then appliance_why="${appliance_why:+$appliance_why; }\"Assertion failed\" in its log"; fi
  if [[ -n "$appliance_why" ]]; then
    abnormal_appliance=$((abnormal_appliance + 1))
    why="${why:+$why; }appliance: $appliance_why"
  fi
  if [[ -n "$why" ]]; then
    abnormal=$((abnormal + 1))
    info "start $i: ABNORMAL: $why"
    grep -v '^{' <<<"$log" | grep -m3 -E 'Assertion failed|RemoveEnvironmentCleanupHook|Statement::~Statement|Refusing' | cut -c1-160 | sed 's/^/        /' || true
  else
    info "start $i: ready in ${ready_ms} ms, workload $(grep -o '"prepared":[0-9]*,"collections":[0-9]*' <<<"$workload" | tr -d '"'), keys list 0, exit status 0"
  fi
  podman rm -v "$current" >/dev/null 2> >(grep -v systemd >&2)
  current=""
done
elapsed=$((SECONDS - started_all))

median_ready="-"
if ((${#ready_times[@]})); then
  median_ready="$(printf '%s\n' "${ready_times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ms"
fi
info "figures: Node $image_node: $RESTARTS starts, $abnormal abnormal exits (the appliance $abnormal_appliance, the workload $abnormal_workload, keys list $abnormal_cli), ${elapsed} s (ready: median $median_ready)"
((abnormal == 0)) || fail "$abnormal of $RESTARTS starts ended abnormally"
