# Sourced by scripts/mcp-server.sh and scripts/mcp-server-check.sh (from the repository root): makes .venv-mcp
# hold exactly the pinned packages of scripts/requirements-mcp.txt, from PyPI. pip runs only when
# that file changed since the last install (a copy of it is kept in .venv-mcp). Tests may start
# several servers at once: one installs, the others wait for it (flock is util-linux; without it
# the install is simply unguarded, as in scripts/contract-venv.sh).
mcp_venv=.venv-mcp
mcp_requirements=scripts/requirements-mcp.txt
mkdir -p "$mcp_venv"
# Keeps the virtualenv out of git without touching the repository's .gitignore.
echo '*' >"$mcp_venv/.gitignore"
exec 8>"$mcp_venv/.install-lock"
if command -v flock >/dev/null; then flock 8; fi
if ! cmp -s "$mcp_requirements" "$mcp_venv/requirements-mcp.txt"; then
  [ -x "$mcp_venv/bin/python" ] || python3 -m venv "$mcp_venv"
  "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check -r "$mcp_requirements"
  cp "$mcp_requirements" "$mcp_venv/requirements-mcp.txt"
fi
exec 8>&-
