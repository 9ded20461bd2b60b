#!/usr/bin/env bash
# Checks the reference server against docs/openapi.yaml with schemathesis (pinned in
# scripts/requirements-contract.txt, installed in the project's .venv): every documented
# operation is called with generated valid and invalid requests, and every answer must match
# the contract (status, content type, headers, schema), valid requests must be accepted and
# invalid ones rejected, and nothing may answer 5xx.
# Usage: scripts/check-server-contract.sh [bin-dir]   (default: swift build --show-bin-path)
# CONTRACT_EXAMPLES (default 40) bounds the generated requests per operation and phase.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=contract-venv.sh
. scripts/contract-venv.sh
schemathesis_version=$("$venv/bin/schemathesis" --version | grep -oE '[0-9]+(\.[0-9]+)+' | head -1)

bin="${1:-$(swift build --show-bin-path)}"
[ -x "$bin/rider-server" ] || { echo "check-server-contract: build rider-server first (swift build)" >&2; exit 2; }

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# An access token that outlives the run, so authenticated operations are tested as such.
# The test hooks are part of the documented contract (x-internal), so they are checked too.
"$bin/rider-server" --port 0 --seed-users 200 --access-ttl 3600 --enable-test-hooks --exit-with-parent \
  > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 1 600); do
  grep -qoE 'http://127\.0\.0\.1:[0-9]+' "$work/server.out" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
  sleep 0.1
done
base=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$work/server.out" | head -1)
[ -n "$base" ] || { echo "check-server-contract: rider-server did not start" >&2; exit 1; }

token=$(curl -sf -X POST "$base/auth/token" --data-urlencode grant_type=password \
          --data-urlencode username=demo@example.com --data-urlencode password=rider-demo \
        | "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')

echo "check-server-contract: schemathesis $schemathesis_version against rider-server at $base"
# Not tested: the hook that expires every access token, and account deletion (either would end
# this run's session, and every later authenticated operation would only see 401).
cd "$work"
"$OLDPWD/$venv/bin/schemathesis" --config-file "$OLDPWD/scripts/schemathesis.toml" run "$OLDPWD/docs/openapi.yaml" --url "$base" \
  --header "Authorization: Bearer $token" \
  --checks all \
  --exclude-path /_test/expire-access-tokens \
  --exclude-operation-id deleteOwnAccount \
  --max-examples "${CONTRACT_EXAMPLES:-40}" --seed 7 --workers 1 \
  --generation-database none --request-timeout 60 --no-color \
  --report junit --report-dir "$work/report"
