"""`auto` end to end (docs/CHANNELS.md): WhatsApp through a fake Meta Cloud API on 127.0.0.1, SMS
through the console sink; the real binary decides when the SMS fallback goes, with the same code.

- Meta refuses the number ("not on WhatsApp", 131026): the SMS goes at once.
- Meta accepts, then a signed status webhook says `failed` 131026: the SMS goes at once.
- Meta accepts, then `delivered`: no SMS, even long after the fallback time.
- Meta accepts and never calls back: the SMS goes at the fallback time.
Each fallback is a send: `sends_remaining` drops by two for an `auto` start."""
import hashlib
import hmac
import json
import time

from conftest import Server
from fakes import FakeVendor

WAMID = "wamid.HBgLMTQxNTU1NTI2NzE"
META = {
    "PHONE_VERIFY_CHANNELS": "sms,whatsapp,auto", "PHONE_VERIFY_AUTO_CHANNELS": "whatsapp,sms",
    "PHONE_VERIFY_AUTO_FALLBACK_AFTER": "5", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta",
    "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID": "106540352242922", "PHONE_VERIFY_META_WA_ACCESS_TOKEN": "EAAG-meta-token",
    "PHONE_VERIFY_META_WA_TEMPLATE": "verification_code", "PHONE_VERIFY_META_WA_LANGUAGES": "en_US",
    "PHONE_VERIFY_META_WA_APP_SECRET": "meta-app-secret", "PHONE_VERIFY_META_WA_VERIFY_TOKEN": "meta-verify-token",
}
ACCEPTED = {"messaging_product": "whatsapp", "contacts": [{"input": "14155552671", "wa_id": "14155552671"}],
            "messages": [{"id": WAMID}]}
NOT_ON_WHATSAPP = {"error": {"message": "(#131026) Message Undeliverable.", "type": "OAuthException", "code": 131026,
                             "error_data": {"messaging_product": "whatsapp", "details": "Message Undeliverable."},
                             "fbtrace_id": "A1b2C3"}}


def serve(data_dir, meta, **env):
    return Server(data_dir, dict(META, PHONE_VERIFY_META_WA_BASE_URL=meta.base, **env)).start()


def start_auto(server, phone):
    status, _, created = server.request("POST", "/v1/verifications", {"phone_number": phone, "channel": "auto"})
    assert status == 201, created
    assert created["channel"] == "whatsapp"
    assert created["sends_remaining"] == 3  # the SMS fallback is reserved as a send
    return created


def whatsapp_code(meta, index=0):
    body = json.loads(meta.requests[index]["body"])
    return next(c for c in body["template"]["components"] if c["type"] == "body")["parameters"][0]["text"]


def dev_messages(server, verification_id):
    _, _, listed = server.request("GET", "/dev/messages?verification_id=" + verification_id)
    return listed["messages"]


