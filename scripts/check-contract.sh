#!/usr/bin/env bash
# Validates docs/openapi.yaml as OpenAPI 3.1, with the pinned tools of scripts/requirements-contract.txt
# in a project-local virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=contract-venv.sh
. scripts/contract-venv.sh
"$venv/bin/openapi-spec-validator" docs/openapi.yaml
