#!/usr/bin/env python3
"""Proves the MCP rig from Python, with no browser and nothing of RiderKit's: Glewlwyd
(scripts/dpop-provider.sh with DPOP_PROVIDER_REGISTRATION=open and DPOP_PROVIDER_RESOURCES=
"mcp:tools=<mcp-url>") and the MCP server (scripts/mcp-server.sh) must be running.

    .venv-mcp/bin/python scripts/mcp-server/check.py check <issuer> <mcp-url>
    .venv-mcp/bin/python scripts/mcp-server/check.py token <issuer> <mcp-url> [<scope>]

`check` asserts, printing one line per step: an unauthenticated initialize POST gets 401 with a
`WWW-Authenticate: Bearer` challenge naming resource_metadata; that document (RFC 9728) names
the MCP URL as its resource and the issuer as its authorization server; the issuer's metadata
has a registration_endpoint; a public client registers there (RFC 7591); the person signs in
for it and a token for the resource (RFC 8707) comes back with `aud` the MCP URL; the SDK's own
client (streamable HTTP, answered with Server-Sent Events) lists the tools and calls both; a
token asked for without the resource is refused with 401. Exits 0 when all hold.

`token` registers a client, signs in and prints the token endpoint's JSON answer (access_token,
refresh_token, ...) on stdout: how a test gets a token without a browser. <scope> defaults to
"openid mcp:tools".

    .venv-mcp/bin/python scripts/mcp-server/check.py person <url>

`person` is a browser for a program's sign-in (BROWSER=scripts/mcp-server/person.sh): it plays
the person `ana` for the authorization request at <url> (a program's own one-time address that
redirects there, or the request itself): signs in, grants the client the scope it asks for, and
follows the redirect back to the program's loopback. It detaches at once, as a browser
launcher does, and reports on stderr.

The person's part of the sign-in is played over Glewlwyd's HTTP API the way its own login page
does it (the same steps as Tests/EndToEndTests/Support/DPoPProvider.swift's signIn): sign in
with the password, grant the client its scope, then the authorization request again (with
`g_continue` past the login page), whose redirect carries the code; the redirect is read, not
followed (nothing listens at the registered loopback URI).
"""
import asyncio
import base64
import hashlib
import http.cookiejar
import json
import os
import secrets
import sys
import urllib.error
import urllib.parse
import urllib.request

# The person scripts/dpop-provider/serve.py seeds.
USERNAME, PASSWORD = "ana", "correct horse battery staple"
# Registered, never listened on: the code is read from the redirect's Location.
REDIRECT_URI = "http://127.0.0.1:9/callback"


class Failure(Exception):
    pass


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect)


def send(method, url, body=None, form=None, headers=None):
    """(status, headers, body bytes); redirects are answers, not followed."""
    headers = dict(headers or {})
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    elif form is not None:
        data, headers["Content-Type"] = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def expect(condition, what):
    if not condition:
        raise Failure(what)
    print(f"ok: {what}", file=sys.stderr)


def metadata(issuer):
    status, _, text = send("GET", issuer.rstrip("/") + "/.well-known/openid-configuration")
    if status != 200:
        raise Failure(f"the issuer's discovery document answered {status}")
    return json.loads(text)


def register(issuer_metadata):
    status, _, text = send("POST", issuer_metadata["registration_endpoint"], body={
        "client_name": "mcp-server check", "redirect_uris": [REDIRECT_URI], "application_type": "native",
        "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"]})
    if status not in (200, 201):
        raise Failure(f"registration answered {status}: {text[:300]!r}")
    answer = json.loads(text)
    if not answer.get("client_id") or answer.get("client_secret"):
        raise Failure(f"registration did not make a public client: {sorted(answer)}")
    return answer["client_id"]


def sign_in(issuer, issuer_metadata, client_id, scope, resource):
    """The authorization code flow with PKCE (and `resource` when given), the person played over HTTP."""
    parts = urllib.parse.urlsplit(issuer)
    base = f"{parts.scheme}://{parts.netloc}"
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    state = secrets.token_urlsafe(16)
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT_URI, "scope": scope,
             "state": state, "nonce": secrets.token_urlsafe(16), "code_challenge": challenge,
             "code_challenge_method": "S256"}
    if resource:
        query["resource"] = resource
    authorization = issuer_metadata["authorization_endpoint"] + "?" + urllib.parse.urlencode(query)

    location = approve(base, client_id, scope, authorization, REDIRECT_URI, "the client")
    answer = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    if answer.get("state") != state or not answer.get("code"):
        raise Failure(f"the redirect carried no code for this request: {sorted(answer)} {answer.get('error_description')}")

    form = {"grant_type": "authorization_code", "code": answer["code"], "redirect_uri": REDIRECT_URI,
            "client_id": client_id, "code_verifier": verifier}
    if resource:
        form["resource"] = resource
    status, _, text = send("POST", issuer_metadata["token_endpoint"], form=form)
    if status != 200:
        raise Failure(f"the token endpoint answered {status}: {text[:300]!r}")
    return json.loads(text)


def approve(base, client_id, scope, authorization, redirect_uri, whose):
    """The person at Glewlwyd (`base`): signs in with the password, grants `client_id` the scope,
    and follows the authorization request (through the login page when Glewlwyd shows it) to the
    redirect it answers with, which must go to `redirect_uri` (`whose` names it in a failure)."""
    status, _, _ = send("POST", base + "/api/auth/", body={"username": USERNAME, "password": PASSWORD})
    if status != 200:
        raise Failure(f"the password sign-in answered {status}")
    status, _, text = send("PUT", f"{base}/api/auth/grant/{urllib.parse.quote(client_id)}", body={"scope": scope})
    if status != 200:
        raise Failure(f"the consent answered {status}: {text[:300]!r}")
    status, headers, _ = send("GET", authorization)
    location = headers.get("Location", "")
    if status in range(300, 400) and "login.html" in location:
        callback = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query)).get("callback_url")
        if not callback:
            raise Failure(f"the login page named no callback_url: {location}")
        status, headers, _ = send("GET", callback + "&g_continue")
        location = headers.get("Location", "")
    if status not in range(300, 400) or not location.startswith(redirect_uri):
        raise Failure(f"the authorization request answered {status}, not a redirect to {whose}: {location[:200]}")
    return location


