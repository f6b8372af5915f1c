"""WhatsApp and voice channels end to end: the real binary, fake vendors on 127.0.0.1 speaking each
vendor's wire format, and signed status callbacks (docs/GATEWAYS.md).

Each test starts a verification with "channel": "whatsapp" or "call", checks the vendor got the
documented request (the code only in the body, never in a URL), that the code it carried is the one
the verification accepts, then posts a signed status callback and reads the delivery status back."""
import base64
import hashlib
import hmac
import json
import os
import re
import subprocess
import time
import urllib.parse
import urllib.request

import jwt

from conftest import BINARY, Server
from fakes import FakeVendor, twilio_signature

CHANNELS = {"PHONE_VERIFY_CHANNELS": "sms,whatsapp,call,auto", "PHONE_VERIFY_AUTO_CHANNELS": "whatsapp,sms"}
TWILIO = {"PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token"}
SECRET_KEY = b"0123456789abcdef0123456789abcdef"


def vonage_jwt(secret, body, iat=None):
    """Vonage's signed webhook: HS256 with the signature secret, payload_hash = hex SHA-256 of the body."""
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = b64(json.dumps({"iat": int(iat or time.time()), "jti": "jti-1", "iss": "Vonage", "api_key": "k",
                             "payload_hash": hashlib.sha256(body).hexdigest()}, separators=(",", ":")).encode())
    signature = b64(hmac.new(secret.encode(), (header + "." + claims).encode(), hashlib.sha256).digest())
    return header + "." + claims + "." + signature


def post_twilio_status(server, callback, fields):
    """A Twilio status callback: refused with a forged signature, accepted with Twilio's."""
    raw = urllib.parse.urlencode(fields).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _, _ = server.request("POST", "/v1/webhooks/twilio/status", raw=raw, headers=dict(headers, **{"X-Twilio-Signature": "forged"}))
    assert status == 403
    signature = twilio_signature("twilio-token", callback, fields)
    status, _, _ = server.request("POST", "/v1/webhooks/twilio/status", raw=raw, headers=dict(headers, **{"X-Twilio-Signature": signature}))
    assert status == 204


def start(server, phone, channel, locale=None):
    body = {"phone_number": phone, "channel": channel}
    if locale:
        body["locale"] = locale
    status, _, created = server.request("POST", "/v1/verifications", body)
    assert status == 201, created
    return created


def assert_code_is_accepted(server, verification_id, code):
    status, _, checked = server.request("POST", "/v1/verifications/%s/check" % verification_id, {"code": code})
    assert status == 200 and checked["status"] == "approved", checked


def assert_no_code_in_urls(vendor, code):
    for request in vendor.requests:
        assert code not in request["path"]


def template_code(template):
    """The code of a WhatsApp authentication template: the body parameter, repeated in the copy-code button."""
    body = next(c for c in template["components"] if c["type"] == "body")
    button = next(c for c in template["components"] if c["type"] == "button")
    assert body["parameters"][0]["text"] == button["parameters"][0]["text"]
    return body["parameters"][0]["text"]


def spelled_twice(text, code):
    """The code spelled digit by digit ("1, 2, 3"), at least twice."""
    return text.count(", ".join(code)) >= 2


