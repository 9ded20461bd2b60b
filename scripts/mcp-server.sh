#!/usr/bin/env bash
# A real MCP server that requires OAuth, for RiderKit's MCP tests: the MCP Python SDK's server side
# (PyPI `mcp`, scripts/mcp-server/server.py), streamable HTTP on loopback, in the foreground, in
# front of an independent authorization server (Glewlwyd, scripts/dpop-provider.sh).
#
#   scripts/mcp-server.sh start <run-dir> <port> <issuer>
#
# The MCP endpoint, which is also the protected resource's identifier (RFC 8707/9728), is
# http://127.0.0.1:<port>/mcp. Every request there needs `Authorization: Bearer <token>` with a
# JWT access token of <issuer> (Glewlwyd's http://127.0.0.1:<p>/api/oidc) whose `aud` is that URL
# and whose `scope` has `mcp:tools`: start the provider with
# DPOP_PROVIDER_RESOURCES="mcp:tools=http://127.0.0.1:<port>/mcp" and ask for
# `resource=http://127.0.0.1:<port>/mcp` (server.py says what else it checks). Without one it
# answers 401 with `WWW-Authenticate: Bearer error="invalid_token", ..., resource_metadata=
# "http://127.0.0.1:<port>/.well-known/oauth-protected-resource/mcp"`; that document (RFC 9728)
# names <issuer> in `authorization_servers` and `mcp:tools` in `scopes_supported`. A token without
# the scope gets 403 insufficient_scope. POSTs are answered with text/event-stream (the SDK's
# default); the tools are `echo(text)` and `add(a, b)`.
#
# The issuer must answer its discovery document when the server starts (it reads jwks_uri there).
# <run-dir> is created if missing and holds the server's bytecode cache; it belongs to the caller.
#
# Prints `mcp server ready: <mcp-url> mcp/<version>` on stdout once it listens; its log goes to
# stderr. Runs until SIGTERM or SIGINT, then exits 0. Needs no terminal, and no network but PyPI
# on the first run (the virtualenv .venv-mcp in the repository root; pip runs again only when
# scripts/requirements-mcp.txt changed).
#
# scripts/mcp-server/check.py drives it end to end from Python (a registered client, a token
# obtained without a browser, the SDK's client listing and calling the tools).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 4 ] || [ "$1" != start ]; then
  echo "usage: $0 start <run-dir> <port> <issuer>" >&2
  exit 2
fi
run_dir=$2
port=$3
issuer=$4
case $port in
  '' | *[!0-9]*) echo "mcp-server: port '$port' is not a number" >&2; exit 2 ;;
esac

. scripts/mcp-venv.sh >&2

mkdir -p "$run_dir"
run_dir=$(cd "$run_dir" && pwd)
# Bytecode of the project goes to the run directory, not into scripts/mcp-server/.
export PYTHONPYCACHEPREFIX="$run_dir/pycache"
# exec: the server is this process, so the caller's SIGTERM reaches uvicorn directly.
exec .venv-mcp/bin/python scripts/mcp-server/server.py --port "$port" --issuer "$issuer"
