import API
import Foundation
import HTTPMessages
import Synchronization
import Telemetry
import Testing
import Vendors
import VerifyCore
import VerifyTesting

/// The WhatsApp and voice status callbacks in-process: each is authenticated before its body
/// is read, and each receipt reaches the outbox under the gateway name the message was sent by.
/// (The real signature checks and parsers are tested with the application's wiring in LiveTests.)
@Suite struct ChannelCallbackRoutesTests {
    struct Receipt: Equatable { let gateway, id: String; let status: DeliveryStatus; let error: String? }

    /// An outbox that only records receipts.
    final class ReceiptLog: OutboxStore {
        let receipts = Mutex<[Receipt]>([])
        var all: [Receipt] { receipts.withLock { $0 } }
        func claimDue(limit: Int, now: Date, leaseUntil: Date, owner: String) throws -> [OutboxMessage] { [] }
        func complete(_ outcomes: [OutboxOutcome], owner: String, events: [String: WebhookEvent]) throws {}
        func releaseLeases(owner: String) throws {}
        func renewLeases(owner: String, ids: [String], until: Date) throws -> Int { 0 }
        func recordReceipt(
            gateway: String, providerMessageID: String, status: DeliveryStatus, error: String?, at: Date, event: ReceiptEvent?
        ) throws -> Bool {
            receipts.withLock { $0.append(Receipt(gateway: gateway, id: providerMessageID, status: status, error: error)) }
            return true
        }
        func claimedMessageState(messageID: String, owner: String) throws -> ClaimedMessageState { .deliverable }
        func queueDepth() throws -> (count: Int, oldest: Date?) { (0, nil) }
        func purge(endedBefore cutoff: Date, idempotencyBefore: Date) throws -> Int { 0 }
    }

    let log = ReceiptLog()
    let api: APIResponder

    init() {
        let t = TestService()
        let receipts = DeliveryReceipts(outbox: log, clock: t.clock)
        var twilio = TwilioCallbacks(publicURL: "http://issuer.test") { _, _, signature in signature == "good" }
        twilio.whatsApp = { status, code in code == "63003" ? .undelivered : TwilioGateway.deliveryStatus(status) }
        twilio.call = { $0 == "completed" ? .delivered : $0 == "busy" ? .undelivered : nil }
        let meta = MetaCallbacks(
            challenge: { mode, token, challenge in mode == "subscribe" && token == "verify-me" ? challenge : nil },
            verify: { body, header in header == "sha256=" + String(body.count) },
            statuses: { body in
                String(decoding: body, as: UTF8.self) == "bad" ? [] : [CallbackReceipt(messageID: "wamid.1", status: .delivered, error: nil)]
            })
        let vonage = VonageCallbacks(channels: VonageChannelCallbacks(
            authenticate: { authorization, token, _ in authorization == "Bearer good" || token == "url-token" },
            whatsAppStatus: { $0 == "undeliverable" ? .undelivered : $0 == "delivered" ? .delivered : nil },
            callStatus: { $0 == "answered" ? .delivered : $0 == "unanswered" ? .undelivered : nil }))
        api = APIResponder(
            APIDependencies(
                random: t.random, logger: Logger(handler: CapturingLogHandler(), minimumLevel: .debug),
                groups: [.webhooks([twilio.routes(receipts), meta.routes(receipts), vonage.routes(receipts)])]))
    }

    func call(_ method: String, _ path: String, body: String = "", query: [String: String] = [:], headers: [(String, String)] = []) -> HTTPResponse {
        api.respond(to: HTTPRequest(method: method, path: path, query: query, headers: HTTPHeaders(headers), body: Array(body.utf8)))
    }

    @Test func metaHandshakeEchoesTheChallengeOnlyForTheVerifyToken() {
        let ok = call("GET", "/v1/webhooks/meta/whatsapp", query: ["hub.mode": "subscribe", "hub.verify_token": "verify-me", "hub.challenge": "1158201444"])
        #expect(ok.status == 200)
        #expect(ok.bodyBytes == Array("1158201444".utf8))
        #expect(ok.headers["Content-Type"]?.hasPrefix("text/plain") == true)
        let wrong = call("GET", "/v1/webhooks/meta/whatsapp", query: ["hub.mode": "subscribe", "hub.verify_token": "guess", "hub.challenge": "1"])
        #expect(wrong.status == 403)
        #expect(call("GET", "/v1/webhooks/meta/whatsapp").status == 403)
    }