def test_meta_whatsapp_template_and_signed_status_webhook(data_dir):
    meta = FakeVendor({"messaging_product": "whatsapp", "contacts": [{"input": "447400123456", "wa_id": "447400123456"}],
                       "messages": [{"id": "wamid.HBgLNDQ3NDAwMTIzNDU2"}]})
    env = dict(CHANNELS, PHONE_VERIFY_WHATSAPP_GATEWAYS="meta", PHONE_VERIFY_META_WA_BASE_URL=meta.base,
               PHONE_VERIFY_META_WA_PHONE_NUMBER_ID="106540352242922", PHONE_VERIFY_META_WA_ACCESS_TOKEN="EAAG-meta-token",
               PHONE_VERIFY_META_WA_TEMPLATE="verification_code", PHONE_VERIFY_META_WA_LANGUAGES="en_US,pt_BR",
               PHONE_VERIFY_META_WA_APP_SECRET="meta-app-secret", PHONE_VERIFY_META_WA_VERIFY_TOKEN="meta-verify-token")
    server = Server(data_dir, env).start()
    try:
        # The subscription handshake answers only Meta's verify token.
        status, _, _ = server.request("GET", "/v1/webhooks/meta/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=77")
        assert status == 403
        with urllib.request.urlopen(
                server.base + "/v1/webhooks/meta/whatsapp?hub.mode=subscribe&hub.verify_token=meta-verify-token&hub.challenge=1158201444",
                timeout=5) as resp:
            assert resp.status == 200 and resp.read() == b"1158201444"

        created = start(server, "+447400123456", "whatsapp", locale="pt-BR")
        assert meta.wait_for(1)
        request = meta.requests[0]
        assert request["path"] == "/v21.0/106540352242922/messages"
        assert request["headers"]["Authorization"] == "Bearer EAAG-meta-token"
        payload = json.loads(request["body"])
        assert payload["to"] == "447400123456" and payload["type"] == "template"
        assert payload["template"]["name"] == "verification_code"
        assert payload["template"]["language"]["code"] == "pt_BR"
        code = template_code(payload["template"])
        assert_no_code_in_urls(meta, code)
        delivery = server.wait_for_delivery(created["id"], "sent")
        assert delivery["gateway"] == "meta-whatsapp"

        body = json.dumps({"object": "whatsapp_business_account", "entry": [{"id": "WABA", "changes": [{"field": "messages", "value": {
            "messaging_product": "whatsapp", "statuses": [{"id": "wamid.HBgLNDQ3NDAwMTIzNDU2", "status": "delivered",
                                                           "timestamp": "1700000000", "recipient_id": "447400123456"}]}}]}]}).encode()
        forged = "sha256=" + hmac.new(b"not-the-secret", body, hashlib.sha256).hexdigest()
        headers = {"Content-Type": "application/json"}
        status, _, _ = server.request("POST", "/v1/webhooks/meta/whatsapp", raw=body, headers=dict(headers, **{"X-Hub-Signature-256": forged}))
        assert status == 403
        assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "meta-whatsapp"  # nothing changed
        good = "sha256=" + hmac.new(b"meta-app-secret", body, hashlib.sha256).hexdigest()
        status, _, _ = server.request("POST", "/v1/webhooks/meta/whatsapp", raw=body, headers=dict(headers, **{"X-Hub-Signature-256": good}))
        assert status == 200
        assert server.wait_for_delivery(created["id"], "delivered")["gateway"] == "meta-whatsapp"
        assert_code_is_accepted(server, created["id"], code)
    finally:
        server.stop()
        meta.close()


