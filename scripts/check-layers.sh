#!/usr/bin/env bash
# The inner layers import nothing but Foundation and the layers inside them:
# no FoundationNetworking, no third-party module, no adapter. RiderKitTesting, which embedding
# programs link into their tests, sees only the public API an embedding program sees.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# grep's "no match" (exit 1) is what a clean tree gives; an error (exit 2: a folder renamed or
# unreadable, a broken pattern) must fail the check, not pass as "nothing found". So no `|| true`.
search() {  # grep -rnE PATTERN FOLDER... over Swift files: the matching lines
  local rc=0
  grep -rnE --include='*.swift' "$@" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "check-layers: grep -rnE $* failed (exit $rc)" >&2; exit 2; fi
}
without() {  # the lines of stdin that do not match PATTERN
  local rc=0
  grep -vE "$1" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "check-layers: grep -vE $1 failed (exit $rc)" >&2; exit 2; fi
}
check() {
  local folder=$1; shift
  local allowed="Foundation|$*"
  local bad
  bad=$(search '^\s*(@_exported\s+|@testable\s+)?(public\s+|internal\s+|package\s+|private\s+|fileprivate\s+)?import\s+' "$folder" \
        | without "import\s+(struct\s+|enum\s+|class\s+|protocol\s+|func\s+)?($allowed)(\.[A-Za-z]+)?\s*(//.*)?$")
  if [ -n "$bad" ]; then
    echo "check-layers: $folder may import only Foundation and $*:" >&2
    echo "$bad" >&2
    status=1
  fi
  # Foundation may not be used to reach the network from an inner layer.
  local networking
  networking=$(search 'canImport\(FoundationNetworking\)|URLSession|URLRequest' "$folder" \
               | without '^[^:]+:[0-9]+:\s*//')
  if [ -n "$networking" ]; then
    echo "check-layers: $folder uses networking types:" >&2
    echo "$networking" >&2
    status=1
  fi
}

check Domain "RiderDomain"
check Application "RiderDomain|RiderApplication"
check Interfaces/RiderKitTesting "RiderDomain|RiderApplication|RiderKit|Testing"

# Embedding programs show the inner layers' messages too, and have no `rider` to run: a message
# says what is wrong in the library's terms, with a remedy (RiderError.Remedy) the CLI turns into
# its advice (Interfaces/CLI/Support/ErrorAdvice.swift). No string there names a rider command.
advice=$(search '"[^"]*(`rider |rider login)' Domain Application Infrastructure \
         | without '^[^:]+:[0-9]+:\s*//')
if [ -n "$advice" ]; then
  echo "check-layers: a string in Domain, Application or Infrastructure gives rider's advice (say it in the" >&2
  echo "library's terms and attach a RiderError.Remedy; the CLI adds the command):" >&2
  echo "$advice" >&2
  status=1
fi

# A request's credentials are written in one place (AuthorizationHeader), so a new scheme (DPoP)
# or a rule about where a token may go is added once, not once per caller.
writers=$(search '\["Authorization"\]\s*=' Application \
          | without '^Application/Authorization/AuthorizationHeader\.swift:' | without '^[^:]+:[0-9]+:\s*//')
if [ -n "$writers" ]; then
  echo "check-layers: only Application/Authorization/AuthorizationHeader.swift writes an Authorization header:" >&2
  echo "$writers" >&2
  status=1
fi

# A revocation is built and sent in one place (AuthorizationService), which applies the
# session's binding to the revocation endpoint it was issued with (docs/session.md).
# Inside the API type too: any call of `revoke(TOKEN, hint: …)`, with or without `API.`.
revokers=$(search '(API\.)?revoke\([^)]*hint:' Application Infrastructure Interfaces \
           | without '^Application/Authorization/AuthorizationService\.swift:' | without '^[^:]+:[0-9]+:\s*//' \
           | without 'func revoke\(')
if [ -n "$revokers" ]; then
  echo "check-layers: only Application/Authorization/AuthorizationService.swift builds a revocation request:" >&2
  echo "$revokers" >&2
  status=1
fi

[ $status -eq 0 ] && echo "check-layers: Domain and Application import only Foundation and inner layers;" \
  "RiderKitTesting only RiderKit's public layers and Testing; no rider command in inner-layer strings;" \
  "one Authorization header writer; one sender of revocations"
exit $status
