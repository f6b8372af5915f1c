import HTTPMessages
import VerifyCore

/// How vendors' status callbacks are authenticated; each check is a constant-time comparison.
public struct CallbackAuthenticators: Sendable {
    /// The public base URL vendors call (for Twilio's signature, which covers the full URL).
    public var publicURL: String
    /// (full URL, form fields, X-Twilio-Signature) → authentic?
    public var twilio: (@Sendable (String, [(String, String)], String) -> Bool)?
    /// The `token` query parameter of Vonage receipts → authentic?
    public var vonage: (@Sendable (String) -> Bool)?
    /// Twilio WhatsApp and call statuses on the Twilio route (`ChannelCallbacks.swift`).
    public var twilioChannels = TwilioChannelStatuses()
    /// Meta WhatsApp webhooks; nil: no routes.
    public var meta: MetaCallbacks?
    /// Vonage WhatsApp status and call event webhooks; nil: no routes.
    public var vonageChannels: VonageChannelCallbacks?

    public init(
        publicURL: String, twilio: (@Sendable (String, [(String, String)], String) -> Bool)? = nil,
        vonage: (@Sendable (String) -> Bool)? = nil
    ) {
        self.publicURL = publicURL
        self.twilio = twilio
        self.vonage = vonage
    }
}

/// Delivery receipts from vendors: `POST /v1/webhooks/twilio/status` (SMS, WhatsApp and calls,
/// signed with X-Twilio-Signature; bad signatures get 403), `GET|POST /v1/webhooks/vonage/dlr?token=…`,
/// and the WhatsApp and voice webhooks of `ChannelCallbackRoutes`.
struct DeliveryCallbackRoutes: RouteCollection {
    let receipts: DeliveryReceipts
    let auth: CallbackAuthenticators

    func register(in router: inout Router) {
        let receipts = self.receipts
        let auth = self.auth
        if let twilio = auth.twilio {
            let path = "/v1/webhooks/twilio/status"
            router.add("POST", path) { request, _ in
                let fields = FormBody.fields(request.body)
                guard let signature = request.headers["X-Twilio-Signature"], twilio(auth.publicURL + path, fields, signature) else {
                    throw VerifyError(.forbidden, "invalid X-Twilio-Signature")
                }
                try Self.recordTwilio(fields, receipts: receipts, channels: auth.twilioChannels)
                return HTTPResponse(status: 204)
            }
        }
        if let vonage = auth.vonage {
            let handler: RouteHandler = { request, _ in
                guard let token = request.query["token"], vonage(token) else {
                    throw VerifyError(.forbidden, "invalid callback token")
                }
                var fields = request.query.map { ($0.key, $0.value) }
                if request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") == true,
                    case .object(let members)? = try? JSONValue.parse(request.body)
                {
                    fields += members.compactMap { m in m.value.stringValue.map { (m.key, $0) } }
                } else if !request.body.isEmpty {
                    fields += FormBody.fields(request.body)
                }
                let value = { (name: String) in fields.first { $0.0 == name }?.1 }
                if let id = value("messageId") ?? value("message-id"), let status = value("status").flatMap(DeliveryReceipts.vonageStatus) {
                    let code = value("err-code").flatMap { $0 == "0" ? nil : "vonage error \($0)" }
                    try receipts.record(gateway: "vonage", providerMessageID: id, status: status, error: code, to: value("msisdn").map { "+" + $0 })
                }
                return HTTPResponse(status: 204)
            }
            router.add("GET", "/v1/webhooks/vonage/dlr", handler)
            router.add("POST", "/v1/webhooks/vonage/dlr", handler)
        }
        ChannelCallbackRoutes(receipts: receipts, meta: auth.meta, vonage: auth.vonageChannels).register(in: &router)
    }

    /// One Twilio status callback: a call's (`CallSid`, `CallStatus`: gateway `twilio-voice`), a
    /// WhatsApp message's (`whatsapp:` addresses: `twilio-whatsapp`) or an SMS's (`twilio`).
    static func recordTwilio(_ fields: [(String, String)], receipts: DeliveryReceipts, channels: TwilioChannelStatuses) throws {
        let value = { (name: String) in fields.first { $0.0 == name }?.1 }
        if let sid = value("CallSid"), value("MessageSid") == nil {
            guard let callStatus = value("CallStatus"), let status = channels.call?(callStatus) else { return }
            let error = status == .undelivered || status == .failed ? "twilio call \(callStatus)" : nil
            try receipts.record(gateway: "twilio-voice", providerMessageID: sid, status: status, error: error, to: value("To"))
            return
        }
        guard let sid = value("MessageSid") ?? value("SmsSid"), let messageStatus = value("MessageStatus") else { return }
        let error = value("ErrorCode").map { "twilio error \($0)" }
        let whatsApp = value("ChannelPrefix") == "whatsapp" || [value("To"), value("From")].contains { $0?.hasPrefix("whatsapp:") == true }
        if whatsApp {
            guard let status = channels.whatsApp?(messageStatus, value("ErrorCode")) else { return }
            let to = value("To").map { $0.hasPrefix("whatsapp:") ? String($0.dropFirst(9)) : $0 }
            try receipts.record(gateway: "twilio-whatsapp", providerMessageID: sid, status: status, error: error, to: to)
        } else if let status = DeliveryReceipts.twilioStatus(messageStatus) {
            try receipts.record(gateway: "twilio", providerMessageID: sid, status: status, error: error, to: value("To"))
        }
    }
}
