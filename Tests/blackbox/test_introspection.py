"""RFC 7662 introspection of credentials by the main auth server: the real binary on 127.0.0.1."""
import json
import urllib.parse
import urllib.request

import jwt
from jwt import PyJWKClient

from conftest import Server

ADMIN_KEY = "admin-key-introspection-01"
PHONE = "+14155552674"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def introspect(server, endpoint, token, key=ADMIN_KEY):
    headers = dict(FORM, Authorization="Bearer " + key) if key else FORM
    path = urllib.parse.urlsplit(endpoint).path
    return server.request("POST", path, raw=urllib.parse.urlencode({"token": token}).encode(), headers=headers)


def test_a_credential_is_active_once_with_the_claims_pyjwt_verifies_even_after_a_restart(data_dir):
    env = {"PHONE_VERIFY_ADMIN_API_KEYS": ADMIN_KEY}
    server = Server(data_dir, env).start()
    try:
        token = server.credential(PHONE)
        with urllib.request.urlopen(server.base + "/.well-known/openid-configuration", timeout=5) as resp:
            config = json.load(resp)
        endpoint = config["introspection_endpoint"]
        assert endpoint == server.base + "/v1/credentials/introspect"

        status, _, refused = introspect(server, endpoint, token, key=None)
        assert status == 401 and refused["error"]["code"] == "unauthenticated"
        status, _, refused = introspect(server, endpoint, token, key="not-the-admin-key-000")
        assert status == 401

        # A tampered credential is inactive and redeems nothing.
        head, payload, signature = token.split(".")
        claims = json.loads(jwt.utils.base64url_decode(payload))
        claims["sub"] = "tel:+14155550000"
        forged = head + "." + jwt.utils.base64url_encode(json.dumps(claims).encode()).decode() + "." + signature
        assert introspect(server, endpoint, forged)[2] == {"active": False}

        status, headers, answer = introspect(server, endpoint, token)
        assert status == 200 and headers["Cache-Control"] == "no-store"
        key = PyJWKClient(config["jwks_uri"]).get_signing_key_from_jwt(token)
        verified = jwt.decode(token, key.key, algorithms=["ES256"], audience="main-auth", issuer=config["issuer"])
        assert answer == dict(verified, active=True)
        assert introspect(server, endpoint, token)[2] == {"active": False}
    finally:
        server.stop()

    # Redemption is durable: the restarted service still refuses a second use.
    server = Server(data_dir, env).start()
    try:
        assert introspect(server, server.base + "/v1/credentials/introspect", token)[2] == {"active": False}
    finally:
        server.stop()
