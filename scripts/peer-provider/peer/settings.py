"""Settings of the peer provider: django-oauth-toolkit (DOT) as an OpenID Connect provider on loopback.

Everything that varies between runs comes from environment variables, the first two set by
scripts/peer-provider.sh:

  PEER_RUN_DIR             directory holding the SQLite database and the generated keys (never
                           committed)
  PEER_PORT                the TCP port the server listens on (127.0.0.1 only)
  PEER_AUTHZ_RESPONSE_ISS  "1" (default) or "0": whether authorization responses carry RFC 9207
                           `iss` and discovery advertises it (see OAUTH2_PROVIDER below)
"""

import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

RUN_DIR = Path(os.environ["PEER_RUN_DIR"]).resolve()
PORT = int(os.environ["PEER_PORT"])

# The issuer is pinned rather than derived from each request's Host header (DOT's default when
# OIDC_ISS_ENDPOINT is empty): a client that reached the server as "localhost" would otherwise be
# told a different issuer, and every endpoint URL in discovery, the `iss` of the id_token and the
# RFC 9207 `iss` of the authorization response all follow this one string.
ORIGIN = f"http://127.0.0.1:{PORT}"
ISSUER = f"{ORIGIN}/o"


def _key_file(name, make):
    """The text of RUN_DIR/name, written by make() on the first start only.

    O_EXCL makes the first writer win if two processes ever start on one run directory at once,
    and 0600 keeps the private key private even on a shared machine."""
    path = RUN_DIR / name
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text()
    with os.fdopen(fd, "w") as handle:
        handle.write(make())
    return path.read_text()


def _rsa_pem():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


RUN_DIR.mkdir(parents=True, exist_ok=True)
SECRET_KEY = _key_file("django-secret-key", lambda: os.urandom(32).hex())
OIDC_RSA_PRIVATE_KEY = _key_file("oidc-signing-key.pem", _rsa_pem)

# A test server: tracebacks stay in the log (stderr), never in a page a client parses.
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
BASE_DIR = Path(__file__).resolve().parent.parent

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "oauth2_provider",
    "peer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "peer.urls"
WSGI_APPLICATION = None  # served by peer/serve.py through waitress

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,  # peer/templates (the login page) and DOT's own consent and device pages
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": RUN_DIR / "peer.sqlite3",
        # waitress serves requests on several threads. WAL lets readers go on while one thread
        # writes; IMMEDIATE makes every transaction take the write lock up front, so a second
        # writer waits (up to the timeout) instead of failing with "database is locked" when it
        # would have had to upgrade a read lock.
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL;",
        },
    }
}

# DOT sends an unauthenticated person from /o/authorize/ and /o/device/ here, with ?next=.
LOGIN_URL = "/accounts/login/"
# Where a person who opened the login page by hand lands: the page that asks for a device code.
LOGIN_REDIRECT_URL = "/o/device/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "/static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Plain http on loopback: the cookies cannot be Secure. The session cookie stays HttpOnly.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RSA_PRIVATE_KEY": OIDC_RSA_PRIVATE_KEY,
    "OAUTH2_VALIDATOR_CLASS": "peer.validators.PeerOAuth2Validator",
    "SCOPES": {
        "openid": "OpenID Connect sign-in",
        "email": "Your email address",
        "profile": "Your user name",
        # Accepted so a client may ask for it as OpenID Connect Core §11 describes; DOT issues a
        # refresh token to the authorization code and device grants whether or not it is asked.
        "offline_access": "Stay signed in",
    },
    "DEFAULT_SCOPES": ["openid"],
    # RFC 7636 with S256 only, for every client (PKCE_REQUIRED is DOT's default; stated here because
    # the tests depend on it). The RFC 9700 gate makes the server refuse "plain" and drop it from
    # code_challenge_methods_supported.
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    # RFC 9207: the authorization response carries iss, and discovery says so
    # (authorization_response_iss_parameter_supported: true). DOT adds iss to successful responses
    # only, not to error responses (access_denied, invalid_request, invalid_scope) as RFC 9207 §2
    # requires, so a client that holds DOT to its promise refuses those error responses as
    # untrusted. PEER_AUTHZ_RESPONSE_ISS=0 turns both the parameter and the promise off, for tests
    # of how a client reports a refusal.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": os.environ.get("PEER_AUTHZ_RESPONSE_ISS", "1") != "0",
    # The remaining RFC 9700 gates (DOT 4.0's defaults): no implicit or password grant, no access
    # token in a query string, tokens stored hashed.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    # Refresh tokens rotate on use (DOT's default, stated for the tests).
    "ROTATE_REFRESH_TOKEN": True,
    # Discovery lists only what this deployment accepts: its clients use the authorization code
    # grant (response type "code") and the device grant, each with refresh tokens.
    "OIDC_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": [
        "authorization_code",
        "refresh_token",
        "urn:ietf:params:oauth:grant-type:device_code",
    ],
    # The clients are public (RFC 6749 §2.1): they authenticate with none; DOT also accepts the
    # two secret methods for confidential clients.
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_basic", "client_secret_post"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_basic", "client_secret_post"],
    # RFC 8628 §3.2: DOT has no default verification URI; without one the device authorization
    # response would carry "verification_uri": null. The complete form pre-fills the code field
    # (DeviceUserCodeView reads ?user_code=).
    "OAUTH_DEVICE_VERIFICATION_URI": f"{ISSUER}/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"{ISSUER}/device/?user_code={{user_code}}",
    "DEVICE_FLOW_INTERVAL": 5,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR"},
        "oauth2_provider": {"handlers": ["stderr"], "level": "WARNING"},
    },
}
