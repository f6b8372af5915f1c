"""The whole flow against the real binary, and the credential checked by a stock JWT library."""
import json
import time
import signal
import urllib.request

import jwt
from jwt import PyJWKClient

from conftest import Server

PHONE = "+14155552671"


def start_and_read_code(server, phone=PHONE):
    status, headers, body = server.request("POST", "/v1/verifications", {"phone_number": phone})
    assert status == 201, body
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    return body, server.wait_for_code(body["id"], phone)


def test_credential_verifies_with_pyjwt_through_discovery_only(server):
    body, code = start_and_read_code(server)
    status, _, checked = server.request("POST", f"/v1/verifications/{body['id']}/check", {"code": code})
    assert status == 200, checked
    token = checked["credential"]["token"]

    # A relying party knows only the issuer: discovery document -> jwks_uri -> key by kid.
    with urllib.request.urlopen(server.base + "/.well-known/openid-configuration", timeout=5) as resp:
        config = json.load(resp)
    assert config["issuer"] == server.base
    signing_key = PyJWKClient(config["jwks_uri"]).get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token, signing_key.key, algorithms=config["id_token_signing_alg_values_supported"],
        audience="main-auth", issuer=config["issuer"],
        options={"require": ["exp", "iat", "nbf", "iss", "aud", "sub", "jti"]},
    )
    assert jwt.get_unverified_header(token)["alg"] == "ES256"  # the default: every JWT library verifies it
    assert claims["sub"] == "tel:" + PHONE
    assert claims["phone_number"] == PHONE
    assert claims["phone_number_verified"] is True
    assert claims["amr"] == ["sms"]
    assert claims["acr"] == "aal1"
    assert claims["vid"] == body["id"]
    assert claims["exp"] - claims["iat"] == 300

    # A tampered token is refused by the same library.
    head, payload, sig = token.split(".")
    forged = head + "." + payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB") + "." + sig
    try:
        jwt.decode(forged, signing_key.key, algorithms=["ES256"], audience="main-auth")
        raise AssertionError("forged token accepted")
    except jwt.InvalidTokenError:
        pass


def test_console_sink_prints_one_plain_line_and_logs_hide_phone_and_code(server):
    body, code = start_and_read_code(server)
    server.request("POST", f"/v1/verifications/{body['id']}/check", {"code": code})
    sms_lines = server.wait_for_line(server.stdout_lines, lambda line: line.startswith("SMS to "))
    time.sleep(0.2)  # a second line, if there were one, would be printed by now
    sms_lines = [line for line in server.stdout_lines if line.startswith("SMS to ")]
    assert len(sms_lines) == 1
    assert sms_lines[0].startswith("SMS to +1 415-555-2671 (" + body["id"] + ", sign_in): code " + code + ", expires ")
    assert not sms_lines[0].startswith("{")
    for line in server.stderr_lines:
        json.loads(line)  # every log line is one JSON object
        assert "4155552671" not in line
        assert code not in line.replace(body["id"], "")


def test_pending_verification_survives_a_restart(data_dir):
    first = Server(data_dir).start()
    body, code = start_and_read_code(first)
    assert first.stop(signal.SIGTERM) == 0
    second = Server(data_dir).start()
    try:
        status, _, checked = second.request("POST", f"/v1/verifications/{body['id']}/check", {"code": code})
        assert status == 200, checked
        assert checked["status"] == "approved"
    finally:
        second.stop()


def test_sigint_also_stops_cleanly(server):
    assert server.stop(signal.SIGINT) == 0


def test_bad_input_gets_4xx_and_the_server_keeps_serving(server):
    cases = [
        ("POST", "/v1/verifications", None, b"{not json", {"Content-Type": "application/json"}, 400),
        ("POST", "/v1/verifications", None, b'{"phone_number":"+14155552671"}', {"Content-Type": "text/plain"}, 415),
        ("POST", "/v1/verifications", None, b"x" * 20000, {"Content-Type": "application/json"}, 413),
        ("GET", "/nope", None, None, {}, 404),
        ("PUT", "/v1/verifications", None, b"{}", {"Content-Type": "application/json"}, 405),
    ]
    for method, path, body, raw, headers, expected in cases:
        status, _, reply = server.request(method, path, body=body, raw=raw, headers=headers)
        assert status == expected, (method, path, status, reply)
        assert "error" in reply and reply["error"]["code"]
    status, _, _ = server.request("GET", "/healthz")
    assert status == 200
    status, _, messages = server.request("GET", "/dev/messages")
    assert messages["messages"] == []


def test_dev_messages_can_wait_for_a_message(server):
    """`GET /dev/messages?wait=` answers as soon as the awaited message is sent (the request is
    held off the HTTP threads: other requests go on meanwhile), or with an empty list in time."""
    import threading
    started = time.monotonic()
    status, _, body = server.request("GET", "/dev/messages?verification_id=ver_none&wait=0.3")
    assert status == 200 and body["messages"] == []
    assert 0.25 <= time.monotonic() - started < 5
    phone = "+14155550142"
    replies = {}

    def waiter():
        replies["waited"] = server.request(
            "GET", "/dev/messages?wait=10&phone_number=" + urllib.request.quote(phone, safe=""))

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.3)
    status, _, started_body = server.request("POST", "/v1/verifications", body={"phone_number": phone})
    assert status == 201
    thread.join(timeout=8)
    assert not thread.is_alive()
    status, headers, body = replies["waited"]
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert [m["verification_id"] for m in body["messages"]] == [started_body["id"]]
    status, _, body = server.request("GET", "/dev/messages?wait=31&phone_number=%2B14155550142")
    assert status == 400 and body["error"]["details"]["field"] == "wait"


def test_a_browser_app_on_an_allowed_origin_can_call_the_client_endpoints(data_dir):
    origin = "https://app.example.com"
    server = Server(data_dir, {"PHONE_VERIFY_CORS_ORIGINS": origin}).start()
    try:
        status, headers, _ = server.request("OPTIONS", "/v1/verifications", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
        assert status == 204
        assert headers["Access-Control-Allow-Origin"] == origin and "POST" in headers["Access-Control-Allow-Methods"]
        status, headers, body = server.request("POST", "/v1/verifications", {"phone_number": "+14155552671"}, headers={"Origin": origin})
        assert status == 201 and headers["Access-Control-Allow-Origin"] == origin
        assert "RateLimit" in headers["Access-Control-Expose-Headers"]
        status, headers, _ = server.request("OPTIONS", "/v1/verifications", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
        assert status == 405 and "Access-Control-Allow-Origin" not in headers
    finally:
        server.stop()
