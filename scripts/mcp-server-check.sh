#!/usr/bin/env bash
# Self-test of the MCP rig, from Python alone: scripts/with-mcp-server.sh starts Glewlwyd and the
# MCP server, then scripts/mcp-server/check.py checks the 401 and its resource_metadata, RFC 9728
# metadata naming Glewlwyd, RFC 7591 registration, a token for the resource signed in without a
# browser, and the MCP SDK's client listing and calling the tools over streamable HTTP with SSE;
# both must stop cleanly on SIGTERM. Exits non-zero on any failure, with both logs on stderr.
#
#   scripts/mcp-server-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC2016  # expanded by the inner shell, with with-mcp-server.sh's variables
scripts/with-mcp-server.sh bash -c '.venv-mcp/bin/python scripts/mcp-server/check.py check "$MCP_ISSUER" "$MCP_SERVER_URL"'
echo "mcp-server-check: passed (both stopped cleanly on SIGTERM)"
