#!/usr/bin/env bash
# A second, independently written OpenID Connect provider for RiderKit's interoperability tests:
# django-oauth-toolkit (scripts/peer-provider/) on loopback, in the foreground.
#
#   scripts/peer-provider.sh start <run-dir> <port>
#
# <run-dir> holds the SQLite database, the Django secret key and the RS256 signing key, all made
# on the first start there and reused after; it is created if missing and belongs to the caller
# (a temp dir in tests). The issuer is http://127.0.0.1:<port>/o.
#
# Prints `peer provider ready: <issuer>` on stdout once the server accepts connections (callers
# wait for that line; polling {issuer}/.well-known/openid-configuration works too). Runs until
# SIGTERM or SIGINT, then exits 0. Needs no terminal, and no network but PyPI on the first run
# (the virtualenv .venv-peer in the repository root; pip runs again only when
# scripts/requirements-peer.txt changed).
#
# PEER_AUTHZ_RESPONSE_ISS=0 in the environment starts a provider whose authorization responses
# carry no RFC 9207 iss and whose discovery does not promise one (scripts/peer-provider/peer/
# settings.py says why that is useful).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 3 ] || [ "$1" != start ]; then
  echo "usage: $0 start <run-dir> <port>" >&2
  exit 2
fi
run_dir=$2
port=$3
case $port in
  '' | *[!0-9]*) echo "peer-provider: port '$port' is not a number" >&2; exit 2 ;;
esac

venv=.venv-peer
requirements=scripts/requirements-peer.txt
mkdir -p "$venv"
# Keeps the virtualenv out of git without touching the repository's .gitignore.
echo '*' >"$venv/.gitignore"
# Tests may start several providers at once: one installs, the others wait for it (flock is
# util-linux; without it the install is simply unguarded, as in scripts/contract-venv.sh).
exec 9>"$venv/.install-lock"
if command -v flock >/dev/null; then flock 9; fi
if ! cmp -s "$requirements" "$venv/requirements-peer.txt"; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  # pip's progress goes to stderr: stdout carries only the ready line.
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/requirements-peer.txt"
fi
exec 9>&-

mkdir -p "$run_dir"
PEER_RUN_DIR=$(cd "$run_dir" && pwd)
export PEER_RUN_DIR PEER_PORT=$port DJANGO_SETTINGS_MODULE=peer.settings
# Bytecode of the project goes to the run directory, not into scripts/peer-provider/.
export PYTHONPYCACHEPREFIX="$PEER_RUN_DIR/pycache"
python="$PWD/$venv/bin/python"
cd scripts/peer-provider
# exec: the server is this process, so the caller's SIGTERM reaches it directly. serve.py also
# migrates and seeds (idempotently) before it listens.
exec "$python" serve.py
