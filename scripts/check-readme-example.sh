#!/usr/bin/env bash
# The code in README.md is code that CI compiles and runs: the embedding example (a target of
# its own, run by the end-to-end tests) and the testing example (a test of RiderKitTestingTests).
# They must not drift apart; nor must their copies in the DocC articles "Getting started"
# and "Swapping adapters in tests".
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
check() {
  local marker=$1 file=$2 doc=${3:-README.md}
  local readme_block
  readme_block=$(awk "/<!-- $marker:start -->/{grab=1; next} /<!-- $marker:end -->/{grab=0} grab" "$doc" \
    | sed '/^```/d')
  if [ -z "$readme_block" ]; then
    echo "check-readme-example: $doc has no $marker block" >&2
    status=1
  elif ! diff <(printf '%s\n' "$readme_block") "$file" >/dev/null; then
    echo "check-readme-example: $doc's $marker block differs from $file:" >&2
    diff <(printf '%s\n' "$readme_block") "$file" >&2 || true
    status=1
  else
    echo "check-readme-example: $doc's $marker matches $file"
  fi
}

check embed-example Examples/ReadmeExample/main.swift
check testing-example Tests/RiderKitTestingTests/ReadmeTestingExample.swift
check embed-example Examples/ReadmeExample/main.swift Interfaces/RiderKit/RiderKit.docc/GettingStarted.md
check testing-example Tests/RiderKitTestingTests/ReadmeTestingExample.swift \
  Interfaces/RiderKit/RiderKit.docc/SwappingAdaptersInTests.md
exit $status
