"""SMS gateways end to end: the real binary, fake vendors on 127.0.0.1, crashes and callbacks."""
import base64
import hashlib
import hmac
import json
import re
import signal
import threading
import time
import urllib.parse
import urllib.request

from conftest import Server
from fakes import FakeVendor, twilio_signature

SECRET_KEY = b"0123456789abcdef0123456789abcdef"
WEBHOOK_ENV = {"PHONE_VERIFY_GATEWAYS": "webhook", "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + base64.b64encode(SECRET_KEY).decode(),
               "PHONE_VERIFY_DELIVERY_MAX_ATTEMPTS": "50"}


def test_a_message_queued_when_the_service_is_killed_is_sent_after_restart(data_dir):
    vendor = FakeVendor({"id": "prov-1"})
    vendor.mode = ("status", 503, {"error": "down"})
    env = dict(WEBHOOK_ENV, PHONE_VERIFY_WEBHOOK_URL=vendor.base + "/sms")
    first = Server(data_dir, env).start()
    status, _, body = first.request("POST", "/v1/verifications", {"phone_number": "+447400123456"})
    assert status == 201
    assert vendor.wait_for(1)  # tried once, got 503: the message stays queued
    status, _, seen = first.request("GET", "/v1/verifications/" + body["id"])
    assert seen["delivery"]["status"] == "queued"
    first.stop(signal.SIGKILL)  # no graceful shutdown: leases are left behind

    vendor.mode = ("ok",)
    tried = len(vendor.requests)
    restarted_at = time.time()
    second = Server(data_dir, env).start()
    try:
        assert vendor.wait_for(tried + 1, timeout=20)
        assert time.time() - restarted_at < 17  # within 15 s of start-up (plus polling slack)
        request = vendor.requests[-1]
        payload = json.loads(request["body"])
        assert payload["verification_id"] == body["id"]
        assert payload["to"] == "+447400123456"
        assert payload["code"] in payload["body"]
        # The Standard Webhooks signature verifies with the shared secret.
        signed = b"%s.%s.%s" % (request["headers"]["webhook-id"].encode(), request["headers"]["webhook-timestamp"].encode(), request["body"])
        expected = "v1," + base64.b64encode(hmac.new(SECRET_KEY, signed, hashlib.sha256).digest()).decode()
        assert request["headers"]["webhook-signature"] == expected
        deadline = time.time() + 5
        while time.time() < deadline:
            _, _, seen = second.request("GET", "/v1/verifications/" + body["id"])
            if seen["delivery"]["status"] == "sent":
                break
            time.sleep(0.05)
        assert seen["delivery"]["status"] == "sent" and seen["delivery"]["gateway"] == "webhook"
        time.sleep(1.5)
        assert len(vendor.requests[tried:]) == 1  # sent once after the restart, not twice
    finally:
        second.stop()
        vendor.close()


TWILIO_ENV = {
    "PHONE_VERIFY_GATEWAYS": "twilio", "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001",
    "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token", "PHONE_VERIFY_TWILIO_FROM": "+15005550006",
}


