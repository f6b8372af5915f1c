import VerifyCore

/// One status a vendor's webhook reports for one message (parsed after authentication).
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

/// Meta's WhatsApp webhooks (`/v1/webhooks/meta/whatsapp`): the subscription handshake and
/// signed status POSTs. The checks and the parser are the gateway's (`MetaWebhookSignature`,
/// `MetaWhatsAppStatus`), passed in by the application.
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
}

/// Vonage's WhatsApp status (`/v1/webhooks/vonage/whatsapp`) and call event
/// (`/v1/webhooks/vonage/voice`) webhooks.
public struct VonageChannelCallbacks: Sendable {
    /// (Authorization header, `token` query parameter, raw body) → authentic?
    public var authenticate: @Sendable (String?, String?, [UInt8]) -> Bool
    /// Messages API `status` → delivery status; nil: no WhatsApp route.
    public var whatsAppStatus: (@Sendable (String) -> DeliveryStatus?)?
    /// Voice API event `status` → delivery status; nil: no voice route.
    public var callStatus: (@Sendable (String) -> DeliveryStatus?)?

    public init(
        authenticate: @escaping @Sendable (String?, String?, [UInt8]) -> Bool,
        whatsAppStatus: (@Sendable (String) -> DeliveryStatus?)?, callStatus: (@Sendable (String) -> DeliveryStatus?)?
    ) {
        self.authenticate = authenticate
        self.whatsAppStatus = whatsAppStatus
        self.callStatus = callStatus
    }
}

/// Twilio's WhatsApp messages and calls report to the SMS status route
/// (`/v1/webhooks/twilio/status`); these map their statuses.
public struct TwilioChannelStatuses: Sendable {
    /// (MessageStatus, ErrorCode) of a WhatsApp message → delivery status; nil: not configured.
    public var whatsApp: (@Sendable (String, String?) -> DeliveryStatus?)?
    /// CallStatus of a call → delivery status; nil: not configured.
    public var call: (@Sendable (String) -> DeliveryStatus?)?

    public init(whatsApp: (@Sendable (String, String?) -> DeliveryStatus?)? = nil, call: (@Sendable (String) -> DeliveryStatus?)? = nil) {
        self.whatsApp = whatsApp
        self.call = call
    }
}
