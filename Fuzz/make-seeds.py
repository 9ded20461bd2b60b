#!/usr/bin/env python3
"""Writes the seed corpus under Fuzz/Corpus/<target>/ (committed; run again only to change it).

Each seed is one input as its target reads it: for most targets the first line is a header value
and the rest the body (see Sources/FuzzSupport/FuzzInput.swift).
"""
import base64, hashlib, json, os, struct

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus")

def write(target, name, data):
    folder = os.path.join(root, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)

date = "Thu, 02 Jan 2025 03:04:05 GMT"
def jwt(payload):
    enc = lambda o: base64.urlsafe_b64encode(json.dumps(o).encode()).rstrip(b"=").decode()
    return enc({"alg": "HS256", "typ": "JWT"}) + "." + enc(payload) + ".c2lnbmF0dXJl"

token = {"access_token": "at_Zm9vYmFy", "token_type": "Bearer", "expires_in": 3600,
         "refresh_token": "rt_YmF6cXV4", "user_id": "u_000001", "role": "user", "scope": "riders"}
def tok(**changes):
    body = dict(token)
    for key, value in changes.items():
        if value is None: body.pop(key, None)
        else: body[key] = value
    return date + "\n" + json.dumps(body)

write("fuzz-token-response", "complete", tok())
write("fuzz-token-response", "expires-string", tok(expires_in="120"))
write("fuzz-token-response", "expires-negative", tok(expires_in=-5))
write("fuzz-token-response", "expires-huge", tok(expires_in=1e300))
write("fuzz-token-response", "no-refresh", tok(refresh_token=None, user_id=None, role=None))
write("fuzz-token-response", "type-mac", tok(token_type="mac"))
write("fuzz-token-response", "jwt-no-expiry", tok(access_token=jwt({"sub": "u_000001", "exp": 1735790645}), expires_in=None))
write("fuzz-token-response", "obsolete-date", "Thursday, 02-Jan-25 03:04:05 GMT\n" + json.dumps(token))
write("fuzz-token-response", "asctime-date", "Thu Jan  2 03:04:05 2025\n" + json.dumps(token))
# A finding of the old substring oracle (CI, fuzz-smoke): a role that holds the refresh token is shown
# on purpose; the invariant now checks that renderings do not change with the tokens.
write("fuzz-token-response", "role-holds-token", tok(role="use" + token["refresh_token"]))

