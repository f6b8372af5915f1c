import API
import HTTPMessages
import VerifyCore

/// Meta's WhatsApp webhooks, authenticated before the body is parsed, feeding `DeliveryReceipts`
/// as gateway `meta-whatsapp`:
/// - `GET /v1/webhooks/meta/whatsapp`: the subscription handshake (verify token);
/// - `POST /v1/webhooks/meta/whatsapp`: statuses, `X-Hub-Signature-256` over the raw body.
struct MetaCallbackRoutes: RouteCollection {
    static let path = "/v1/webhooks/meta/whatsapp"

    let receipts: DeliveryReceipts
    let meta: MetaCallbacks

    func register(in router: inout Router) {
        let receipts = self.receipts, meta = self.meta
        if let challenge = meta.challenge {
            router.add("GET", Self.path) { request, _ in
                guard let answer = challenge(request.query["hub.mode"], request.query["hub.verify_token"], request.query["hub.challenge"]) else {
                    throw VerifyError(.forbidden, "invalid verify token")
                }
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(answer.utf8))
            }
        }
        if let verify = meta.verify {
            router.add("POST", Self.path) { request, _ in
                try CallbackBody.bounded(request)
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
}

/// One status Meta's webhook reports for one message (parsed after authentication).
public struct CallbackReceipt: Sendable, Equatable {
    public var messageID: String
    public var status: DeliveryStatus
    /// A short reason for the record (`meta error 131026`), never vendor text.
    public var error: String?
    /// The recipient (E.164), for the delivery metric's country only.
    public var to: String?

    public init(messageID: String, status: DeliveryStatus, error: String?, to: String? = nil) {
        self.messageID = messageID
        self.status = status
        self.error = error
        self.to = to
    }
}

/// Meta's WhatsApp webhooks: the subscription handshake and signed status POSTs.
public struct MetaCallbacks: Sendable {
    /// (hub.mode, hub.verify_token, hub.challenge) → the challenge to echo, or nil (403). Nil:
    /// no handshake route (no verify token configured).
    public var challenge: (@Sendable (String?, String?, String?) -> String?)?
    /// (raw body, X-Hub-Signature-256) → authentic? Nil: no status route (no app secret).
    public var verify: (@Sendable ([UInt8], String?) -> Bool)?
    /// The statuses of an authentic body.
    public var statuses: @Sendable ([UInt8]) -> [CallbackReceipt]

    public init(
        challenge: (@Sendable (String?, String?, String?) -> String?)?, verify: (@Sendable ([UInt8], String?) -> Bool)?,
        statuses: @escaping @Sendable ([UInt8]) -> [CallbackReceipt]
    ) {
        self.challenge = challenge
        self.verify = verify
        self.statuses = statuses
    }

    /// Its routes, feeding `receipts`.
    public func routes(_ receipts: DeliveryReceipts) -> any RouteCollection { MetaCallbackRoutes(receipts: receipts, meta: self) }
}