    @Test func metaStatusesNeedTheSignatureOfTheRawBody() {
        let body = #"{"entry":[]}"#
        #expect(call("POST", "/v1/webhooks/meta/whatsapp", body: body).status == 403)
        #expect(call("POST", "/v1/webhooks/meta/whatsapp", body: body, headers: [("X-Hub-Signature-256", "sha256=0")]).status == 403)
        #expect(log.all.isEmpty)
        let ok = call("POST", "/v1/webhooks/meta/whatsapp", body: body, headers: [("X-Hub-Signature-256", "sha256=\(body.utf8.count)")])
        #expect(ok.status == 200)
        #expect(log.all == [Receipt(gateway: "meta-whatsapp", id: "wamid.1", status: .delivered, error: nil)])
    }

    @Test func anOversizedMetaBodyIsRefusedBeforeTheSignatureCheck() {
        let body = String(repeating: "x", count: 64 * 1024 + 1)
        let reply = call("POST", "/v1/webhooks/meta/whatsapp", body: body, headers: [("X-Hub-Signature-256", "sha256=\(body.utf8.count)")])
        #expect(reply.status == 413)
        #expect(log.all.isEmpty)
    }

    @Test func twilioWhatsAppStatusesGoToTheTwilioWhatsAppGateway() {
        let form = "MessageSid=MM1&MessageStatus=undelivered&ErrorCode=63003&To=whatsapp%3A%2B14155552671&From=whatsapp%3A%2B14155238886"
        #expect(call("POST", "/v1/webhooks/twilio/status", body: form, headers: [("X-Twilio-Signature", "forged")]).status == 403)
        #expect(log.all.isEmpty)
        #expect(call("POST", "/v1/webhooks/twilio/status", body: form, headers: [("X-Twilio-Signature", "good")]).status == 204)
        #expect(log.all == [Receipt(gateway: "twilio-whatsapp", id: "MM1", status: .undelivered, error: "twilio error 63003")])
    }

    @Test func twilioCallStatusesGoToTheTwilioVoiceGateway() {
        let busy = "CallSid=CA1&CallStatus=busy&To=%2B14155552671"
        #expect(call("POST", "/v1/webhooks/twilio/status", body: busy, headers: [("X-Twilio-Signature", "good")]).status == 204)
        let done = "CallSid=CA2&CallStatus=completed&To=%2B14155552671"
        #expect(call("POST", "/v1/webhooks/twilio/status", body: done, headers: [("X-Twilio-Signature", "good")]).status == 204)
        #expect(log.all == [
            Receipt(gateway: "twilio-voice", id: "CA1", status: .undelivered, error: "twilio call busy"),
            Receipt(gateway: "twilio-voice", id: "CA2", status: .delivered, error: nil),
        ])
    }

    @Test func twilioSMSStatusesStillGoToTheTwilioGateway() {
        let form = "MessageSid=SM1&MessageStatus=delivered&To=%2B14155552671"
        #expect(call("POST", "/v1/webhooks/twilio/status", body: form, headers: [("X-Twilio-Signature", "good")]).status == 204)
        #expect(log.all == [Receipt(gateway: "twilio", id: "SM1", status: .delivered, error: nil)])
    }

    @Test func vonageWebhooksNeedASignatureOrTheToken() {
        let status = #"{"message_uuid":"uuid-1","to":"14155552671","status":"undeliverable","error":{"title":"1340"}}"#
        #expect(call("POST", "/v1/webhooks/vonage/whatsapp", body: status).status == 403)
        #expect(call("POST", "/v1/webhooks/vonage/whatsapp", body: status, headers: [("Authorization", "Bearer forged")]).status == 403)
        #expect(call("POST", "/v1/webhooks/vonage/whatsapp", body: status, query: ["token": "nope"]).status == 403)
        #expect(log.all.isEmpty)
        #expect(call("POST", "/v1/webhooks/vonage/whatsapp", body: status, headers: [("Authorization", "Bearer good")]).status == 204)
        let event = #"{"uuid":"call-1","to":"14155552671","status":"unanswered"}"#
        #expect(call("POST", "/v1/webhooks/vonage/voice", body: event, query: ["token": "url-token"]).status == 204)
        #expect(log.all == [
            Receipt(gateway: "vonage-whatsapp", id: "uuid-1", status: .undelivered, error: "vonage whatsapp undeliverable (error 1340)"),
            Receipt(gateway: "vonage-voice", id: "call-1", status: .undelivered, error: "vonage call unanswered"),
        ])
    }

    @Test func routesExistOnlyWhenTheirVendorIsConfigured() {
        let receipts = DeliveryReceipts(outbox: log, clock: TestService().clock)
        let unconfigured: [any Vendor] = [
            TwilioVendor(sms: nil, whatsApp: nil, voice: nil),
            VonageVendor(sms: nil, whatsApp: nil, voice: nil, signatureSecret: "s", callbackToken: "t"),
            MetaVendor(whatsApp: nil),
        ]
        for vendor in unconfigured {
            #expect(vendor.callbackRoutes(receipts, publicURL: "http://issuer.test", clock: TestService().clock).isEmpty, "\(vendor.name)")
        }
    }
}
