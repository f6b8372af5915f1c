"""Importing verified phone factors (docs/MFA.md "Importing factors", docs/FIREBASE_MIGRATION.md)
against the real binary: a scoped key imports, the user steps up with the imported phone at once,
duplicates and bad input change nothing, and the event says the factor was imported."""
from conftest import Server
from fakes import EventReceiver
from test_events import SECRET, KEY, NO_LIMITS
from test_mfa import AUDIENCE, ISSUER, FakeAuthServer, bearer

FACTORS = "factors-key-0123456789abcdef"
READ = "read-key-0123456789abcdef00"


def test_an_imported_factor_is_used_for_step_up_without_enrolling_again(data_dir):
    auth = FakeAuthServer()
    receiver = EventReceiver(KEY)
    env = {"PHONE_VERIFY_AUTH_CORE_JWKS_URL": auth.url, "PHONE_VERIFY_AUTH_CORE_ISSUER": ISSUER,
           "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUDIENCE, "PHONE_VERIFY_LIMITS": NO_LIMITS,
           "PHONE_VERIFY_SCOPED_API_KEYS": f"factors={FACTORS},read={READ}",
           "PHONE_VERIFY_EVENTS_URL": receiver.url, "PHONE_VERIFY_EVENTS_SECRET": SECRET}
    server = Server(data_dir, env).start()
    try:
        path = "/v1/admin/users/firebase-uid-42/factors"
        body = {"phone_number": "+447400123456", "display_name": "Work phone"}
        # A key without the factors scope, and no key, change nothing.
        status, _, refused = server.request("POST", path, body, headers=bearer(READ))
        assert status == 403 and refused["error"]["code"] == "forbidden", refused
        assert server.request("POST", path, body)[0] == 401

        status, _, created = server.request("POST", path, body, headers=bearer(FACTORS))
        assert status == 201, created
        factor = created["factor"]
        assert factor["phone_number_hint"] == "+44*******3456" and factor["display_name"] == "Work phone"
        assert factor["last_used_at"] is None

        # Again (a re-run migration): 409, nothing added.
        status, _, again = server.request("POST", path, body, headers=bearer(FACTORS))
        assert status == 409 and again["error"]["code"] == "factor_exists"
        for bad in ({"phone_number": "not a number"}, {"phone_number": "+447400123457", "display_name": "x" * 65}, {}):
            status, _, problem = server.request("POST", path, bad, headers=bearer(FACTORS))
            assert status == 400, (bad, problem)
        status, _, listed = server.request("GET", path, headers=bearer(READ))
        assert listed["factors"] == [factor]

        # The user signs in to the main auth server and steps up with the imported phone.
        user = auth.token("firebase-uid-42", sid="sess-1")
        assert server.request("GET", "/v1/mfa/factors", headers=bearer(user))[2]["factors"] == [factor]
        status, _, challenge = server.request("POST", "/v1/mfa/challenges", {"factor_id": factor["id"]}, headers=bearer(user))
        assert status == 201, challenge
        code = server.wait_for_code(challenge["id"], "+447400123456")
        status, _, verified = server.request("POST", "/v1/mfa/challenges/%s/verify" % challenge["id"], {"code": code},
                                             headers=bearer(user))
        assert status == 200 and verified["credential"]["token"]

        assert receiver.wait(lambda got: any(r["event"]["type"] == "mfa.factor.enrolled" for r in got), timeout=15)
        enrolled = [r["event"] for r in receiver.events() if r["event"]["type"] == "mfa.factor.enrolled"]
        assert len(enrolled) == 1 and enrolled[0]["data"]["factor_id"] == factor["id"]
        assert enrolled[0]["data"]["imported"] is True and enrolled[0]["data"]["subject"] == "firebase-uid-42"
    finally:
        server.stop()
        auth.close()
        receiver.close()
