#!/usr/bin/env bash
# Validates docs/openapi.yaml as OpenAPI 3.1, with tools from a project-local virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "openapi-spec-validator==0.9.0"
fi
"$venv/bin/openapi-spec-validator" docs/openapi.yaml
