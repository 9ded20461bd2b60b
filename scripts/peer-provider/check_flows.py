#!/usr/bin/env python3
"""End-to-end check of the peer provider, run by scripts/peer-provider-check.sh.

    check_flows.py <issuer>

Plays both parties with nothing but HTTP: the client (RiderKit's part: discovery, PKCE, token
requests, id_token validation) and the person, who uses the provider's HTML pages the way a
browser does — GET the page, keep its cookies, post the form's fields with its CSRF token,
follow the redirects. Nothing reaches into the provider's database.

Exits non-zero, naming the step, on the first thing that is not as the standards say.
"""

import base64
import hashlib
import html.parser
import json
import secrets
import sys
import time
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from joserfc import jwt
from joserfc.jwk import KeySet
from joserfc.jwt import JWTClaimsRegistry

USERNAME = "ana@example.com"
PASSWORD = "correct horse battery staple"
BROWSER_CLIENT = "rider-cli"
DEVICE_CLIENT = "rider-device"
# Registered as http://127.0.0.1/callback; RFC 8252 §7.3 has the server accept any port.
REDIRECT_URI = "http://127.0.0.1:54321/callback"
# What a conventional OpenID Connect client asks for; offline_access is accepted but not needed
# (DOT issues a refresh token to the code grant whatever the scope).
SCOPE = "openid email offline_access"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
TIMEOUT = 10


class CheckFailed(Exception):
    pass


def expect(condition, what):
    if not condition:
        raise CheckFailed(what)


def step(text):
    print(f"peer-provider-check: {text}", flush=True)


# --- the person's browser ------------------------------------------------------------------