def test_a_status_callback_that_arrives_before_the_send_is_recorded_is_applied(data_dir):
    # Twilio may call back before its API response reaches the delivery worker: the receipt is
    # held and applied when the send is recorded, not dropped.
    twilio = FakeVendor({"sid": "SM00000000000000000000000000000e", "status": "queued"})
    answer = threading.Event()
    twilio.mode = ("hold", answer)
    server = Server(data_dir, dict(TWILIO_ENV, PHONE_VERIFY_TWILIO_BASE_URL=twilio.base)).start()
    try:
        status, _, created = server.request("POST", "/v1/verifications", {"phone_number": "+14155552673"})
        assert status == 201 and twilio.wait_for(1)
        callback = server.base + "/v1/webhooks/twilio/status"
        fields = {"MessageSid": "SM00000000000000000000000000000e", "MessageStatus": "delivered", "AccountSid": "AC0001"}
        status, _, _ = server.request(
            "POST", "/v1/webhooks/twilio/status", raw=urllib.parse.urlencode(fields).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": twilio_signature("twilio-token", callback, fields)})
        assert status == 204
        _, _, seen = server.request("GET", "/v1/verifications/" + created["id"])
        assert seen["delivery"]["status"] == "queued"  # the vendor has not answered yet
        answer.set()
        assert server.wait_for_delivery(created["id"], "delivered")["gateway"] == "twilio"
    finally:
        answer.set()
        server.stop()
        twilio.close()


def test_twilio_failover_and_signed_status_callbacks(data_dir):
    twilio = FakeVendor({"sid": "SM0123456789abcdef", "status": "queued"})
    vonage = FakeVendor({"message-count": "1", "messages": [{"status": "0", "message-id": "VON-1"}]})
    env = {
        "PHONE_VERIFY_GATEWAYS": "twilio,vonage", "PHONE_VERIFY_TWILIO_BASE_URL": twilio.base,
        "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token",
        "PHONE_VERIFY_TWILIO_FROM": "+15005550006", "PHONE_VERIFY_VONAGE_BASE_URL": vonage.base,
        "PHONE_VERIFY_VONAGE_API_KEY": "k", "PHONE_VERIFY_VONAGE_API_SECRET": "s", "PHONE_VERIFY_VONAGE_FROM": "Acme",
        "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN": "vonage-callback-token",
    }
    server = Server(data_dir, env).start()
    try:
        status, _, first = server.request("POST", "/v1/verifications", {"phone_number": "+14155552671"})
        assert status == 201 and twilio.wait_for(1)
        form = twilio.form(0)
        assert form["To"] == "+14155552671" and form["From"] == "+15005550006"
        callback = server.base + "/v1/webhooks/twilio/status"
        assert form["StatusCallback"] == callback
        assert twilio.requests[0]["headers"]["Authorization"] == "Basic " + base64.b64encode(b"AC0001:twilio-token").decode()

        fields = {"MessageSid": "SM0123456789abcdef", "MessageStatus": "delivered", "AccountSid": "AC0001",
                  "To": "+14155552671"}
        body = urllib.parse.urlencode(fields).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        status, _, _ = server.request("POST", "/v1/webhooks/twilio/status", raw=body, headers=dict(headers, **{"X-Twilio-Signature": "forged"}))
        assert status == 403
        good = twilio_signature("twilio-token", callback, fields)
        assert server.wait_for_delivery(first["id"], "sent")["gateway"] == "twilio"
        status, _, _ = server.request("POST", "/v1/webhooks/twilio/status", raw=body, headers=dict(headers, **{"X-Twilio-Signature": good}))
        assert status == 204
        _, _, seen = server.request("GET", "/v1/verifications/" + first["id"])
        assert seen["delivery"]["status"] == "delivered" and seen["delivery"]["gateway"] == "twilio"

        # Twilio fails: the next message goes through Vonage.
        twilio.mode = ("status", 500, {"code": 20500, "message": "Internal"})
        status, _, second = server.request("POST", "/v1/verifications", {"phone_number": "+14155552672"})
        assert status == 201 and vonage.wait_for(1)
        deadline = time.time() + 5
        while time.time() < deadline:
            _, _, seen = server.request("GET", "/v1/verifications/" + second["id"])
            if seen["delivery"]["status"] == "sent":
                break
            time.sleep(0.05)
        assert seen["delivery"]["gateway"] == "vonage"
        assert vonage.form(0)["callback"] == server.base + "/v1/webhooks/vonage/dlr?token=vonage-callback-token"
        status, _, _ = server.request("GET", "/v1/webhooks/vonage/dlr?token=wrong&messageId=VON-1&status=delivered")
        assert status == 403
        status, _, _ = server.request("GET", "/v1/webhooks/vonage/dlr?token=vonage-callback-token&messageId=VON-1&status=delivered&err-code=0")
        assert status == 204
        _, _, seen = server.request("GET", "/v1/verifications/" + second["id"])
        assert seen["delivery"]["status"] == "delivered"
        # The delivery metric counts each state per gateway and the recipient's country.
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as resp:
            metrics = resp.read().decode()
        for labels in ('gateway="twilio",status="sent",country="US",channel="sms"', 'gateway="twilio",status="delivered",country="US",channel="sms"',
                       'gateway="vonage",status="sent",country="US",channel="sms"', 'gateway="vonage",status="delivered",country="ZZ",channel="sms"'):
            assert re.search(r"^phoneverify_deliveries_total\{%s\} 1$" % re.escape(labels), metrics, re.M), labels
    finally:
        server.stop()
        twilio.close()
        vonage.close()