def wait_for_sms(server, verification_id, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        sms = [m for m in dev_messages(server, verification_id) if m["channel"] == "sms"]
        if sms:
            return sms
        time.sleep(0.05)
    return []


def meta_status(server, status, error=None):
    entry = {"id": WAMID, "status": status, "timestamp": str(int(time.time())), "recipient_id": "14155552671"}
    if error:
        entry["errors"] = [{"code": error, "title": "Message undeliverable"}]
    body = json.dumps({"object": "whatsapp_business_account", "entry": [{"id": "WABA", "changes": [
        {"field": "messages", "value": {"messaging_product": "whatsapp", "statuses": [entry]}}]}]}).encode()
    signature = "sha256=" + hmac.new(b"meta-app-secret", body, hashlib.sha256).hexdigest()
    status_code, _, _ = server.request("POST", "/v1/webhooks/meta/whatsapp", raw=body,
                                       headers={"Content-Type": "application/json", "X-Hub-Signature-256": signature})
    assert status_code == 200


def check(server, verification_id, code):
    status, _, checked = server.request("POST", "/v1/verifications/%s/check" % verification_id, {"code": code})
    assert status == 200 and checked["status"] == "approved", checked


def test_not_on_whatsapp_falls_back_to_sms_at_once_with_the_same_code(data_dir):
    meta = FakeVendor(ACCEPTED)
    meta.mode = ("status", 400, NOT_ON_WHATSAPP)
    server = serve(data_dir, meta)
    try:
        created = start_auto(server, "+14155552671")
        sms = wait_for_sms(server, created["id"], timeout=3)  # well before the 5 s fallback time
        assert len(sms) == 1, dev_messages(server, created["id"])
        assert sms[0]["code"] == whatsapp_code(meta)
        assert len(meta.requests) == 1  # "not on WhatsApp" is never retried
        seen = server.wait_for_delivery(created["id"], channel="sms")
        assert seen["channel"] == "sms" and seen["gateway"] == "console"
        check(server, created["id"], sms[0]["code"])
    finally:
        server.stop()
        meta.close()


def test_an_undelivered_status_webhook_sends_the_fallback_at_once(data_dir):
    meta = FakeVendor(ACCEPTED)
    server = serve(data_dir, meta, PHONE_VERIFY_AUTO_FALLBACK_AFTER="30")
    try:
        created = start_auto(server, "+14155552671")
        assert meta.wait_for(1)
        server.wait_for_delivery(created["id"], "sent", channel="whatsapp")
        assert wait_for_sms(server, created["id"], timeout=0.5) == []  # the fallback waits for its time
        meta_status(server, "failed", error=131026)
        sms = wait_for_sms(server, created["id"], timeout=3)
        assert len(sms) == 1 and sms[0]["code"] == whatsapp_code(meta)
        check(server, created["id"], sms[0]["code"])
    finally:
        server.stop()
        meta.close()


def test_a_delivered_whatsapp_message_cancels_the_fallback(data_dir):
    meta = FakeVendor(ACCEPTED)
    server = serve(data_dir, meta)
    try:
        created = start_auto(server, "+14155552671")
        assert meta.wait_for(1)
        server.wait_for_delivery(created["id"], "sent")
        meta_status(server, "delivered")
        server.wait_for_delivery(created["id"], "delivered", timeout=0)  # the receipt is applied before the 200
        assert wait_for_sms(server, created["id"], timeout=7) == []  # past the fallback time: nothing
        check(server, created["id"], whatsapp_code(meta))
    finally:
        server.stop()
        meta.close()


def test_no_news_sends_the_sms_at_the_fallback_time(data_dir):
    meta = FakeVendor(ACCEPTED)
    server = serve(data_dir, meta)
    try:
        started = time.time()
        created = start_auto(server, "+14155552671")
        sms = wait_for_sms(server, created["id"], timeout=12)
        assert len(sms) == 1
        assert time.time() - started >= 4.9  # not before PHONE_VERIFY_AUTO_FALLBACK_AFTER
        assert sms[0]["code"] == whatsapp_code(meta)
        assert server.wait_for_delivery(created["id"], channel="sms")["channel"] == "sms"
        # A late "delivered" for the WhatsApp message changes nothing more: one SMS in all.
        meta_status(server, "delivered")
        time.sleep(0.3)
        assert len([m for m in dev_messages(server, created["id"]) if m["channel"] == "sms"]) == 1
    finally:
        server.stop()
        meta.close()


def test_a_resend_supersedes_the_pending_fallback(data_dir):
    meta = FakeVendor(ACCEPTED)
    server = serve(data_dir, meta, PHONE_VERIFY_RESEND_COOLDOWN="1")
    try:
        created = start_auto(server, "+14155552671")
        assert meta.wait_for(1)
        time.sleep(1.1)
        status, _, resent = server.request("POST", "/v1/verifications/%s/resend" % created["id"], {"channel": "whatsapp"})
        assert status == 200, resent
        assert resent["sends_remaining"] == 2
        assert meta.wait_for(2)
        # The first send's SMS fallback is gone; the resend asked WhatsApp only.
        assert wait_for_sms(server, created["id"], timeout=6) == []
        check(server, created["id"], whatsapp_code(meta, 1))
    finally:
        server.stop()
        meta.close()