def test_twilio_whatsapp_content_template_and_signed_status(data_dir):
    twilio = FakeVendor({"sid": "MM0123456789abcdef0123456789abcdef", "status": "queued"})
    env = dict(CHANNELS, **TWILIO, PHONE_VERIFY_TWILIO_BASE_URL=twilio.base, PHONE_VERIFY_WHATSAPP_GATEWAYS="twilio",
               PHONE_VERIFY_TWILIO_WA_FROM="+14155238886", PHONE_VERIFY_TWILIO_WA_CONTENT_SID="HX0000000000000000000000000000000a",
               PHONE_VERIFY_TWILIO_WA_CONTENT_SIDS="de=HX0000000000000000000000000000000d")
    server = Server(data_dir, env).start()
    try:
        created = start(server, "+14155552671", "whatsapp", locale="de-AT")
        assert twilio.wait_for(1)
        assert twilio.requests[0]["path"] == "/2010-04-01/Accounts/AC0001/Messages.json"
        form = twilio.form(0)
        assert form["To"] == "whatsapp:+14155552671" and form["From"] == "whatsapp:+14155238886"
        assert form["ContentSid"] == "HX0000000000000000000000000000000d"
        code = json.loads(form["ContentVariables"])["1"]
        assert "Body" not in form
        callback = server.base + "/v1/webhooks/twilio/status"
        assert form["StatusCallback"] == callback
        assert_no_code_in_urls(twilio, code)
        assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "twilio-whatsapp"

        # "Not on WhatsApp" (63003) comes back as undelivered, which is what auto falls back on.
        fields = {"MessageSid": "MM0123456789abcdef0123456789abcdef", "MessageStatus": "undelivered", "ErrorCode": "63003",
                  "AccountSid": "AC0001", "To": "whatsapp:+14155552671", "From": "whatsapp:+14155238886", "ChannelPrefix": "whatsapp"}
        post_twilio_status(server, callback, fields)
        delivery = server.wait_for_delivery(created["id"], "undelivered")
        assert delivery["gateway"] == "twilio-whatsapp" and "63003" in (delivery["last_error"] or "")
    finally:
        server.stop()
        twilio.close()


def test_vonage_whatsapp_custom_template_and_signed_status(data_dir):
    vonage = FakeVendor({"message_uuid": "aaaaaaaa-bbbb-cccc-dddd-0123456789ab"})
    env = dict(CHANNELS, PHONE_VERIFY_WHATSAPP_GATEWAYS="vonage", PHONE_VERIFY_VONAGE_MESSAGES_BASE_URL=vonage.base,
               PHONE_VERIFY_VONAGE_API_KEY="vonage-key", PHONE_VERIFY_VONAGE_API_SECRET="vonage-secret",
               PHONE_VERIFY_VONAGE_WA_FROM="+447700900000", PHONE_VERIFY_VONAGE_WA_TEMPLATE="verification_code",
               PHONE_VERIFY_VONAGE_WA_LANGUAGES="en_US,de", PHONE_VERIFY_VONAGE_SIGNATURE_SECRET="vonage-signature-secret")
    server = Server(data_dir, env).start()
    try:
        created = start(server, "+447400123456", "whatsapp", locale="en-GB")
        assert vonage.wait_for(1)
        request = vonage.requests[0]
        assert request["path"] == "/v1/messages"
        assert request["headers"]["Authorization"] == "Basic " + base64.b64encode(b"vonage-key:vonage-secret").decode()
        payload = json.loads(request["body"])
        assert payload["message_type"] == "custom" and payload["channel"] == "whatsapp"
        assert payload["from"] == "447700900000" and payload["to"] == "447400123456"
        template = payload["custom"]["template"]
        assert payload["custom"]["type"] == "template" and template["name"] == "verification_code"
        assert template["language"] == {"policy": "deterministic", "code": "en_US"}
        code = template_code(template)
        assert_no_code_in_urls(vonage, code)
        assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "vonage-whatsapp"

        body = json.dumps({"message_uuid": "aaaaaaaa-bbbb-cccc-dddd-0123456789ab", "to": "447400123456", "from": "447700900000",
                           "timestamp": "2026-01-01T00:00:00Z", "status": "delivered", "channel": "whatsapp"}).encode()
        headers = {"Content-Type": "application/json"}
        status, _, _ = server.request("POST", "/v1/webhooks/vonage/whatsapp", raw=body,
                                      headers=dict(headers, Authorization="Bearer " + vonage_jwt("guess", body)))
        assert status == 403
        status, _, _ = server.request("POST", "/v1/webhooks/vonage/whatsapp", raw=body,
                                      headers=dict(headers, Authorization="Bearer " + vonage_jwt("vonage-signature-secret", body)))
        assert status == 204
        assert server.wait_for_delivery(created["id"], "delivered")["gateway"] == "vonage-whatsapp"
        assert_code_is_accepted(server, created["id"], code)
    finally:
        server.stop()
        vonage.close()


