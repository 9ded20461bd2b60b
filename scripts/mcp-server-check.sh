#!/usr/bin/env bash
# Self-test of the MCP rig, from Python alone: starts Glewlwyd (scripts/dpop-provider.sh, with
# open registration and the MCP server's resource) and the MCP server (scripts/mcp-server.sh) on
# free loopback ports in a temporary directory, runs scripts/mcp-server/check.py (the 401 and its
# resource_metadata, RFC 9728 metadata naming Glewlwyd, RFC 7591 registration, a token for the
# resource signed in without a browser, the MCP SDK's client listing and calling the tools over
# streamable HTTP with SSE), then stops both with SIGTERM and expects clean exits. Exits non-zero
# on any failure, with both logs on stderr.
#
#   scripts/mcp-server-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcp-server-check.XXXXXX")
provider= server=
stop() { # pid: SIGTERM, then its status
  kill -TERM "$1" 2>/dev/null || true
  local status=0
  wait "$1" 2>/dev/null || status=$?
  return $status
}
cleanup() {
  [ -z "$server" ] || stop "$server" || true
  [ -z "$provider" ] || stop "$provider" || true
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "mcp-server-check: FAILED: $*" >&2
  echo "--- MCP server log ---" >&2
  cat "$tmp/mcp.stderr" >&2 || true
  echo "--- Glewlwyd log (last lines) ---" >&2
  tail -n 60 "$tmp/provider.stderr" >&2 || true
  exit 1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# ready <file> <prefix> <pid> <what>: the text after the ready line's prefix.
ready() {
  local line=
  for _ in $(seq 600); do
    line=$(sed -n "s/^$2//p" "$1")
    [ -n "$line" ] && { echo "$line"; return; }
    kill -0 "$3" 2>/dev/null || fail "$4 exited before it was ready"
    sleep 0.5
  done
  fail "$4 was not ready within 300 s"
}

provider_port=$(free_port)
mcp_port=$(free_port)
mcp_url="http://127.0.0.1:$mcp_port/mcp"

DPOP_PROVIDER_REGISTRATION=open DPOP_PROVIDER_RESOURCES="mcp:tools=$mcp_url" DPOP_PROVIDER_LOG_LEVEL=DEBUG \
  scripts/dpop-provider.sh start "$tmp/provider" "$provider_port" "http://127.0.0.1:9/callback" \
  >"$tmp/provider.stdout" 2>"$tmp/provider.stderr" &
provider=$!
issuer=$(ready "$tmp/provider.stdout" "dpop provider ready: " "$provider" "Glewlwyd")
issuer=${issuer%% *}

# The first run also builds .venv-mcp from PyPI, hence the generous limit.
scripts/mcp-server.sh start "$tmp/mcp" "$mcp_port" "$issuer" >"$tmp/mcp.stdout" 2>"$tmp/mcp.stderr" &
server=$!
url=$(ready "$tmp/mcp.stdout" "mcp server ready: " "$server" "the MCP server")
[ "${url%% *}" = "$mcp_url" ] || fail "unexpected MCP URL ${url%% *}"

PYTHONPYCACHEPREFIX="$tmp/pycache" .venv-mcp/bin/python scripts/mcp-server/check.py check "$issuer" "$mcp_url" \
  || fail "the check (above)"

# SIGTERM is how test harnesses stop them: each must end at once, with status 0.
status=0; stop "$server" || status=$?; server=
[ "$status" -eq 0 ] || fail "the MCP server exited with status $status on SIGTERM"
status=0; stop "$provider" || status=$?; provider=
[ "$status" -eq 0 ] || fail "the provider exited with status $status on SIGTERM"
echo "mcp-server-check: passed (both stopped cleanly on SIGTERM)"
