#!/usr/bin/env bash
# BROWSER for a program's sign-in at the MCP rig's Glewlwyd: `ana` signs in, consents and is sent
# back to the program's loopback, with no browser (scripts/mcp-server/check.py person says how).
# Returns at once, as a browser launcher does.
here=$(cd "$(dirname "$0")/../.." && pwd)
exec "$here/.venv-mcp/bin/python" -B "$here/scripts/mcp-server/check.py" person "$1"