class FormParser(html.parser.HTMLParser):
    """The forms of a page: each one's attributes and its named fields and buttons, as a browser
    sees them (only what this check needs: input, button, attributes)."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": attrs, "inputs": [], "buttons": []})
        elif self.forms and tag == "input":
            self.forms[-1]["inputs"].append(attrs)
        elif self.forms and tag == "button":
            self.forms[-1]["buttons"].append(attrs)


def only_form(response):
    parser = FormParser()
    parser.feed(response.text)
    expect(len(parser.forms) == 1, f"{response.url} shows one form (found {len(parser.forms)})")
    return parser.forms[0]


def submit(session, page, form, fields, button):
    """Posts `form` of `page` as a browser would when `button` (a dict of name/value, or None
    for an unnamed submit) is clicked: every input's current value (hidden fields and the CSRF
    token included), overridden by `fields`, to the form's action (default: the page's URL)."""
    data = {}
    for field in form["inputs"]:
        if field.get("name") and field.get("type") not in ("submit", "button"):
            data[field["name"]] = field.get("value", "")
    data.update(fields)
    if button and button.get("name"):
        data[button["name"]] = button.get("value", "")
    action = urljoin(page.url, form["attrs"].get("action") or page.url)
    # A browser sends Origin with a form POST; Django's CSRF check compares it with the host.
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    return session.post(action, data=data, headers={"Origin": origin}, allow_redirects=False, timeout=TIMEOUT)


def follow(session, response, stop_at=None):
    """Follows redirects within the provider; returns the last response, or the redirect whose
    target starts with `stop_at` (the client's loopback redirect, which nobody listens on)."""
    for _ in range(10):
        if response.status_code not in (301, 302, 303, 307):
            return response
        location = urljoin(response.url, response.headers["Location"])
        if stop_at and location.startswith(stop_at):
            return response
        response = session.get(location, allow_redirects=False, timeout=TIMEOUT)
    raise CheckFailed("too many redirects")


def sign_in(session, page):
    """On the login page: fills id_username and id_password, clicks the submit button."""
    form = only_form(page)
    expect(form["attrs"].get("id") == "login-form", "the login page's form is #login-form")
    names = {field.get("id"): field.get("name") for field in form["inputs"]}
    expect(names.get("id_username") == "username" and names.get("id_password") == "password",
           "the login form has #id_username and #id_password")
    expect(any(b.get("type") == "submit" for b in form["buttons"]), "the login form has a submit button")
    response = submit(session, page, form, {"username": USERNAME, "password": PASSWORD}, None)
    expect(response.status_code == 302, f"signing in redirects (got {response.status_code})")
    return response


# --- the client's part -----------------------------------------------------------------------


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def token_request(metadata, **form):
    return requests.post(metadata["token_endpoint"], data=form, timeout=TIMEOUT)


def oauth_error(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


def check_tokens(response, what):
    expect(response.status_code == 200, f"{what}: 200 (got {response.status_code}: {response.text[:300]})")
    tokens = response.json()
    expect(tokens.get("token_type", "").lower() == "bearer", f"{what}: token_type Bearer")
    for name in ("access_token", "refresh_token", "expires_in", "scope"):
        expect(name in tokens, f"{what}: the response has {name}")
    expect(response.headers.get("Cache-Control") == "no-store", f"{what}: Cache-Control no-store")
    return tokens


def validate_id_token(id_token, metadata, client_id, nonce=None):
    """OpenID Connect Core §3.1.3.7: signature by a key of jwks_uri, iss, aud, exp, nonce."""
    header = json.loads(base64.urlsafe_b64decode(id_token.split(".")[0] + "=="))
    expect(header.get("alg") == "RS256" and header.get("kid"), f"id_token header is RS256 with a kid: {header}")
    keys = KeySet.import_key_set(requests.get(metadata["jwks_uri"], timeout=TIMEOUT).json())
    token = jwt.decode(id_token, keys, algorithms=["RS256"])  # picks the key by kid
    claims = token.claims
    registry = JWTClaimsRegistry(
        iss={"essential": True, "value": metadata["issuer"]},
        aud={"essential": True, "value": client_id},
        sub={"essential": True},
        exp={"essential": True},
        iat={"essential": True},
    )
    registry.validate(claims)
    if nonce is not None:
        expect(claims.get("nonce") == nonce, "id_token nonce is the request's")
    return claims


def userinfo(metadata, access_token):
    return requests.get(metadata["userinfo_endpoint"], headers={"Authorization": f"Bearer {access_token}"},
                        timeout=TIMEOUT)


def discovery(issuer):
    response = requests.get(f"{issuer}/.well-known/openid-configuration", timeout=TIMEOUT)
    expect(response.status_code == 200, "discovery answers 200")
    metadata = response.json()
    expect(metadata["issuer"] == issuer, f"discovery issuer is exactly {issuer} (got {metadata['issuer']})")
    for name in ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri",
                 "revocation_endpoint", "device_authorization_endpoint"):
        expect(metadata.get(name, "").startswith(issuer + "/"), f"discovery names {name} under the issuer")
    expect(set(metadata["grant_types_supported"]) >= {"authorization_code", "refresh_token", DEVICE_GRANT},
           "grant_types_supported has the three grants")
    expect(metadata["code_challenge_methods_supported"] == ["S256"], "code_challenge_methods_supported is [S256]")
    expect(metadata.get("authorization_response_iss_parameter_supported") is True, "RFC 9207 iss is advertised")
    oauth = requests.get(urljoin(issuer, "/.well-known/oauth-authorization-server/o"), timeout=TIMEOUT).json()
    expect(oauth["issuer"] == issuer, "RFC 8414 metadata has the same issuer")
    step(f"discovery ok: {issuer}")
    return metadata


# --- (a) the browser flow --------------------------------------------------------------------


def authorization_request(metadata, **overrides):
    verifier = b64url(secrets.token_bytes(32))
    params = {
        "response_type": "code",
        "client_id": BROWSER_CLIENT,
        "redirect_uri": REDIRECT_URI,
        "scope": SCOPE,
        "state": secrets.token_urlsafe(16),
        "nonce": secrets.token_urlsafe(16),
        "code_challenge": b64url(hashlib.sha256(verifier.encode()).digest()),
        "code_challenge_method": "S256",
    }
    params.update(overrides)
    params = {k: v for k, v in params.items() if v is not None}
    return params, verifier


def redirect_parameters(response):
    location = response.headers["Location"]
    expect(location.startswith(REDIRECT_URI + "?"), f"redirects to the loopback redirect URI (got {location})")
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def browser_flow(metadata):
    issuer = metadata["issuer"]
    person = requests.Session()
    params, verifier = authorization_request(metadata)

    page = person.get(metadata["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    expect(page.status_code == 302 and "/accounts/login/" in page.headers["Location"],
           "an unauthenticated authorization request goes to the login page")
    login_page = follow(person, page)
    response = sign_in(person, login_page)
    consent = follow(person, response)
    expect(consent.status_code == 200 and urlsplit(consent.url).path == urlsplit(metadata["authorization_endpoint"]).path,
           f"after signing in, the consent page (the authorization endpoint) shows (got {consent.status_code} {consent.url})")
    form = only_form(consent)
    expect(form["attrs"].get("id") == "authorizationForm", "the consent form is #authorizationForm")
    allow = [i for i in form["inputs"] if i.get("name") == "allow" and i.get("type") == "submit"]
    expect(len(allow) == 1, "the consent form has the submit input[name=allow]")
    response = submit(person, consent, form, {}, allow[0])
    expect(response.status_code == 302, f"consent redirects (got {response.status_code}: {response.text[:300]})")
    answer = redirect_parameters(response)
    expect(answer.get("state") == params["state"], "the authorization response has the request's state")
    expect(answer.get("iss") == issuer, f"the authorization response has iss = issuer (RFC 9207): {answer}")
    expect("code" in answer, f"the authorization response has a code: {answer}")
    step("authorization response ok: code, state and iss, to the loopback redirect on port 54321")

    response = token_request(metadata, grant_type="authorization_code", code=answer["code"],
                             redirect_uri=REDIRECT_URI, client_id=BROWSER_CLIENT, code_verifier=verifier)
    tokens = check_tokens(response, "code exchange")
    expect("id_token" in tokens, "code exchange: an id_token (scope openid)")
    claims = validate_id_token(tokens["id_token"], metadata, BROWSER_CLIENT, nonce=params["nonce"])
    expect(claims.get("email") == USERNAME, f"id_token has email (scope email): {claims}")
    step(f"code exchange ok; id_token valid against jwks_uri: sub={claims['sub']} email={claims['email']}")

    replay = token_request(metadata, grant_type="authorization_code", code=answer["code"],
                           redirect_uri=REDIRECT_URI, client_id=BROWSER_CLIENT, code_verifier=verifier)
    expect(replay.status_code == 400 and oauth_error(replay) == "invalid_grant",
           f"a replayed code is invalid_grant (got {replay.status_code} {replay.text[:200]})")

    info = userinfo(metadata, tokens["access_token"])
    expect(info.status_code == 200, f"userinfo 200 (got {info.status_code})")
    expect(info.json().get("sub") == claims["sub"] and info.json().get("email") == USERNAME,
           f"userinfo has the id_token's sub and the email: {info.json()}")
    step(f"userinfo ok: {info.json()}")

    response = token_request(metadata, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                             client_id=BROWSER_CLIENT)
    refreshed = check_tokens(response, "refresh")
    expect(refreshed["refresh_token"] != tokens["refresh_token"], "the refresh token rotates")
    expect(refreshed["access_token"] != tokens["access_token"], "refresh gives a new access token")
    if "id_token" in refreshed:
        validate_id_token(refreshed["id_token"], metadata, BROWSER_CLIENT)
    reuse = token_request(metadata, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                          client_id=BROWSER_CLIENT)
    expect(reuse.status_code == 400 and oauth_error(reuse) == "invalid_grant",
           f"the rotated-out refresh token is invalid_grant (got {reuse.status_code} {reuse.text[:200]})")
    step(f"refresh ok: rotated, old one refused; id_token on refresh: {'id_token' in refreshed}")

    # RFC 7009: a public client authenticates with its client_id alone.
    revoked = requests.post(metadata["revocation_endpoint"], timeout=TIMEOUT, data={
        "token": refreshed["access_token"], "token_type_hint": "access_token", "client_id": BROWSER_CLIENT})
    expect(revoked.status_code == 200, f"revoking the access token: 200 (got {revoked.status_code})")
    after = userinfo(metadata, refreshed["access_token"])
    expect(after.status_code == 401, f"a revoked access token gets 401 at userinfo (got {after.status_code})")
    revoked = requests.post(metadata["revocation_endpoint"], timeout=TIMEOUT, data={
        "token": refreshed["refresh_token"], "token_type_hint": "refresh_token", "client_id": BROWSER_CLIENT})
    expect(revoked.status_code == 200, f"revoking the refresh token: 200 (got {revoked.status_code})")
    after = token_request(metadata, grant_type="refresh_token", refresh_token=refreshed["refresh_token"],
                          client_id=BROWSER_CLIENT)
    expect(after.status_code == 400 and oauth_error(after) == "invalid_grant",
           f"a revoked refresh token is invalid_grant (got {after.status_code} {after.text[:200]})")
    unknown = requests.post(metadata["revocation_endpoint"], timeout=TIMEOUT,
                            data={"token": "no-such-token", "client_id": BROWSER_CLIENT})
    expect(unknown.status_code == 200, "revoking an unknown token is 200 (RFC 7009 §2.2)")
    step("revocation ok: access and refresh token revoked, both refused after")

    # PKCE is required: an authorization request without a code_challenge is refused at once,
    # with a redirect carrying the error (the client and redirect URI being valid).
    params, _ = authorization_request(metadata, code_challenge=None, code_challenge_method=None)
    response = person.get(metadata["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    expect(response.status_code == 302, f"an authorization request without PKCE redirects (got {response.status_code})")
    answer = redirect_parameters(response)
    expect(answer.get("error") == "invalid_request" and answer.get("state") == params["state"],
           f"an authorization request without PKCE is invalid_request: {answer}")
    # "plain" is refused too, but only once the person has consented: DOT checks the method
    # when it stores the code, not when it validates the request.
    params, _ = authorization_request(metadata, code_challenge_method="plain")
    consent = person.get(metadata["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    expect(consent.status_code == 200, f"plain PKCE still shows the consent page (got {consent.status_code})")
    form = only_form(consent)
    allow = next(i for i in form["inputs"] if i.get("name") == "allow")
    answer = redirect_parameters(submit(person, consent, form, {}, allow))
    expect(answer.get("error") == "invalid_request" and "code" not in answer and answer.get("state") == params["state"],
           f"an authorization request with plain PKCE ends in invalid_request: {answer}")
    step("PKCE required: none is invalid_request at once, plain is invalid_request after consent")

    # The Cancel button (unnamed submit, so no "allow" field) denies.
    params, _ = authorization_request(metadata)
    consent = person.get(metadata["authorization_endpoint"], params=params, allow_redirects=False, timeout=TIMEOUT)
    expect(consent.status_code == 200, "a signed-in person sees the consent page again")
    response = submit(person, consent, only_form(consent), {}, None)
    answer = redirect_parameters(response)
    expect(answer.get("error") == "access_denied" and answer.get("state") == params["state"],
           f"Cancel on the consent page is access_denied: {answer}")
    step("consent Cancel ok: access_denied with state")


# --- (b) the device flow ---------------------------------------------------------------------


def device_authorization(metadata):
    response = requests.post(metadata["device_authorization_endpoint"], timeout=TIMEOUT,
                             data={"client_id": DEVICE_CLIENT, "scope": "openid email"})
    expect(response.status_code == 200, f"device authorization: 200 (got {response.status_code} {response.text[:300]})")
    grant = response.json()
    for name in ("device_code", "user_code", "verification_uri", "expires_in"):
        expect(name in grant, f"device authorization response has {name}: {grant}")
    return grant


def device_poll(metadata, grant):
    return token_request(metadata, grant_type=DEVICE_GRANT, device_code=grant["device_code"], client_id=DEVICE_CLIENT)


def device_decide(metadata, grant, action):
    """The person: opens verification_uri in a fresh browser, signs in, types the user code,
    then presses Accept or Deny (button[name=action][value=accept|deny])."""
    person = requests.Session()
    page = person.get(grant["verification_uri"], allow_redirects=False, timeout=TIMEOUT)
    expect(page.status_code == 302 and "/accounts/login/" in page.headers["Location"],
           "the verification page asks an unauthenticated person to sign in")
    code_page = follow(person, sign_in(person, follow(person, page)))
    expect(code_page.status_code == 200 and code_page.url.rstrip("/").endswith("/device"),
           f"after signing in, the code page shows (got {code_page.status_code} {code_page.url})")
    form = only_form(code_page)
    expect(any(i.get("name") == "user_code" and i.get("id") == "id_user_code" for i in form["inputs"]),
           "the code page has input#id_user_code[name=user_code]")
    response = submit(person, code_page, form, {"user_code": grant["user_code"]}, None)
    expect(response.status_code == 302, f"a right user code redirects to the confirmation (got {response.status_code})")
    confirm = follow(person, response)
    expect(f"/device-confirm/{DEVICE_CLIENT}/{grant['user_code']}" in confirm.url,
           f"the confirmation page is device-confirm/<client_id>/<user_code> (got {confirm.url})")
    form = only_form(confirm)
    button = [b for b in form["buttons"] if b.get("name") == "action" and b.get("value") == action]
    expect(len(button) == 1, f"the confirmation page has button[name=action][value={action}]")
    status = follow(person, submit(person, confirm, form, {}, button[0]))
    expect(status.status_code == 200 and "/device-grant-status/" in status.url,
           f"deciding shows the grant status page (got {status.status_code} {status.url})")
    return status


def device_flow(metadata):
    grant = device_authorization(metadata)
    issuer = metadata["issuer"]
    expect(grant["verification_uri"] == f"{issuer}/device/", f"verification_uri is {issuer}/device/")
    expect(grant.get("verification_uri_complete") == f"{issuer}/device/?user_code={grant['user_code']}",
           "verification_uri_complete carries the user code")
    interval = grant.get("interval", 5)
    step(f"device authorization ok: user_code={grant['user_code']} interval={interval} expires_in={grant['expires_in']}")

    pending = device_poll(metadata, grant)
    expect(pending.status_code == 400 and oauth_error(pending) == "authorization_pending",
           f"polling before approval: authorization_pending (got {pending.status_code} {pending.text[:200]})")

    status = device_decide(metadata, grant, "accept")
    expect("Authorized" in status.text, "the status page says the device is authorized")
    time.sleep(interval)  # RFC 8628 §3.5: wait the interval between polls
    tokens = check_tokens(device_poll(metadata, grant), "device token")
    if "id_token" in tokens:
        claims = validate_id_token(tokens["id_token"], metadata, DEVICE_CLIENT)
        step(f"device id_token valid: sub={claims['sub']}")
    info = userinfo(metadata, tokens["access_token"])
    expect(info.status_code == 200 and info.json().get("email") == USERNAME, f"device token works at userinfo: {info.text}")
    refreshed = check_tokens(token_request(metadata, grant_type="refresh_token", refresh_token=tokens["refresh_token"],
                                           client_id=DEVICE_CLIENT), "device refresh")
    expect(refreshed["refresh_token"] != tokens["refresh_token"], "the device client's refresh token rotates")
    step(f"device flow ok: tokens after approval (id_token: {'id_token' in tokens}), refresh rotates")

    denied_grant = device_authorization(metadata)
    device_decide(metadata, denied_grant, "deny")
    denied = device_poll(metadata, denied_grant)
    expect(denied.status_code == 400 and oauth_error(denied) == "access_denied",
           f"polling after Deny: access_denied (got {denied.status_code} {denied.text[:200]})")
    step("device Deny ok: access_denied")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_flows.py <issuer>")
    try:
        metadata = discovery(sys.argv[1])
        browser_flow(metadata)
        device_flow(metadata)
    except CheckFailed as failure:
        print(f"peer-provider-check: FAILED: {failure}", file=sys.stderr)
        return 1
    except Exception as error:  # a crash in the check is a failure too, with its cause
        print(f"peer-provider-check: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    step("all flows passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
