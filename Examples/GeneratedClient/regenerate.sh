#!/usr/bin/env bash
# Regenerates Sources/RiderAPI from docs/openapi.yaml with Apple's swift-openapi-generator, at the
# version pinned below, and records which contract it was made from (openapi.yaml.sha256), which
# `make test` checks (scripts/check-generated-client.sh): a change to the contract fails CI until
# this is run again, so the contract always stays consumable by the generator.
#
#   Examples/GeneratedClient/regenerate.sh
#
# The generator is built once, outside the sources, in .build-openapi-generator/ at the
# repository's root (about 1.5 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
version=1.14.3
tool="$root/.build-openapi-generator"
if [ ! -x "$tool/checkout/.build/debug/swift-openapi-generator" ] || [ "$(cat "$tool/version" 2>/dev/null)" != "$version" ]; then
  rm -rf "$tool"
  mkdir -p "$tool"
  git clone --quiet --branch "$version" --depth 1 https://github.com/apple/swift-openapi-generator "$tool/checkout"
  (cd "$tool/checkout" && swift build --product swift-openapi-generator)
  echo "$version" >"$tool/version"
fi
rm -f Sources/RiderAPI/*.swift
"$tool/checkout/.build/debug/swift-openapi-generator" generate --config openapi-generator-config.yaml \
  --output-directory Sources/RiderAPI "$root/docs/openapi.yaml"
(cd "$root" && sha256sum docs/openapi.yaml) >Sources/RiderAPI/openapi.yaml.sha256
echo "regenerate: Sources/RiderAPI made from docs/openapi.yaml by swift-openapi-generator $version"
