#!/usr/bin/env bash
# Examples/GeneratedClient/Sources/RiderAPI is generated from docs/openapi.yaml by Apple's
# swift-openapi-generator and committed (so CI need not build the generator). This fails when the
# contract changed since it was generated: run Examples/GeneratedClient/regenerate.sh, which
# also proves the new contract is still consumable by the generator, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
recorded=Examples/GeneratedClient/Sources/RiderAPI/openapi.yaml.sha256
if ! sha256sum --check --status "$recorded"; then
  echo "check-generated-client: docs/openapi.yaml changed since Examples/GeneratedClient was generated;" >&2
  echo "  run Examples/GeneratedClient/regenerate.sh and commit Sources/RiderAPI" >&2
  exit 1
fi
echo "check-generated-client: Examples/GeneratedClient is generated from the current docs/openapi.yaml"
