import API
import HTTPMessages
import VerifyCore

/// Twilio's status callbacks: `POST /v1/webhooks/twilio/status` for SMS, WhatsApp and calls
/// alike, signed with X-Twilio-Signature over the full URL and the form fields (a bad signature
/// gets 403), each feeding `DeliveryReceipts` under the gateway name the outbox row holds.
struct TwilioCallbackRoutes: RouteCollection {
    static let path = "/v1/webhooks/twilio/status"

    let receipts: DeliveryReceipts
    let callbacks: TwilioCallbacks

    func register(in router: inout Router) {
        let receipts = self.receipts, callbacks = self.callbacks
        let url = callbacks.publicURL + Self.path
        router.add("POST", Self.path) { request, _ in
            let fields = FormBody.fields(request.body)
            guard let signature = request.headers["X-Twilio-Signature"], callbacks.verify(url, fields, signature) else {
                throw VerifyError(.forbidden, "invalid X-Twilio-Signature")
            }
            try Self.record(fields, receipts: receipts, callbacks: callbacks)
            return HTTPResponse(status: 204)
        }
    }

    /// One Twilio status callback: a call's (`CallSid`, `CallStatus`: gateway `twilio-voice`), a
    /// WhatsApp message's (`whatsapp:` addresses: `twilio-whatsapp`) or an SMS's (`twilio`).
    static func record(_ fields: [(String, String)], receipts: DeliveryReceipts, callbacks: TwilioCallbacks) throws {
        let value = { (name: String) in fields.first { $0.0 == name }?.1 }
        if let sid = value("CallSid"), value("MessageSid") == nil {
            guard let callStatus = value("CallStatus"), let status = callbacks.call?(callStatus) else { return }
            let error = status == .undelivered || status == .failed ? "twilio call \(callStatus)" : nil
            try receipts.record(gateway: "twilio-voice", providerMessageID: sid, status: status, error: error, to: value("To"))
            return
        }
        guard let sid = value("MessageSid") ?? value("SmsSid"), let messageStatus = value("MessageStatus") else { return }
        let error = value("ErrorCode").map { "twilio error \($0)" }
        let whatsApp = value("ChannelPrefix") == "whatsapp" || [value("To"), value("From")].contains { $0?.hasPrefix("whatsapp:") == true }
        if whatsApp {
            guard let status = callbacks.whatsApp?(messageStatus, value("ErrorCode")) else { return }
            let to = value("To").map { $0.hasPrefix("whatsapp:") ? String($0.dropFirst(9)) : $0 }
            try receipts.record(gateway: "twilio-whatsapp", providerMessageID: sid, status: status, error: error, to: to)
        } else if let status = TwilioGateway.deliveryStatus(messageStatus) {
            try receipts.record(gateway: "twilio", providerMessageID: sid, status: status, error: error, to: value("To"))
        }
    }
}

/// How Twilio's status route authenticates and maps what it is posted.
public struct TwilioCallbacks: Sendable {
    /// The public base URL Twilio calls (its signature covers the full URL).
    public var publicURL: String
    /// (full URL, form fields, X-Twilio-Signature) → authentic?
    public var verify: @Sendable (String, [(String, String)], String) -> Bool
    /// (MessageStatus, ErrorCode) of a WhatsApp message → delivery status; nil: not configured.
    public var whatsApp: (@Sendable (String, String?) -> DeliveryStatus?)?
    /// CallStatus of a call → delivery status; nil: not configured.
    public var call: (@Sendable (String) -> DeliveryStatus?)?

    public init(
        publicURL: String, verify: @escaping @Sendable (String, [(String, String)], String) -> Bool,
        whatsApp: (@Sendable (String, String?) -> DeliveryStatus?)? = nil, call: (@Sendable (String) -> DeliveryStatus?)? = nil
    ) {
        self.publicURL = publicURL
        self.verify = verify
        self.whatsApp = whatsApp
        self.call = call
    }

    /// Its route, feeding `receipts`.
    public func routes(_ receipts: DeliveryReceipts) -> any RouteCollection { TwilioCallbackRoutes(receipts: receipts, callbacks: self) }
}
