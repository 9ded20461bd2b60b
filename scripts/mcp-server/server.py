#!/usr/bin/env python3
"""An MCP server that requires OAuth, for RiderKit's MCP tests: the MCP Python SDK's own server
(`mcp` 2.x, whose FastMCP is now `MCPServer`), streamable HTTP at /mcp with its default answers
(a POST is answered with text/event-stream), in front of Glewlwyd (scripts/dpop-provider.sh) as
its authorization server. Started by scripts/mcp-server.sh, which documents it.

Nothing here takes part in OAuth but the token check: the SDK serves the protected resource
metadata (RFC 9728) at /.well-known/oauth-protected-resource/mcp naming the issuer, answers a
request without a valid token with 401 and `WWW-Authenticate: Bearer ... resource_metadata=...`,
and one without the required scope with 403 insufficient_scope.

The token check: Glewlwyd's access tokens are JWTs in RFC 9068's shape (header typ at+jwt, RS256,
iss, aud, exp, scope, client_id), so this server checks them itself against Glewlwyd's published
keys (its jwks_uri), without asking Glewlwyd on each request. Introspection (RFC 7662) would also
see revocations before expiry, but Glewlwyd answers it only to an authenticated client, which
would make this server a confidential client of its own; the tokens last an hour in the tests.
A token is taken when its signature verifies with a key of the issuer's JWKS, `typ` is at+jwt (so
an id_token is not an access token here), `iss` is the issuer, `aud` is this server's resource URL
(RFC 8707: Glewlwyd writes the requested `resource` there; a token asked for without one, or for
another resource, has another `aud` and is refused), it has not expired (and is not early), and it
is not sender-constrained (a `cnf` claim: a DPoP- or certificate-bound token is no Bearer token,
RFC 9449 §7.2). Its scopes are its space-separated `scope` claim.
"""
import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import urllib.request
from importlib.metadata import version

sys.dont_write_bytecode = True  # nothing of scripts/ is compiled into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from orphan_guard import stop_when_orphaned  # noqa: E402

import anyio
import jwt
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer

log = logging.getLogger("mcp-server")

# What the tools need; the protected resource metadata lists it in scopes_supported.
SCOPE = "mcp:tools"


class GlewlwydTokenVerifier:
    """The SDK's TokenVerifier for Glewlwyd's JWT access tokens, as the module docstring says."""

    def __init__(self, issuer: str, resource: str):
        self.issuer = issuer
        self.resource = resource
        jwks_uri = self._metadata()["jwks_uri"]
        # PyJWKClient caches the key set and fetches it again for a kid it does not know.
        self.keys = jwt.PyJWKClient(jwks_uri, cache_keys=True, lifespan=300, timeout=10)

    def _metadata(self) -> dict:
        # The issuer's own metadata names its key set (Glewlwyd serves OpenID Connect discovery).
        url = self.issuer.rstrip("/") + "/.well-known/openid-configuration"
        with urllib.request.urlopen(url, timeout=10) as answer:
            metadata = json.load(answer)
        if metadata.get("issuer") != self.issuer or not metadata.get("jwks_uri"):
            raise SystemExit(f"mcp-server: {url} does not describe the issuer {self.issuer}")
        return metadata

    def _verify(self, token: str) -> AccessToken | None:
        try:
            if jwt.get_unverified_header(token).get("typ", "").lower() not in ("at+jwt", "application/at+jwt"):
                log.info("refused: not an access token (typ)")
                return None
            key = self.keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(token, key.key, algorithms=["RS256", "RS384", "RS512", "ES256", "PS256"],
                                issuer=self.issuer, audience=self.resource, leeway=5,
                                options={"require": ["iss", "aud", "exp", "iat"]})
        except jwt.PyJWTError as error:
            log.info("refused: %s", error)
            return None
        if "cnf" in claims:
            log.info("refused: a sender-constrained token presented as a Bearer token")
            return None
        client_id = claims.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            log.info("refused: no client_id")
            return None
        scope = claims.get("scope", "")
        return AccessToken(token=token, client_id=client_id, scopes=scope.split() if isinstance(scope, str) else [],
                           expires_at=int(claims["exp"]), resource=self.resource,
                           subject=claims.get("sub") if isinstance(claims.get("sub"), str) else None,
                           claims={"iss": claims["iss"]})

    async def verify_token(self, token: str) -> AccessToken | None:
        # PyJWKClient fetches with urllib: off the event loop.
        return await anyio.to_thread.run_sync(self._verify, token)


def build(issuer: str, resource: str) -> MCPServer:
    server = MCPServer(
        "riderkit-test-mcp",
        instructions="A test server for RiderKit: echo and add, behind OAuth.",
        token_verifier=GlewlwydTokenVerifier(issuer, resource),
        auth=AuthSettings(issuer_url=issuer, resource_server_url=resource, required_scopes=[SCOPE],
                          validate_token_resource=True),
    )

    @server.tool()
    def echo(text: str) -> str:
        """Returns the text it is given."""
        return text

    @server.tool()
    def add(a: int, b: int) -> int:
        """Adds two integers."""
        return a + b

    return server


async def serve(port: int, issuer: str) -> None:
    resource = f"http://127.0.0.1:{port}/mcp"
    app = build(issuer, resource).streamable_http_app(host="127.0.0.1")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))

    async def announce():
        while not server.started:
            if server.should_exit:
                return
            await asyncio.sleep(0.05)
        print(f"mcp server ready: {resource} mcp/{version('mcp')}", flush=True)

    announcer = asyncio.create_task(announce())
    await server.serve()  # uvicorn stops on SIGTERM or SIGINT
    announcer.cancel()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--issuer", required=True)
    arguments = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="mcp-server: %(message)s")
    # uvicorn shuts down gracefully on SIGTERM/SIGINT, then restores these handlers and raises the
    # signal again: with them doing nothing, the process then ends with status 0.
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: None)
    # A parent may have started this process with them blocked (Foundation's Process passes its
    # own blocked signals on): then SIGTERM would wait until the parent gave up and sent SIGKILL.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    stop_when_orphaned()
    asyncio.run(serve(arguments.port, arguments.issuer))


if __name__ == "__main__":
    main()
