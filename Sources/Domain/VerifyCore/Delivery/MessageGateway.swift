import Foundation

/// One message as a gateway receives it: an SMS, a WhatsApp message or a call (`channel`).
public struct OutboundMessage: Sendable, Equatable {
    public let messageID: String
    public let to: String
    /// International format of `to`, for people.
    public let display: String
    public let body: String
    public let code: String
    public let verificationID: String
    public let purpose: Purpose
    public let locale: String?
    public let expiresAt: Date
    /// The channel it goes by: an SMS gateway sends `body`; WhatsApp and voice gateways send
    /// only `code` in their own template or script (docs/MESSAGES.md).
    public let channel: Channel

    public init(
        messageID: String, to: String, display: String, body: String, code: String, verificationID: String,
        purpose: Purpose, locale: String?, expiresAt: Date, channel: Channel = .sms
    ) {
        self.channel = channel
        self.messageID = messageID
        self.to = to
        self.display = display
        self.body = body
        self.code = code
        self.verificationID = verificationID
        self.purpose = purpose
        self.locale = locale
        self.expiresAt = expiresAt
    }
}

/// What a gateway says about one send.
public enum GatewayResult: Sendable, Equatable {
    /// Accepted by the provider `via` (a gateway name); `providerMessageID` identifies the
    /// message in status callbacks.
    case sent(via: String, providerMessageID: String?, status: DeliveryStatus)
    /// This gateway failed for now (timeout, 5xx, 429, bad credentials): another gateway may
    /// work, and a later retry may too, optionally not before `retryAfter` seconds.
    case retryable(reason: String, retryAfter: Int?)
    /// The destination itself is refused (invalid number, barred): no gateway will do better.
    case permanent(reason: String)
    /// This gateway cannot reach this destination (its account's region permissions, the
    /// recipient's STOP to its sender, no route from its sender), while it works for others:
    /// another gateway may deliver; retrying this one will not. Not a failure of the gateway.
    case unroutable(reason: String)
}

/// A way to send a code: console sink, Twilio, Vonage, webhook, WhatsApp and voice vendors, or a
/// failover chain of them (one per channel).
/// Called from delivery worker threads, never from a request.
public protocol MessageGateway: Sendable {
    var name: String { get }
    func send(_ message: OutboundMessage) -> GatewayResult
}

/// A message as development tools show it (`GET /dev/messages`, the dev inbox).
public struct DevMessage: Sendable, Equatable {
    public let to: String
    public let body: String
    public let code: String
    public let verificationID: String
    public let purpose: Purpose
    public let gateway: String
    public let sentAt: Date
    public let channel: Channel

    public init(
        to: String, body: String, code: String, verificationID: String, purpose: Purpose, gateway: String, sentAt: Date,
        channel: Channel = .sms
    ) {
        self.channel = channel
        self.to = to
        self.body = body
        self.code = code
        self.verificationID = verificationID
        self.purpose = purpose
        self.gateway = gateway
        self.sentAt = sentAt
    }
}

/// Development-mode record of sent messages. Production wiring never creates one.
public protocol DevMessageLog: Sendable {
    func record(_ message: DevMessage)
    /// Newest first, optionally only those to one E.164 number.
    func messages(to phoneNumber: String?, limit: Int) -> [DevMessage]
    /// Newest first, filtered by number and/or verification.
    func messages(to phoneNumber: String?, verificationID: String?, limit: Int) -> [DevMessage]
}