def test_twilio_voice_inline_twiml_and_signed_call_status(data_dir):
    twilio = FakeVendor({"sid": "CA0123456789abcdef0123456789abcdef", "status": "queued"})
    env = dict(CHANNELS, **TWILIO, PHONE_VERIFY_TWILIO_BASE_URL=twilio.base, PHONE_VERIFY_VOICE_GATEWAYS="twilio",
               PHONE_VERIFY_TWILIO_FROM="+15005550006", PHONE_VERIFY_APP_NAME="Acme")
    server = Server(data_dir, env).start()
    try:
        created = start(server, "+14155552671", "call")
        assert twilio.wait_for(1)
        assert twilio.requests[0]["path"] == "/2010-04-01/Accounts/AC0001/Calls.json"
        form = twilio.form(0)
        assert form["To"] == "+14155552671" and form["From"] == "+15005550006"  # the caller id defaults to TWILIO_FROM
        assert "Url" not in form
        twiml = form["Twiml"]
        assert twiml.startswith("<Response><Say") and "Acme" in twiml
        callback = server.base + "/v1/webhooks/twilio/status"
        assert form["StatusCallback"] == callback
        code = None
        for candidate in re.findall(r"(\d(?:, \d)+)\.", twiml):
            code = candidate.replace(", ", "")
            break
        assert code and spelled_twice(twiml, code)
        assert_no_code_in_urls(twilio, code)
        assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "twilio-voice"

        fields = {"CallSid": "CA0123456789abcdef0123456789abcdef", "CallStatus": "completed", "AccountSid": "AC0001",
                  "To": "+14155552671", "From": "+15005550006", "Direction": "outbound-api", "CallDuration": "14"}
        post_twilio_status(server, callback, fields)
        assert server.wait_for_delivery(created["id"], "delivered")["gateway"] == "twilio-voice"
        assert_code_is_accepted(server, created["id"], code)
    finally:
        server.stop()
        twilio.close()


def test_a_vendor_echoing_the_call_request_never_shows_the_code(data_dir):
    # Twilio's error quotes the form-encoded request, Twiml and all: the code spelled and URL-encoded.
    twilio = FakeVendor({})
    twilio.mode = ("echo", 400, lambda body: {"code": 21217, "message": "Invalid parameter in request: " + body.decode()})
    env = dict(CHANNELS, **TWILIO, PHONE_VERIFY_TWILIO_BASE_URL=twilio.base, PHONE_VERIFY_VOICE_GATEWAYS="twilio",
               PHONE_VERIFY_TWILIO_FROM="+15005550006", PHONE_VERIFY_APP_NAME="Acme")
    server = Server(data_dir, env).start()
    try:
        created = start(server, "+14155552671", "call")
        assert twilio.wait_for(1)
        code = re.search(r"(\d(?:, \d)+)\.", twilio.form(0)["Twiml"]).group(1).replace(", ", "")
        delivery = server.wait_for_delivery(created["id"], "failed")
        assert delivery["last_error"] == "twilio-voice code 21217", delivery
        time.sleep(0.2)
        logged = "\n".join(server.stderr_lines)
        encoded = urllib.parse.quote_plus(", ".join(code))
        for form in [code, ", ".join(code), encoded, encoded.replace("%2C", "%2c")]:
            assert form not in logged, form
    finally:
        server.stop()
        twilio.close()


