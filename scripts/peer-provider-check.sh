#!/usr/bin/env bash
# Self-test of the peer provider (scripts/peer-provider.sh): starts it on a free loopback port in
# a temporary run directory, runs both sign-in flows end to end with a scripted person on its
# HTML pages (scripts/peer-provider/check_flows.py), then stops it with SIGTERM and expects a
# clean exit. Exits non-zero on any failure, with the provider's log on stderr.
#
#   scripts/peer-provider-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The check expects the default provider, whose authorization responses carry iss.
unset PEER_AUTHZ_RESPONSE_ISS

tmp=$(mktemp -d "${TMPDIR:-/tmp}/peer-provider-check.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "peer-provider-check: FAILED: $*" >&2
  echo "--- provider log ---" >&2
  cat "$tmp/stderr" >&2 || true
  exit 1
}

# A port the kernel just handed out and released: free unless something grabs it in between,
# which on a test machine's loopback is rare enough (the start would then fail loudly).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

scripts/peer-provider.sh start "$tmp/run" "$port" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!

# The ready line comes once the socket listens. The first run also builds .venv-peer from PyPI,
# hence the generous limit.
issuer=
for _ in $(seq 600); do
  issuer=$(sed -n 's/^peer provider ready: //p' "$tmp/stdout")
  [ -n "$issuer" ] && break
  kill -0 "$pid" 2>/dev/null || fail "the provider exited before it was ready"
  sleep 0.5
done
[ -n "$issuer" ] || fail "the provider was not ready within 300 s"
[ "$issuer" = "http://127.0.0.1:$port/o" ] || fail "unexpected issuer $issuer"

# The discovery document as any HTTP client gets it, before the scripted flows.
curl -fsS "$issuer/.well-known/openid-configuration" >/dev/null || fail "discovery does not answer"

PYTHONPYCACHEPREFIX="$tmp/pycache" .venv-peer/bin/python scripts/peer-provider/check_flows.py "$issuer" \
  || fail "the flows (above)"

# SIGTERM is how test harnesses stop the provider: it must end at once, with status 0.
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=
[ "$status" -eq 0 ] || fail "the provider exited with status $status on SIGTERM"
echo "peer-provider-check: passed (provider stopped cleanly on SIGTERM)"
