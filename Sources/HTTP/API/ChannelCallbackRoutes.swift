import HTTPMessages
import VerifyCore

/// Status webhooks of the WhatsApp and voice vendors (docs/GATEWAYS.md), each authenticated
/// before its body is parsed, each feeding `DeliveryReceipts` under the gateway name the outbox
/// row holds:
/// - `GET /v1/webhooks/meta/whatsapp`: Meta's subscription handshake (verify token);
/// - `POST /v1/webhooks/meta/whatsapp`: statuses, `X-Hub-Signature-256` over the raw body;
/// - `POST /v1/webhooks/vonage/whatsapp`: Messages API statuses;
/// - `POST /v1/webhooks/vonage/voice`: Voice API call events (both Vonage routes: a signed
///   JWT in `Authorization`, or the callback token in the URL).
struct ChannelCallbackRoutes: RouteCollection {
    /// Larger bodies are refused before any check (Meta batches statuses; a few KiB each).
    static let maxBodyBytes = 64 * 1024

    let receipts: DeliveryReceipts
    let meta: MetaCallbacks?
    let vonage: VonageChannelCallbacks?

    func register(in router: inout Router) {
        let receipts = self.receipts
        if let meta {
            let path = "/v1/webhooks/meta/whatsapp"
            if let challenge = meta.challenge {
                router.add("GET", path) { request, _ in
                    guard let answer = challenge(request.query["hub.mode"], request.query["hub.verify_token"], request.query["hub.challenge"]) else {
                        throw VerifyError(.forbidden, "invalid verify token")
                    }
                    return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(answer.utf8))
                }
            }
            if let verify = meta.verify {
                router.add("POST", path) { request, _ in
                    try Self.bounded(request)
                    guard verify(request.body, request.headers["X-Hub-Signature-256"]) else {
                        throw VerifyError(.forbidden, "invalid X-Hub-Signature-256")
                    }
                    for receipt in meta.statuses(request.body) {
                        try receipts.record(gateway: "meta-whatsapp", providerMessageID: receipt.messageID, status: receipt.status, error: receipt.error, to: receipt.to)
                    }
                    return HTTPResponse(status: 200)
                }
            }
        }
        if let vonage {
            if let map = vonage.whatsAppStatus {
                router.add("POST", "/v1/webhooks/vonage/whatsapp") { request, _ in
                    guard let event = try Self.vonageEvent(request, vonage) else { return HTTPResponse(status: 204) }
                    if let id = event["message_uuid"]?.stringValue, let value = event["status"]?.stringValue, let status = map(value) {
                        let title = event["error"]?["title"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
                        let error = status == .undelivered || status == .failed
                            ? "vonage whatsapp \(value)" + (title.map { " (error \(Self.short($0)))" } ?? "") : nil
                        try receipts.record(
                            gateway: "vonage-whatsapp", providerMessageID: id, status: status, error: error,
                            to: event["to"]?.stringValue.map { "+" + $0 })
                    }
                    return HTTPResponse(status: 204)
                }
            }
            if let map = vonage.callStatus {
                router.add("POST", "/v1/webhooks/vonage/voice") { request, _ in
                    guard let event = try Self.vonageEvent(request, vonage) else { return HTTPResponse(status: 204) }
                    if let id = event["uuid"]?.stringValue, let value = event["status"]?.stringValue, let status = map(value) {
                        let error = status == .undelivered || status == .failed ? "vonage call \(value)" : nil
                        try receipts.record(
                            gateway: "vonage-voice", providerMessageID: id, status: status, error: error,
                            to: event["to"]?.stringValue.map { "+" + $0 })
                    }
                    return HTTPResponse(status: 204)
                }
            }
        }
    }

    static func bounded(_ request: HTTPRequest) throws {
        guard request.body.count <= maxBodyBytes else { throw VerifyError(.payloadTooLarge, "body too large") }
    }

    /// The authenticated JSON object of a Vonage webhook (nil: not an object, ignored).
    static func vonageEvent(_ request: HTTPRequest, _ vonage: VonageChannelCallbacks) throws -> JSONValue? {
        try bounded(request)
        guard vonage.authenticate(request.headers["Authorization"], request.query["token"], request.body) else {
            throw VerifyError(.forbidden, "invalid Vonage webhook signature or token")
        }
        guard let event = try? JSONValue.parse(request.body), event.isObject else { return nil }
        return event
    }

    /// A vendor's error title kept only when short and plain (digits, letters, `-`): never a sentence.
    static func short(_ text: String) -> String {
        text.count <= 16 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) ? text : "?"
    }
}