def test_vonage_voice_ncco_and_call_event_with_url_token(data_dir, tmp_path):
    key_file = tmp_path / "vonage.key"
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", str(key_file)],
                   check=True, capture_output=True, timeout=30)
    public = subprocess.run(["openssl", "pkey", "-in", str(key_file), "-pubout"], check=True, capture_output=True, timeout=10).stdout
    vonage = FakeVendor({"uuid": "63f61863-4a51-4f6b-86e1-46edebcf9356", "status": "started", "direction": "outbound"})
    env = dict(CHANNELS, PHONE_VERIFY_VOICE_GATEWAYS="vonage", PHONE_VERIFY_VONAGE_VOICE_BASE_URL=vonage.base,
               PHONE_VERIFY_VONAGE_APPLICATION_ID="aaaaaaaa-bbbb-cccc-dddd-0123456789ab", PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE=str(key_file),
               PHONE_VERIFY_VONAGE_VOICE_FROM="+15005550007", PHONE_VERIFY_VONAGE_CALLBACK_TOKEN="vonage-callback-token",
               PHONE_VERIFY_APP_NAME="Acme")
    server = Server(data_dir, env).start()
    try:
        created = start(server, "+14155552671", "call", locale="es-MX")
        assert vonage.wait_for(1)
        request = vonage.requests[0]
        assert request["path"] == "/v1/calls"
        token = request["headers"]["Authorization"].removeprefix("Bearer ")
        claims = jwt.decode(token, public, algorithms=["RS256"])
        assert claims["application_id"] == "aaaaaaaa-bbbb-cccc-dddd-0123456789ab"
        payload = json.loads(request["body"])
        assert payload["to"] == [{"type": "phone", "number": "14155552671"}]
        assert payload["from"] == {"type": "phone", "number": "15005550007"}
        assert "answer_url" not in payload
        event_url = server.base + "/v1/webhooks/vonage/voice?token=vonage-callback-token"
        assert payload["event_url"] == [event_url]
        talks = [action for action in payload["ncco"] if action["action"] == "talk"]
        assert len(talks) == 3 and all(t["language"] == "es-MX" for t in talks)
        digits = re.search(r"(\d(?:, \d)+)\.", talks[0]["text"]).group(1)
        code = digits.replace(", ", "")
        assert digits in talks[1]["text"]  # said twice
        assert_no_code_in_urls(vonage, code)
        assert code not in event_url
        assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "vonage-voice"

        body = json.dumps({"uuid": "63f61863-4a51-4f6b-86e1-46edebcf9356", "conversation_uuid": "CON-1", "status": "busy",
                           "direction": "outbound", "to": "14155552671", "from": "15005550007"}).encode()
        headers = {"Content-Type": "application/json"}
        status, _, _ = server.request("POST", "/v1/webhooks/vonage/voice?token=wrong", raw=body, headers=headers)
        assert status == 403
        status, _, _ = server.request("POST", "/v1/webhooks/vonage/voice?token=vonage-callback-token", raw=body, headers=headers)
        assert status == 204
        delivery = server.wait_for_delivery(created["id"], "undelivered")
        assert delivery["gateway"] == "vonage-voice" and delivery["last_error"] == "vonage call busy"
        assert_code_is_accepted(server, created["id"], code)
    finally:
        server.stop()
        vonage.close()


def test_the_webhook_gateway_names_the_channel(data_dir):
    hook = FakeVendor({"id": "hook-1"})
    env = dict(CHANNELS, PHONE_VERIFY_GATEWAYS="webhook", PHONE_VERIFY_WHATSAPP_GATEWAYS="webhook", PHONE_VERIFY_VOICE_GATEWAYS="webhook",
               PHONE_VERIFY_WEBHOOK_URL=hook.base + "/send", PHONE_VERIFY_WEBHOOK_SECRET="whsec_" + base64.b64encode(SECRET_KEY).decode())
    server = Server(data_dir, env).start()
    try:
        sent = {}
        for n, channel in enumerate(["sms", "whatsapp", "call"]):
            created = start(server, "+1415555267%d" % n, channel)
            assert hook.wait_for(n + 1)
            request = hook.requests[n]
            payload = json.loads(request["body"])
            assert payload["channel"] == channel and payload["verification_id"] == created["id"]
            signed = b"%s.%s.%s" % (request["headers"]["webhook-id"].encode(), request["headers"]["webhook-timestamp"].encode(), request["body"])
            assert request["headers"]["webhook-signature"] == "v1," + base64.b64encode(hmac.new(SECRET_KEY, signed, hashlib.sha256).digest()).decode()
            assert server.wait_for_delivery(created["id"], "sent")["gateway"] == "webhook"
            sent[channel] = (created["id"], payload["code"])
        assert_no_code_in_urls(hook, sent["call"][1])
        for verification_id, code in sent.values():
            assert_code_is_accepted(server, verification_id, code)
    finally:
        server.stop()
        hook.close()