def play_person(start):
    """The person's part of someone else's sign-in, from the URL a program handed its browser."""
    status, headers, _ = send("GET", start)
    authorization = headers.get("Location", "") if status in range(300, 400) else start
    parts = urllib.parse.urlsplit(authorization)
    query = dict(urllib.parse.parse_qsl(parts.query))
    if not query.get("client_id") or not query.get("redirect_uri"):
        raise Failure(f"not an authorization request: {parts.scheme}://{parts.netloc}{parts.path}")
    base = f"{parts.scheme}://{parts.netloc}"
    location = approve(base, query["client_id"], query.get("scope", "openid"), authorization,
                       query["redirect_uri"], "the program")
    status, _, _ = send("GET", location)
    print(f"mcp check: person: the program answered its redirect with {status}", file=sys.stderr)


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def token_for(issuer, resource, scope="openid mcp:tools"):
    issuer_metadata = metadata(issuer)
    return sign_in(issuer, issuer_metadata, register(issuer_metadata), scope, resource)


async def use_tools(url, access_token):
    """The MCP SDK's client over streamable HTTP: initialize, list the tools, call both."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {access_token}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                tools = await session.list_tools()
                added = await session.call_tool("add", {"a": 2, "b": 3})
                echoed = await session.call_tool("echo", {"text": "over SSE"})
                return initialized.server_info.name, sorted(tool.name for tool in tools.tools), added, echoed


def text_of(result):
    return "".join(getattr(part, "text", "") for part in result.content)


def check(issuer, url):
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "check", "version": "1"}}}
    status, headers, _ = send("POST", url, body=initialize, headers={"Accept": "application/json, text/event-stream"})
    challenge = headers.get("WWW-Authenticate", "")
    expect(status == 401 and challenge.startswith("Bearer "), f"an initialize without a token: {status} {challenge}")
    prm_url = challenge.split('resource_metadata="', 1)[-1].split('"', 1)[0] if "resource_metadata=" in challenge else ""
    expect(prm_url, f"the challenge names resource_metadata: {prm_url}")
    status, _, text = send("GET", prm_url)
    prm = json.loads(text) if status == 200 else {}
    expect(prm.get("resource") == url, f"the protected resource metadata's resource is the MCP URL: {prm}")
    expect(prm.get("authorization_servers") == [issuer], "it names the issuer as its authorization server")
    issuer_metadata = metadata(issuer)
    expect(issuer_metadata.get("registration_endpoint"), f"the issuer registers clients at {issuer_metadata.get('registration_endpoint')}")
    client_id = register(issuer_metadata)
    expect(True, f"a public client registered: {client_id}")
    tokens = sign_in(issuer, issuer_metadata, client_id, "openid mcp:tools", url)
    access = claims(tokens["access_token"])
    expect(access.get("aud") == url and "mcp:tools" in access.get("scope", "").split(),
           f"a token for the resource: aud {access.get('aud')}, scope {access.get('scope')}, token_type {tokens.get('token_type')}")
    name, tools, added, echoed = asyncio.run(use_tools(url, tokens["access_token"]))
    expect(tools == ["add", "echo"], f"the SDK's client, initialized with {name!r}, lists the tools: {tools}")
    expect(text_of(added) == "5" and not added.is_error, f"add(2, 3) = {text_of(added)}")
    expect(text_of(echoed) == "over SSE", f"echo: {text_of(echoed)}")
    # A POST the SDK's client did not make: the answer is an event stream.
    status, headers, text = send("POST", url, body=initialize, headers={
        "Accept": "application/json, text/event-stream", "Authorization": f"Bearer {tokens['access_token']}"})
    expect(status == 200 and headers.get("Content-Type", "").startswith("text/event-stream") and b"data: " in text,
           f"an initialize with the token is answered {status} {headers.get('Content-Type')}")
    unbound = sign_in(issuer, issuer_metadata, client_id, "openid mcp:tools", None)
    status, headers, _ = send("POST", url, body=initialize, headers={
        "Accept": "application/json, text/event-stream", "Authorization": f"Bearer {unbound['access_token']}"})
    expect(status == 401, f"a token asked for without the resource (aud {claims(unbound['access_token']).get('aud')!r}) is refused: {status}")
    status, _, _ = send("POST", url, body=initialize, headers={
        "Accept": "application/json, text/event-stream", "Authorization": f"Bearer {tokens['id_token']}"}) \
        if tokens.get("id_token") else (401, None, None)
    expect(status == 401, f"an id_token is not an access token: {status}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "person":
        if os.fork():
            return  # the launcher returns at once; the person goes on
        try:
            play_person(sys.argv[2])
        except (Failure, OSError) as failure:
            print(f"mcp check: person: {failure}", file=sys.stderr)
            os._exit(1)
        os._exit(0)
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "token"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    issuer, url = sys.argv[2], sys.argv[3]
    try:
        if sys.argv[1] == "token":
            print(json.dumps(token_for(issuer, url, sys.argv[4] if len(sys.argv) > 4 else "openid mcp:tools")))
        else:
            check(issuer, url)
            print("mcp check: all good", file=sys.stderr)
    except Failure as failure:
        print(f"mcp check: {failure}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
