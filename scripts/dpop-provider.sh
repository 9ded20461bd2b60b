#!/usr/bin/env bash
# An independently written provider that checks DPoP (RFC 9449) and offers pushed authorization
# requests (RFC 9126), for RiderKit's interoperability tests: Glewlwyd, Debian's package (C, by
# Nicolas Mora; scripts/install-deps.sh installs it), on loopback, in the foreground.
#
#   scripts/dpop-provider.sh start <run-dir> <port> <redirect-uri>...
#
# <run-dir> holds Glewlwyd's SQLite database, its configuration and the RS256 key it signs
# id_tokens with, all made on the first start there; it is created if missing and belongs to the
# caller (a temp dir in tests). The issuer is http://127.0.0.1:<port>/api/oidc; the public client
# `rider-dpop` (PKCE S256, no secret) may redirect to each <redirect-uri> — Glewlwyd compares
# redirect URIs exactly, port included, so callers pick rider's `--listen` port first. Its tokens
# are DPoP-bound: Glewlwyd refuses that client any token request without a valid proof.
# The person is `ana` / `correct horse battery staple` (ana@example.com); scripts/dpop-provider/
# serve.py says how it is all set up.
#
# The redirect URIs and the DPOP_PROVIDER_* settings below are written into the database on the
# first start in <run-dir>; a later start there keeps them.
#
# Prints `dpop provider ready: <issuer> glewlwyd/<version>` on stdout once the provider answers
# its discovery document. Runs until SIGTERM or SIGINT. Needs no terminal and no network.
#
# DPOP_PROVIDER_PAR=offered|required (default off) lists Glewlwyd's pushed authorization request
# endpoint, {issuer}/par, in the metadata (`pushed_authorization_request_endpoint`,
# `require_pushed_authorization_requests`). Glewlwyd 2.7.5 checks the DPoP proof of a push from a
# DPoP-bound client there too, and knows no `dpop_jkt` parameter: a push without a DPoP header is
# refused (403 invalid_dpop_proof).
#
# DPOP_PROVIDER_REGISTRATION=open (default off) turns on RFC 7591 dynamic registration at
# {issuer}/register, open to anyone (no initial access token), and lists it in the metadata
# (`registration_endpoint`). Every registered client is public, whatever it asks for: Glewlwyd
# 2.7.5 makes one that sends RFC 7591's `"token_endpoint_auth_method": "none"` confidential and
# secretless (serve.py says why), so the method is stored as the array it expects and the answer
# says `"token_endpoint_auth_method": ["none"]` (an array, not RFC 7591's string). Registered
# clients get no client_credentials scope and are not DPoP-bound: Bearer tokens. The person
# consents to one like to any client. Redirect URIs must be https or loopback (http://127.0.0.1,
# http://localhost, http://[::1]) and are compared exactly, port included. An OpenID sign-in
# needs a `nonce` on the authorization request (Glewlwyd answers `nonce required` without one).
#
# DPOP_PROVIDER_SCOPES="a b" adds scopes the person may grant (each, like openid, needs her
# password; `ana` holds them all). Glewlwyd's metadata lists only openid in `scopes_supported`.
#
# DPOP_PROVIDER_RESOURCES="scope=url ..." turns on RFC 8707 resource indicators: a request may
# name `resource=url` when it asks for a scope tied to that url here, and the access token's `aud`
# is then the url (without a resource Glewlwyd puts the scope list in `aud`). Each scope named is
# added as DPOP_PROVIDER_SCOPES does. Glewlwyd accepts https and loopback urls without a fragment.
# Example: DPOP_PROVIDER_RESOURCES="mcp:tools=http://127.0.0.1:8001/mcp".
#
# DPOP_PROVIDER_NON_OIDC=1 accepts plain OAuth 2.0 requests, whose scope lacks openid (Glewlwyd's
# `allow-non-oidc`; by default it answers invalid_scope): what a client asking only for a
# resource's scopes, such as an MCP client asking for `mcp:tools`, sends. Such a sign-in gets no
# id_token.
#
# DPOP_PROVIDER_BEARER_CLIENT=1 adds a second public client, `rider-bearer` (PKCE S256, no secret,
# code and refresh_token, the same redirect URIs), that is not DPoP-bound: plain Bearer tokens.
#
# Access tokens are JWTs (RFC 9068 shape: header typ at+jwt; iss, aud, exp, scope, client_id; cnf.jkt
# when DPoP-bound) signed RS256 with the key of {issuer}/jwks.
#
# DPOP_PROVIDER_NONCES=1 in the environment makes every proof carry the provider's current
# DPoP-Nonce, which changes after five uses. DPOP_PROVIDER_LOG_LEVEL=DEBUG (default WARNING) logs
# why each proof was refused, on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 4 ] || [ "$1" != start ]; then
  echo "usage: $0 start <run-dir> <port> <redirect-uri>..." >&2
  exit 2
fi
run_dir=$2
port=$3
shift 3
case $port in
  '' | *[!0-9]*) echo "dpop-provider: port '$port' is not a number" >&2; exit 2 ;;
esac
if [ ! -x /usr/bin/glewlwyd ]; then
  echo "dpop-provider: glewlwyd is not installed; scripts/install-deps.sh installs it (Debian's package)" >&2
  exit 1
fi

mkdir -p "$run_dir"
DPOP_RUN_DIR=$(cd "$run_dir" && pwd)
export DPOP_RUN_DIR DPOP_PORT=$port
# exec: the caller's SIGTERM reaches serve.py, which stops Glewlwyd (and Glewlwyd goes with it
# however it ends).
exec python3 -B scripts/dpop-provider/serve.py "$@"
