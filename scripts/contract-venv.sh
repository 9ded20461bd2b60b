# Sourced by scripts/check-contract.sh and scripts/check-server-contract.sh (from the repository
# root): makes .venv hold exactly the pinned tools of scripts/requirements-contract.txt. pip runs
# only when that file changed since the last install (a copy of it is kept in .venv).
venv=.venv
requirements=scripts/requirements-contract.txt
if ! cmp -s "$requirements" "$venv/requirements-contract.txt"; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements-contract.txt"
fi
