#!/usr/bin/env bash
# Runs Examples/MCPClient's `mcp-client` the way `make examples` does, given only the MCP server's
# URL (RIDER_RESOURCE): `rider login --web` finds Glewlwyd from the server's 401 (RFC 9728),
# registers a public client there (RFC 7591) and signs in, with a scripted person as the browser,
# for a token for that server alone (RFC 8707); then `mcp-client`, another process, takes that
# session from the vault, and the MCP Swift SDK's Client lists the tools over RiderKitMCP's
# streamable HTTP transport (the answers are Server-Sent Events) and calls `add`.
#
#   scripts/with-mcp-server.sh scripts/mcp-client-example.sh <directory holding rider and mcp-client>
#
# rider signs in first because the program's sign-in cannot be told its loopback port yet
# (RiderKit.live listens on any free port; RIDER_LISTEN reaches only rider's own user agent), and
# Glewlwyd compares redirect URIs port and all. RIDER_DPOP=off: the MCP Python SDK's server takes
# Bearer tokens only, and its metadata offers no DPoP, but Glewlwyd's does.
#
# In a home of its own, with a vault of its own: nothing of the caller's is read or written.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/with-mcp-server.sh $0 <bin-dir>" >&2; exit 2; }
: "${MCP_SERVER_URL:?run me with scripts/with-mcp-server.sh}"
bin=$1
home=$(mktemp -d "${TMPDIR:-/tmp}/mcp-client-example.XXXXXX")
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache"
export RIDER_VAULT="file:$home/vault" RIDER_VAULT_PASSPHRASE=example-only RIDER_VAULT_UNLOCK_TIMEOUT=0
export RIDER_BASE_URL= RIDER_ISSUER= RIDER_CLIENT_ID= RIDER_SCOPE= RIDER_RESOURCE="$MCP_SERVER_URL" RIDER_DPOP=off
export RIDER_LISTEN="127.0.0.1:$MCP_REDIRECT_PORT" BROWSER="$MCP_PERSON"
unset RIDER_CONFIG RIDER_TOKEN RIDER_ACCOUNT

timeout 120 "$bin/rider" login --web
output=$(timeout 120 "$bin/mcp-client" "$MCP_SERVER_URL" add a=2 b=3)
echo "$output"
grep -qx 'tools: add echo' <<<"$output" || { echo "mcp-client-example: the tools were not listed" >&2; exit 1; }
grep -qx 'add: 5' <<<"$output" || { echo "mcp-client-example: add(2, 3) did not answer 5" >&2; exit 1; }
echo "mcp-client-example: passed"
