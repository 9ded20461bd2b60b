#!/usr/bin/env python3
"""Glewlwyd (Debian's package) on loopback as a DPoP (RFC 9449) and PAR (RFC 9126) provider for
RiderKit's interoperability tests. Started by scripts/dpop-provider.sh, which documents it.

Glewlwyd keeps its whole configuration in its database and is configured through its admin API,
the way its own administration pages do it: this script makes the SQLite database from the
package's schema, starts the server, signs in as the schema's administrator and adds the OpenID
Connect plugin, the person and the client, then says it is ready.
"""
import ctypes
import http.cookiejar
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # nothing of scripts/ is compiled into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from orphan_guard import stop_when_orphaned  # noqa: E402

GLEWLWYD = "/usr/bin/glewlwyd"
SCHEMA = "/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3"
MODULES = "/usr/lib/glewlwyd"
# The administrator the package's schema makes.
ADMIN = {"username": "admin", "password": "password"}
# The seeded person and client: Tests/EndToEndTests/Support/DPoPProvider.swift names them too.
PERSON = {"username": "ana", "password": "correct horse battery staple", "name": "Ana Rider",
          "email": "ana@example.com"}
CLIENT_ID = "rider-dpop"
# The public client DPOP_PROVIDER_BEARER_CLIENT=1 adds: the same redirect URIs, plain Bearer tokens.
BEARER_CLIENT_ID = "rider-bearer"
PLUGIN = "oidc"


def log(message):
    print(f"dpop-provider: {message}", file=sys.stderr, flush=True)


def configuration(run_dir, port):
    """glewlwyd.conf (libconfig): loopback only, its log on standard error, SQLite in run_dir."""
    return f"""port={port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:{port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="console"
log_level="{os.environ.get('DPOP_PROVIDER_LOG_LEVEL', 'WARNING')}"
cookie_secure=0
cookie_same_site="empty"
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
add_x_frame_option_header_deny=true
max_post_size=16778240
admin_scope="g_admin"
profile_scope="g_profile"
hash_algorithm="SHA512"
user_module_path="{MODULES}/user"
client_module_path="{MODULES}/client"
user_auth_scheme_module_path="{MODULES}/scheme"
plugin_module_path="{MODULES}/plugin"
database = {{
  type = "sqlite3"
  path = "{run_dir}/glewlwyd.db"
}};
"""


def signing_key(run_dir):
    """An RSA key for id_tokens (RS256), made with openssl on the first start in run_dir."""
    key, public = os.path.join(run_dir, "signing.key"), os.path.join(run_dir, "signing.pub")
    if not os.path.exists(public):
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                        "-out", key], check=True, stderr=subprocess.DEVNULL)
        subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", public], check=True)
    with open(key) as k, open(public) as p:
        return k.read(), p.read()