def test_the_console_sink_and_dev_inbox_show_the_channel(data_dir):
    server = Server(data_dir, CHANNELS).start()  # development: whatsapp and call default to the console sink
    try:
        created = start(server, "+14155552679", "whatsapp")
        code = server.wait_for_code(created["id"], "+14155552679")
        _, _, listed = server.request("GET", "/dev/messages?verification_id=" + created["id"])
        assert [m["channel"] for m in listed["messages"]] == ["whatsapp"]
        lines = server.wait_for_line(server.stdout_lines, lambda line: line.startswith("WhatsApp to "))
        assert lines and code in lines[0]
        assert_code_is_accepted(server, created["id"], code)
    finally:
        server.stop()


def test_channel_settings_are_validated_at_start_up(data_dir):
    server = Server(data_dir, {"PHONE_VERIFY_CHANNELS": "sms,auto", "PHONE_VERIFY_VOICE_GATEWAYS": "twilio,meta"})
    try:
        server.start(timeout=10)
        raise AssertionError("started with a bad configuration")
    except RuntimeError as err:
        text = str(err)
        assert "PHONE_VERIFY_AUTO_CHANNELS (default whatsapp,sms) lists whatsapp, which PHONE_VERIFY_CHANNELS does not enable" in text
        assert 'PHONE_VERIFY_VOICE_GATEWAYS unknown gateway "meta"' in text


def test_config_check_reports_channels_and_redacts_vendor_secrets(data_dir):
    env = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir, **CHANNELS, PHONE_VERIFY_WHATSAPP_GATEWAYS="meta",
               PHONE_VERIFY_META_WA_PHONE_NUMBER_ID="106540352242922", PHONE_VERIFY_META_WA_ACCESS_TOKEN="EAAG-secret-meta-token",
               PHONE_VERIFY_META_WA_TEMPLATE="verification_code", PHONE_VERIFY_META_WA_APP_SECRET="secret-app-secret")
    good = subprocess.run([BINARY, "config", "check"], env=env, capture_output=True, text=True, timeout=30)
    assert good.returncode == 0, good.stdout
    report = json.loads(good.stdout)
    assert report["effective"]["channels"] == ["sms", "whatsapp", "call", "auto"]
    assert report["effective"]["whatsapp_gateways"] == ["meta"] and report["effective"]["voice_gateways"] == ["console"]
    assert report["settings"]["PHONE_VERIFY_META_WA_ACCESS_TOKEN"] == "(set, redacted)"
    assert "EAAG-secret-meta-token" not in good.stdout and "secret-app-secret" not in good.stdout

    env.update(PHONE_VERIFY_WHATSAPP_GATEWAYS="meta,twilio", PHONE_VERIFY_META_WA_TEMPLATE="")
    bad = subprocess.run([BINARY, "config", "check"], env=env, capture_output=True, text=True, timeout=30)
    assert bad.returncode == 78
    problems = json.loads(bad.stdout)["problems"]
    assert "PHONE_VERIFY_META_WA_TEMPLATE is required by the meta WhatsApp gateway" in problems
    assert "PHONE_VERIFY_TWILIO_WA_FROM is required by the twilio WhatsApp gateway" in problems
