#!/usr/bin/env bash
# Runs a command beside a real MCP server that requires OAuth: Glewlwyd (scripts/dpop-provider.sh,
# with RFC 7591 registration open, RFC 8707 resource indicators for the MCP URL and the Bearer
# client `rider-bearer`) and the MCP Python SDK's server (scripts/mcp-server.sh) on free loopback
# ports in a temporary directory. Stops both with SIGTERM afterwards and expects clean exits.
#
#   scripts/with-mcp-server.sh <command> [<argument>...]
#
# The command sees, in its environment:
#   MCP_SERVER_URL     http://127.0.0.1:<port>/mcp, the MCP endpoint and the resource
#   MCP_ISSUER         Glewlwyd's issuer, the one authorization server the resource names
#   MCP_REDIRECT_PORT  a port the client `rider-bearer` may redirect to (http://127.0.0.1:<port>/callback)
#   MCP_PERSON         a BROWSER that plays the person `ana` (scripts/mcp-server/person.sh)
# Exits with the command's status (or 1 when the rig failed, with both logs on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 <command> [<argument>...]" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/with-mcp-server.XXXXXX")
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

logs() {
  echo "--- MCP server log ---" >&2
  cat "$tmp/mcp.stderr" >&2 || true
  echo "--- Glewlwyd log (last lines) ---" >&2
  tail -n 60 "$tmp/provider.stderr" >&2 || true
}
fail() {
  echo "with-mcp-server: FAILED: $*" >&2
  logs
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
redirect_port=$(free_port)
mcp_url="http://127.0.0.1:$mcp_port/mcp"

DPOP_PROVIDER_REGISTRATION=open DPOP_PROVIDER_BEARER_CLIENT=1 DPOP_PROVIDER_NON_OIDC=1 DPOP_PROVIDER_RESOURCES="mcp:tools=$mcp_url" \
  DPOP_PROVIDER_LOG_LEVEL=DEBUG scripts/dpop-provider.sh start "$tmp/provider" "$provider_port" \
  "http://127.0.0.1:$redirect_port/callback" >"$tmp/provider.stdout" 2>"$tmp/provider.stderr" &
provider=$!
issuer=$(ready "$tmp/provider.stdout" "dpop provider ready: " "$provider" "Glewlwyd")
issuer=${issuer%% *}

# The first run also builds .venv-mcp from PyPI, hence the generous limit.
scripts/mcp-server.sh start "$tmp/mcp" "$mcp_port" "$issuer" >"$tmp/mcp.stdout" 2>"$tmp/mcp.stderr" &
server=$!
url=$(ready "$tmp/mcp.stdout" "mcp server ready: " "$server" "the MCP server")
[ "${url%% *}" = "$mcp_url" ] || fail "unexpected MCP URL ${url%% *}"

status=0
MCP_SERVER_URL=$mcp_url MCP_ISSUER=$issuer MCP_REDIRECT_PORT=$redirect_port \
  MCP_PERSON="$PWD/scripts/mcp-server/person.sh" PYTHONPYCACHEPREFIX="$tmp/pycache" "$@" || status=$?
[ "$status" -eq 0 ] || { echo "with-mcp-server: $1 exited with status $status" >&2; logs; exit "$status"; }

# SIGTERM is how test harnesses stop them: each must end at once, with status 0.
status=0; stop "$server" || status=$?; server=
[ "$status" -eq 0 ] || fail "the MCP server exited with status $status on SIGTERM"
status=0; stop "$provider" || status=$?; provider=
[ "$status" -eq 0 ] || fail "the provider exited with status $status on SIGTERM"