class Browser:
    """A cookie jar and JSON requests to Glewlwyd's API; redirects are not followed."""

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), self._NoRedirect)

    def send(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def must(self, method, path, body=None):
        status, text = self.send(method, path, body)
        if status != 200:
            raise SystemExit(f"dpop-provider: {method} {path} answered {status}: {text[:500]!r}")
        return text


def switch(name, values):
    """An environment setting that must be one of values (the first is the default)."""
    value = os.environ.get(name, values[0]) or values[0]
    if value not in values:
        raise SystemExit(f"dpop-provider: {name} is {' or '.join(values)}, not {value!r}")
    return value


def scopes_and_resources():
    """DPOP_PROVIDER_SCOPES (names) and DPOP_PROVIDER_RESOURCES (scope=url pairs), checked."""
    scopes = os.environ.get("DPOP_PROVIDER_SCOPES", "").split()
    resources = {}
    for pair in os.environ.get("DPOP_PROVIDER_RESOURCES", "").split():
        scope, _, url = pair.partition("=")
        if not scope or not url:
            raise SystemExit(f"dpop-provider: DPOP_PROVIDER_RESOURCES takes scope=url pairs, not {pair!r}")
        resources.setdefault(scope, []).append(url)
        if scope not in scopes:
            scopes.append(scope)
    for scope in scopes:
        if not scope.replace(":", "").replace("_", "").replace("-", "").replace(".", "").isalnum():
            raise SystemExit(f"dpop-provider: {scope!r} is not a scope name this script makes")
    return scopes, resources


def seed(base, issuer, redirects):
    private, public = signing_key(os.environ["DPOP_RUN_DIR"])
    par = switch("DPOP_PROVIDER_PAR", ("off", "offered", "required"))
    registration = switch("DPOP_PROVIDER_REGISTRATION", ("off", "open"))
    bearer_client = switch("DPOP_PROVIDER_BEARER_CLIENT", ("0", "1")) == "1"
    non_oidc = switch("DPOP_PROVIDER_NON_OIDC", ("0", "1")) == "1"
    scopes, resources = scopes_and_resources()
    admin = Browser(base + "/api")
    admin.must("POST", "/auth/", ADMIN)
    # openid needs the person's password (the schema's openid needs nothing at all).
    admin.must("PUT", "/scope/openid", {"display_name": "Open ID", "description": "Open ID Connect scope",
                                        "password_required": True, "password_max_age": 0, "scheme": {}})
    parameters = {
        "iss": issuer,
        "jwt-type": "rsa", "jwt-key-size": "256", "key": private, "cert": public,
        "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
        # Without it every request must ask for openid (DPOP_PROVIDER_NON_OIDC=1 allows plain OAuth).
        "refresh-token-rolling": True, "allow-non-oidc": non_oidc,
        "auth-type-code-enabled": True, "auth-type-token-enabled": False, "auth-type-id-token-enabled": True,
        "auth-type-none-enabled": False, "auth-type-password-enabled": False,
        "auth-type-client-enabled": False, "auth-type-device-enabled": False, "auth-type-refresh-enabled": True,
        "pkce-allowed": True, "pkce-method-plain-allowed": False,
        "request-parameter-allow": False,
        "name-claim": "mandatory", "email-claim": "mandatory",
        "introspection-revocation-allowed": True, "introspection-revocation-allow-target-client": True,
        # RFC 9126 as DPOP_PROVIDER_PAR says: off (not in the metadata), offered, or required.
        "oauth-par-allowed": par != "off", "oauth-par-required": par == "required",
        "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:", "oauth-par-duration": 90,
        # RFC 9449: proofs checked on every endpoint; clients whose dpop_client_bound property is "1"
        # get nothing without one.
        "oauth-dpop-allowed": True, "oauth-dpop-iat-duration": 60, "oauth-dpop-iat-gap-duration": 5,
        "oauth-dpop-dpop_bound_access_tokens-property": "dpop_client_bound",
    }
    if os.environ.get("DPOP_PROVIDER_NONCES") == "1":
        parameters.update({"oauth-dpop-nonce-mandatory": True, "oauth-dpop-nonce-counter": 5})
    if registration == "open":
        # RFC 7591, open to anyone (no initial access token: register-client-auth-scope empty).
        # Registered clients get no client_credentials scope and no dpop_client_bound property:
        # public clients (token_endpoint_auth_method none) with Bearer tokens, which the person
        # consents to like any other client. The metadata lists {issuer}/register.
        parameters.update({"register-client-allowed": True, "register-client-auth-scope": [],
                           "register-client-credentials-scope": [], "register-client-token-one-use": False,
                           "register-client-management-allowed": False,
                           "register-resource-specify-allowed": True,
                           # Glewlwyd 2.7.5 makes a client that registers with RFC 7591's
                           # `"token_endpoint_auth_method": "none"` (a string) confidential, secret-
                           # less, so its token requests fail (unauthorized_client): it looks for
                           # "none" in an array (convert_client_registration_to_glewlwyd). Stored as
                           # the array it looks for, every registered client is public (and none
                           # is given a secret); the registration answer echoes ["none"].
                           "register-default-properties": {"token_endpoint_auth_method": {"value": ["none"]}}})
    if resources:
        # RFC 8707: a request may name a resource that one of its scopes is tied to; the access
        # token's aud is then that resource (without one, Glewlwyd puts the scope list there).
        parameters.update({"resource-allowed": True, "resource-scope": resources,
                           "resource-scope-and-client-property": False})
    admin.must("POST", "/mod/plugin/", {"module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect",
                                        "enabled": True, "parameters": parameters})
    for scope in scopes:
        # Like openid: granted by the person, who has signed in with her password.
        admin.must("POST", "/scope/", {"name": scope, "display_name": scope, "description": f"{scope} (tests)",
                                       "password_required": True, "password_max_age": 0, "scheme": {}})
    admin.must("POST", "/user/", {**PERSON, "enabled": True, "scope": ["openid", "g_profile", *scopes]})
    # The client database keeps only the properties its data format names: dpop_client_bound
    # joins them (the module reloads its parameters on reset).
    clients = json.loads(admin.must("GET", "/mod/client/database"))
    clients["parameters"]["data-format"]["dpop_client_bound"] = {"multiple": False, "read": True, "write": True}
    admin.must("PUT", "/mod/client/database", clients)
    admin.must("PUT", "/mod/client/database/reset")
    admin.must("POST", "/client/", {
        "client_id": CLIENT_ID, "name": "rider", "confidential": False, "enabled": True,
        "token_endpoint_auth_method": ["none"],
        "authorization_type": ["code", "refresh_token"], "redirect_uri": redirects, "scope": ["openid"],
        "dpop_client_bound": "1"})
    if json.loads(admin.must("GET", f"/client/{CLIENT_ID}")).get("dpop_client_bound") != "1":
        raise SystemExit("dpop-provider: the client was stored without dpop_client_bound")
    if bearer_client:
        admin.must("POST", "/client/", {
            "client_id": BEARER_CLIENT_ID, "name": "rider (Bearer)", "confidential": False, "enabled": True,
            "token_endpoint_auth_method": ["none"],
            "authorization_type": ["code", "refresh_token"], "redirect_uri": redirects, "scope": []})


def _dies_with_parent():
    """Glewlwyd gets SIGTERM when this process dies, however it dies (prctl PR_SET_PDEATHSIG)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


def main():
    # A parent may have started this process with SIGTERM and SIGINT blocked (Foundation's Process
    # passes its own blocked signals on), and Glewlwyd would inherit that: then a SIGTERM would
    # wait until the parent gave up and sent SIGKILL.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    run_dir, port = os.environ["DPOP_RUN_DIR"], int(os.environ["DPOP_PORT"])
    stop_when_orphaned()
    redirects = sys.argv[1:]
    base = f"http://127.0.0.1:{port}"
    issuer = f"{base}/api/{PLUGIN}"
    fresh = not os.path.exists(os.path.join(run_dir, "glewlwyd.db"))
    if fresh:
        database = sqlite3.connect(os.path.join(run_dir, "glewlwyd.db"))
        with open(SCHEMA) as schema:
            database.executescript(schema.read())
        database.close()
    config = os.path.join(run_dir, "glewlwyd.conf")
    with open(config, "w") as file:
        file.write(configuration(run_dir, port))
    # Glewlwyd logs on stderr in console mode; stdout carries only the ready line.
    server = subprocess.Popen([GLEWLWYD, "--config-file", config], stdout=sys.stderr, stdin=subprocess.DEVNULL,
                              preexec_fn=_dies_with_parent)
    stopping = []

    def stop(*_):
        stopping.append(True)
        server.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    probe = Browser(base)
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"dpop-provider: glewlwyd exited with {server.returncode}")
        try:
            probe.send("GET", "/api/auth/scheme/")  # any answer: it listens
            break
        except OSError:
            pass
        time.sleep(0.1)
    if fresh:
        seed(base, issuer, redirects)
    for _ in range(300):
        if probe.send("GET", f"/api/{PLUGIN}/.well-known/openid-configuration")[0] == 200:
            break
        time.sleep(0.1)
    else:
        raise SystemExit("dpop-provider: the discovery document never answered")
    version = subprocess.run([GLEWLWYD, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"dpop provider ready: {issuer} glewlwyd/{version}", flush=True)
    status = server.wait()
    sys.exit(0 if stopping else status)


if __name__ == "__main__":
    main()
