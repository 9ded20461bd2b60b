#!/usr/bin/env bash
# The public API of the library products is a promise: this fails when it differs from the
# checked-in baseline, api/public-api.txt, so no change to it goes unnoticed in review.
#
#   scripts/check-api.sh            compare (part of make test)
#   scripts/check-api.sh --update   rewrite the baseline after an intended change; commit it
#
# It also fails when a public type of Application or Infrastructure is not re-exported by
# Interfaces/RiderKit/Exports.swift: `import RiderKit` is the one import an embedder has, so a
# public type it leaves out is a promise nobody can use (make it `package`, or export it).
#
# The listing comes from the compiler's symbol graphs (swift package dump-symbol-graph, on the
# debug build make test has made already) through scripts/public-api.py.
set -euo pipefail
cd "$(dirname "$0")/.."

current=$(mktemp) log=$(mktemp)
trap 'rm -f "$current" "$log"' EXIT
swift package dump-symbol-graph --skip-synthesized-members --minimum-access-level public >"$log" 2>&1 \
  || { cat "$log" >&2; exit 1; }
graphs="$(swift build --show-bin-path)/../symbolgraph"
python3 scripts/public-api.py "$graphs" >"$current"

# Top-level types of the inner layers ("RiderApplication | Login | struct Login") against the
# scoped imports ("@_exported import struct RiderApplication.Login").
unexported=$(grep -E '^(RiderApplication|RiderInfrastructure) \| [A-Za-z0-9_]+ \|' "$current" \
  | awk -F' [|] ' '{print $1 "." $2}' | sort -u \
  | comm -23 - <(sed -nE 's/^@_exported import [a-z]+ (Rider[A-Za-z]+\.[A-Za-z0-9_]+)$/\1/p' \
      Interfaces/RiderKit/Exports.swift | sort -u))
if [ -n "$unexported" ]; then
  echo "check-api: public but not exported by Interfaces/RiderKit/Exports.swift (export it or make it package):" >&2
  echo "$unexported" | sed 's/^/  /' >&2
  exit 1
fi

if [ "${1:-}" = "--update" ]; then
  cp "$current" api/public-api.txt
  echo "check-api: api/public-api.txt rewritten ($(wc -l <api/public-api.txt) declarations)"
  exit 0
fi
if ! diff -u api/public-api.txt "$current"; then
  echo "check-api: the public API differs from api/public-api.txt (above: - baseline, + now)." >&2
  echo "check-api: if the change is intended, run scripts/check-api.sh --update and commit the file." >&2
  exit 1
fi
echo "check-api: public API matches api/public-api.txt ($(wc -l <"$current") declarations)"