write("fuzz-token-error", "invalid-grant", "\n" + json.dumps({"error": "invalid_grant", "error_description": "wrong email or password"}))
write("fuzz-token-error", "invalid-client-basic", 'Basic realm="token"\n' + json.dumps({"error": "invalid_client"}))
write("fuzz-token-error", "bare-basic", 'Basic realm="token"\n')
write("fuzz-token-error", "bearer-challenge", 'Bearer realm="api", error="invalid_token", error_description="expired"\n{}')
write("fuzz-token-error", "invalid-scope", "\n" + json.dumps({"error": "invalid_scope", "error_description": "no such scope\nline two"}))
write("fuzz-token-error", "problem-body", "\n" + json.dumps({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": "x"}))

problem = {"type": "about:blank", "title": "Unprocessable Content", "status": 422, "detail": "the profile is invalid",
           "errors": [{"field": "display_name", "message": "is too long"}, {"field": "sports[0]", "message": "unknown sport"}]}
write("fuzz-problem", "field-errors", "\n" + json.dumps(problem))
write("fuzz-problem", "retry-seconds", "7\n" + json.dumps({"title": "Too Many Requests", "status": 429}))
write("fuzz-problem", "retry-date", "Thu, 02 Jan 2025 03:05:05 GMT\n" + json.dumps({"title": "Too Many Requests"}))
write("fuzz-problem", "retry-inf", "inf\n{}")
write("fuzz-problem", "html", "\n<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
write("fuzz-problem", "control-characters", "\n" + json.dumps({"detail": "\u001b[31mred\u001b[0m\r\nsecond line"}))

user = {"id": "u_000001", "email": "ada@example.com", "display_name": "Ada Lovelace", "role": "user",
        "rider_type": "learner", "created_at": "2025-01-02T03:04:05Z"}
rider = {"user_id": "u_000001", "display_name": "Ada Lovelace", "rider_type": "learner", "description": None,
         "avatar_url": "https://example.test/a.png", "sports": ["gravel", "road"], "updated_at": "2025-01-02T03:04:05.123Z"}
write("fuzz-user-json", "user", '"v1"\n' + json.dumps(user))
write("fuzz-user-json", "user-minimal", '\n' + json.dumps({"id": "u_2", "email": "b@c.d", "display_name": "B"}))
write("fuzz-user-json", "page", 'W/"p1"\n' + json.dumps({"users": [user, dict(user, id="u_000002", role="admin")],
                                                          "total": 2, "page": 1, "limit": 20, "has_next": False}))
write("fuzz-user-json", "rider", '"r7"\n' + json.dumps(rider))
write("fuzz-user-json", "registered", '\n' + json.dumps({"id": "u_000002"}))

compact = dict(separators=(",", ":"))
write("fuzz-user-json", "preferences", '"p1"\n' + json.dumps({
    "notifications": {"ride_invitations": True, "messages": False, "newsletter": False, "weekly_digest": True},
    "visibility": {"profile": "members", "show_base_location": False}, "units": "imperial"}, **compact))
write("fuzz-user-json", "base-location", '"l1"\n' + json.dumps({"latitude": -33.9249, "longitude": 18.4241,
    "place_name": "Cape Town", "updated_at": "2025-01-02T03:04:05Z"}, **compact))
write("fuzz-user-json", "sports", 'public, max-age=86400\n' + json.dumps({"sports": [{"id": "gravel", "name": "Gravel"},
    {"id": "mtb", "name": "Mountain bike"}]}, **compact))
write("fuzz-user-json", "rider-sports", '\n' + json.dumps([{"id": "gravel", "name": "Gravel", "level": "advanced"}]))
# Found by fuzz-user-json: a field name from the payload (a member preferences keep) in the error message,
# with a control character; names on the path are now clipped like problem text.
write("fuzz-user-json", "regression-control-character-key",
      b'\n{"latitude": 47.3769, "longitude":7, "\x7flace_name": "Z\xff:04:05Z"}')

for name, value in [("imf", date), ("rfc850", "Thursday, 02-Jan-25 03:04:05 GMT"), ("asctime", "Thu Jan  2 03:04:05 2025"),
                    ("seconds", "120"), ("zero", "0"), ("negative", "-1"), ("many-digits", "9" * 40), ("inf", "inf")]:
    write("fuzz-http-date", name, value)

# Vault files, laid out as docs/vault.md describes (header checksum = SHA-256 of bytes 0..<64).
def vault(log_n=15, r=8, p=1, version=1, body=b"\x00" * 40):
    head = b"RIDERVLT" + bytes([version, 1, log_n]) + struct.pack(">II", r, p) + bytes([1])
    head += bytes(range(16)) + bytes(range(100, 112)) + bytes(range(200, 216))
    head += hashlib.sha256(head).digest()[:8]
    return head + body + b"\x11" * 16
write("fuzz-vault-file", "standard", vault())
write("fuzz-vault-file", "costly", vault(log_n=20, r=32, p=16))  # 4 GiB, p = 16: refused
write("fuzz-vault-file", "largest-allowed", vault(log_n=18, r=8, p=4))  # exactly 256 MiB, p = 4
write("fuzz-vault-file", "memory-over", vault(log_n=18, r=9))  # 288 MiB
write("fuzz-vault-file", "parallelism-over", vault(p=5))
write("fuzz-vault-file", "overflowing", vault(log_n=60, r=0xFFFFFFFF))
write("fuzz-vault-file", "too-costly", vault(log_n=30))
write("fuzz-vault-file", "version-2", vault(version=2))
write("fuzz-vault-file", "empty-body", vault(body=b""))
write("fuzz-vault-file", "truncated", vault()[:50])

stored = {"version": 1, "access_token": "at_Zm9vYmFy", "refresh_token": "rt_YmF6cXV4", "expires_at": 1735790645,
          "user_id": "u_000001", "role": "user", "token_type": "Bearer", "issued_at": 1735787045}
write("fuzz-stored-session", "complete", json.dumps(stored, sort_keys=True))
write("fuzz-stored-session", "minimal", json.dumps({k: stored[k] for k in ("version", "access_token", "user_id", "token_type", "issued_at")}))
write("fuzz-stored-session", "fractional", json.dumps(dict(stored, expires_at=1735790645.25, role=None)))
# The same finding as role-holds-token: a user id that holds the access token.
write("fuzz-stored-session", "user-id-holds-token", json.dumps({k: stored[k] for k in ("version", "access_token", "token_type", "issued_at")}
                                                               | {"user_id": "u_000001" + stored["access_token"]}))
