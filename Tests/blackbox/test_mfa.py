"""MFA step-up end to end: the real binary trusts a fake main auth server whose JWKS is served over
HTTP on 127.0.0.1; tokens are minted with PyJWT; the step-up credential is verified with PyJWT
through PhoneVerify's discovery document only."""
import json
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import ed25519
from jwt import PyJWKClient
from jwt.algorithms import OKPAlgorithm

from conftest import Server

ISSUER = "https://auth.example.test"
AUDIENCE = "phone-verify"


class FakeAuthServer:
    """Publishes a JWKS; keys can be rotated while the test runs."""

    def __init__(self):
        self.keys = {}
        self.requests = 0
        self.rotate("key-1")
        auth = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                auth.requests += 1
                body = json.dumps({"keys": [dict(json.loads(OKPAlgorithm.to_jwk(k.public_key())), kid=kid, alg="EdDSA", use="sig")
                                            for kid, k in auth.published.items()]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/jwks.json" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def rotate(self, kid):
        self.keys[kid] = ed25519.Ed25519PrivateKey.generate()
        self.published = {kid: self.keys[kid]}
        self.current = kid

    def token(self, sub, sid="sess-1", amr=("pwd",), kid=None, **overrides):
        now = int(time.time())
        claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": sub, "sid": sid, "amr": list(amr), "auth_time": now,
                  "iat": now, "exp": now + 600}
        claims.update(overrides)
        kid = kid or self.current
        return jwt.encode(claims, self.keys[kid], algorithm="EdDSA", headers={"kid": kid})

    def close(self):
        self.server.shutdown()


def bearer(token):
    return {"Authorization": "Bearer " + token}


def test_enrol_challenge_verify_and_the_main_auth_server_accepts_the_credential(data_dir):
    auth = FakeAuthServer()
    env = {"PHONE_VERIFY_AUTH_CORE_JWKS_URL": auth.url, "PHONE_VERIFY_AUTH_CORE_ISSUER": ISSUER,
           "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUDIENCE, "PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH": "1"}
    server = Server(data_dir, env).start()
    try:
        alice = auth.token("user-alice", sid="sess-a", amr=("pwd",))
        status, _, enrolment = server.request("POST", "/v1/mfa/enrollments", {"phone_number": "+447400123456"}, headers=bearer(alice))
        assert status == 201 and enrolment["purpose"] == "mfa_enroll"
        code = server.wait_for_code(enrolment["id"], "+447400123456")
        status, _, confirmed = server.request("POST", "/v1/mfa/enrollments/%s/confirm" % enrolment["id"], {"code": code}, headers=bearer(alice))
        assert status == 201
        factor = confirmed["factor"]
        assert factor["phone_number_hint"] == "+44*******3456"

        status, _, listed = server.request("GET", "/v1/mfa/factors", headers=bearer(alice))
        assert [f["id"] for f in listed["factors"]] == [factor["id"]]
        # Another user sees nothing of Alice's.
        bob = auth.token("user-bob", sid="sess-b")
        assert server.request("GET", "/v1/mfa/factors", headers=bearer(bob))[2]["factors"] == []
        assert server.request("POST", "/v1/mfa/challenges", {"factor_id": factor["id"]}, headers=bearer(bob))[0] == 404

        # Deleting needs a step-up first (RFC 9470 challenge).
        status, headers, refused = server.request("DELETE", "/v1/mfa/factors/" + factor["id"], headers=bearer(alice))
        assert status == 403 and refused["error"]["code"] == "step_up_required"
        assert 'error="insufficient_user_authentication"' in headers["WWW-Authenticate"]

        status, _, challenge = server.request("POST", "/v1/mfa/challenges", {"factor_id": factor["id"]}, headers=bearer(alice))
        assert status == 201 and challenge["phone_number_hint"] == "+44*******3456"
        code = server.wait_for_code(challenge["id"], "+447400123456")
        # Bob cannot verify Alice's challenge, even with the right code.
        assert server.request("POST", "/v1/mfa/challenges/%s/verify" % challenge["id"], {"code": code}, headers=bearer(bob))[0] == 404
        status, _, verified = server.request("POST", "/v1/mfa/challenges/%s/verify" % challenge["id"], {"code": code}, headers=bearer(alice))
        assert status == 200 and verified["status"] == "approved"
        step_up = verified["credential"]["token"]

        # The main auth server verifies it with a stock library and discovery only.
        with urllib.request.urlopen(server.base + "/.well-known/openid-configuration", timeout=5) as resp:
            config = json.load(resp)
        key = PyJWKClient(config["jwks_uri"]).get_signing_key_from_jwt(step_up).key
        claims = jwt.decode(step_up, key, algorithms=config["id_token_signing_alg_values_supported"],
                            audience="main-auth", issuer=config["issuer"])
        assert claims["sub"] == "user-alice" and claims["sid"] == "sess-a"
        assert claims["amr"] == ["pwd", "sms", "mfa"] and claims["acr"] == "aal2"
        assert abs(claims["auth_time"] - time.time()) < 30

        # With the step-up credential the factor can be deleted.
        status, _, deleted = server.request("DELETE", "/v1/mfa/factors/" + factor["id"], headers=bearer(step_up))
        assert status == 200 and deleted["deleted"] is True
        assert server.request("GET", "/v1/mfa/factors", headers=bearer(alice))[2]["factors"] == []
    finally:
        server.stop()
        auth.close()


def test_bad_tokens_and_key_rotation_at_the_auth_server(data_dir):
    auth = FakeAuthServer()
    env = {"PHONE_VERIFY_AUTH_CORE_JWKS_URL": auth.url, "PHONE_VERIFY_AUTH_CORE_ISSUER": ISSUER,
           "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUDIENCE, "PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH": "1"}
    server = Server(data_dir, env).start()
    try:
        good = auth.token("user-carol")
        assert server.request("GET", "/v1/mfa/factors", headers=bearer(good))[0] == 200
        now = int(time.time())
        stranger = ed25519.Ed25519PrivateKey.generate()
        bad = {
            "missing": None,
            "expired": auth.token("user-carol", exp=now - 120, iat=now - 900),
            "wrong issuer": auth.token("user-carol", iss="https://evil.example"),
            "wrong audience": auth.token("user-carol", aud="someone-else"),
            "wrong key": jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": "user-carol", "exp": now + 600}, stranger,
                                    algorithm="EdDSA", headers={"kid": auth.current}),
            "alg none": jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": "user-carol", "exp": now + 600}, None, algorithm="none"),
            "unknown kid": jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": "user-carol", "exp": now + 600}, stranger,
                                      algorithm="EdDSA", headers={"kid": "nobody"}),
            "malformed": "not.a.jwt",
        }
        for name, token in bad.items():
            status, headers, body = server.request("GET", "/v1/mfa/factors", headers=bearer(token) if token else {})
            assert status == 401, name
            assert body["error"]["code"] == "unauthenticated", name
            # RFC 6750 §3.1: a request without credentials gets no error code.
            assert headers["WWW-Authenticate"] == ('Bearer' if token is None else 'Bearer error="invalid_token"'), name
        # The auth server rotates its key: tokens with the new kid verify after one refetch.
        auth.rotate("key-2")
        time.sleep(1.5)  # past PHONE_VERIFY_AUTH_CORE_JWKS_MIN_REFRESH (1 s) since the last refetch, with margin
        rotated = auth.token("user-carol")
        assert server.request("GET", "/v1/mfa/factors", headers=bearer(rotated))[0] == 200
    finally:
        server.stop()
        auth.close()
