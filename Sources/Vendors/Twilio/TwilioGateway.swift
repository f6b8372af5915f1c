import Gateways
import Foundation
import CurlClient
import VerifyCore
import Encoding

/// Settings of the Twilio Programmable Messaging gateway.
public struct TwilioConfiguration: Sendable {
    public var baseURL = "https://api.twilio.com"
    public var accountSID: String
    public var authToken: String
    /// A sender number (E.164) or a Messaging Service SID (`MG…`).
    public var from: String
    /// Where Twilio posts status callbacks (`…/v1/webhooks/twilio/status`), if reachable.
    public var statusCallbackURL: String?

    public init(accountSID: String, authToken: String, from: String, baseURL: String = "https://api.twilio.com", statusCallbackURL: String? = nil) {
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
        self.baseURL = baseURL
        self.statusCallbackURL = statusCallbackURL
    }
}

/// Sends through `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (form-encoded, HTTP Basic).
public struct TwilioGateway: MessageGateway {
    public let name = "twilio"
    let configuration: TwilioConfiguration
    let http: GatewayHTTP

    /// Twilio errors about the destination itself: no other gateway would do better.
    /// 21211 invalid To, 21214 To not reachable, 21614 not a mobile number.
    static let destinationErrors: Set<Int64> = [21211, 21214, 21614]
    /// This Twilio account or sender cannot reach the destination, another gateway may: 21408
    /// region not enabled (geo permissions), 21610 the recipient sent STOP to this sender, 21612
    /// no route for this To/From pair. Twilio works meanwhile: its circuit stays closed.
    static let unroutableErrors: Set<Int64> = [21408, 21610, 21612]

    /// `MG` and 32 hex digits: a Messaging Service, not an alphanumeric sender such as "MGM Resorts".
    static func isMessagingServiceSID(_ from: String) -> Bool {
        from.utf8.count == 34 && from.hasPrefix("MG") && from.utf8.dropFirst(2).allSatisfy(ASCII.isHexDigit)
    }

    public init(configuration: TwilioConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        var fields = [("To", message.to), ("Body", message.body)]
        fields.append(Self.isMessagingServiceSID(c.from) ? ("MessagingServiceSid", c.from) : ("From", c.from))
        if let callback = c.statusCallbackURL { fields.append(("StatusCallback", callback)) }
        // Credentials, sender or account problems fall through to "retryable": another gateway may send.
        let api = TwilioAPI(http: http, gateway: name, label: "twilio", destinationErrors: Self.destinationErrors, unroutableErrors: Self.unroutableErrors)
        return api.post(
            baseURL: c.baseURL, accountSID: c.accountSID, authToken: c.authToken, resource: "Messages.json", fields: fields, sidOf: "message"
        ) { body, response in body?["message"]?.stringValue ?? response.text.prefix(4000).description }
    }

    /// A status callback's `MessageStatus` → delivery status (nil for statuses that say nothing new).
    public static func deliveryStatus(_ messageStatus: String) -> DeliveryStatus? {
        switch messageStatus {
        case "delivered", "read": return .delivered
        case "undelivered": return .undelivered
        case "failed": return .failed
        case "accepted", "queued", "sending", "sent", "scheduled": return .sent
        default: return nil
        }
    }
}
