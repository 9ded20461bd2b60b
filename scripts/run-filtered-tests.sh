#!/usr/bin/env bash
# Runs `swift test --skip-build --filter FILTER [ARGUMENT...]` (under a wrapper such as
# scripts/with-keepassxc.sh when given) and fails unless every test the filter selects ran.
#
#   scripts/run-filtered-tests.sh FILTER [--wrap WRAPPER] [SWIFT-TEST-ARGUMENT...]
#
# SwiftPM treats "no test matched the filter" as success, so a renamed suite would turn a step
# that selects suites by name into one that runs nothing and passes. The expected number comes
# from `swift test list` with the same pattern (one line per test function, as Swift Testing
# counts them); none selected, or fewer run than selected, fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: run-filtered-tests.sh FILTER [--wrap WRAPPER] [SWIFT-TEST-ARGUMENT...]" >&2
  exit 2
fi
filter=$1
shift
wrapper=()
if [ "${1:-}" = "--wrap" ]; then
  wrapper=("$2")
  shift 2
fi

swift=${SWIFT:-swift}
expected=$("$swift" test list --skip-build 2>/dev/null | grep -cE "$filter" || true)
if [ "$expected" -eq 0 ]; then
  echo "run-filtered-tests: the filter '$filter' selects no test; was a suite renamed?" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"${wrapper[@]}" "$swift" test --skip-build --filter "$filter" "$@" 2>&1 | tee "$log" || status=$?
[ "$status" -eq 0 ] || exit "$status"

# Swift Testing's summary: "Test run with 14 tests in 4 suites passed after …".
ran=$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' "$log" | tail -1)
if [ -z "$ran" ] || [ "$ran" -lt "$expected" ]; then
  echo "run-filtered-tests: '$filter' selects $expected tests but ${ran:-none} ran" >&2
  exit 1
fi
echo "run-filtered-tests: all $expected selected tests ran"
