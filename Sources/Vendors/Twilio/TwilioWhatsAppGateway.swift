import Gateways
import Foundation
import CurlClient
import VerifyCore

/// Settings of the Twilio WhatsApp gateway (Programmable Messaging with Content templates).
public struct TwilioWhatsAppConfiguration: Sendable {
    public var baseURL: String
    public var accountSID: String
    public var authToken: String
    /// The WhatsApp sender (E.164, sent as `whatsapp:+…`) or a Messaging Service SID (`MG…`)
    /// whose sender pool holds it.
    public var from: String
    /// Approved `whatsapp/authentication` Content templates (`HX…`) by WhatsApp language code
    /// (`en`, `en_US`, `pt_BR`…): one Content template per language.
    public var contentSIDs: [String: String]
    /// The template for a locale none of `contentSIDs` matches (and for messages without one).
    public var defaultContentSID: String
    /// Where Twilio posts status callbacks (`…/v1/webhooks/twilio/status`), if reachable.
    public var statusCallbackURL: String?

    public init(
        accountSID: String, authToken: String, from: String, defaultContentSID: String, contentSIDs: [String: String] = [:],
        baseURL: String = "https://api.twilio.com", statusCallbackURL: String? = nil
    ) {
        self.accountSID = accountSID
        self.authToken = authToken
        self.from = from
        self.defaultContentSID = defaultContentSID
        self.contentSIDs = contentSIDs
        self.baseURL = baseURL
        self.statusCallbackURL = statusCallbackURL
    }

    /// The Content template for a message's locale.
    public func contentSID(for locale: String?) -> String {
        let language = WhatsAppLanguage(approved: contentSIDs.keys.sorted(), fallback: "")
        return contentSIDs[language.code(for: locale)] ?? defaultContentSID
    }
}

/// Sends through `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with `whatsapp:`
/// addresses, `ContentSid` and `ContentVariables={"1":"<code>"}` (form-encoded, HTTP Basic).
/// No `Body`: the approved template's text is fixed, only the code varies.
public struct TwilioWhatsAppGateway: MessageGateway {
    public let name = "twilio-whatsapp"
    let configuration: TwilioWhatsAppConfiguration
    let http: GatewayHTTP

    /// 21211 invalid To: the destination itself is refused.
    static let destinationErrors: Set<Int64> = [21211]
    /// Not reachable on WhatsApp through this sender, SMS may be: 63003 the To address is not a
    /// WhatsApp user (WhatsApp 1006/1013/1021), 63024 invalid recipient / cannot receive this
    /// message (1002/1026), 63032 held back by WhatsApp (472), 63049 not delivered by Meta for
    /// ecosystem health, 21610 the recipient opted out of this sender.
    static let unroutableErrors: Set<Int64> = [63003, 63024, 63032, 63049, 21610]

    public init(configuration: TwilioWhatsAppConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    func fields(for message: OutboundMessage) -> [(String, String)] {
        let c = configuration
        let variables: JSONValue = ["1": .string(message.code)]
        var fields = [("To", "whatsapp:" + message.to)]
        if TwilioGateway.isMessagingServiceSID(c.from) {
            fields.append(("MessagingServiceSid", c.from))
        } else {
            fields.append(("From", c.from.hasPrefix("whatsapp:") ? c.from : "whatsapp:" + c.from))
        }
        fields.append(("ContentSid", c.contentSID(for: message.locale)))
        fields.append(("ContentVariables", variables.encodedString()))
        if let callback = c.statusCallbackURL { fields.append(("StatusCallback", callback)) }
        return fields
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        // Credentials, sender, Content template or account problems fall through to "retryable".
        let api = TwilioAPI(http: http, gateway: name, label: name, destinationErrors: Self.destinationErrors, unroutableErrors: Self.unroutableErrors)
        return api.post(
            baseURL: c.baseURL, accountSID: c.accountSID, authToken: c.authToken, resource: "Messages.json", fields: fields(for: message),
            sidOf: "message"
        ) { body, response in body?["message"]?.stringValue ?? String(response.text.prefix(300)) }
    }

    /// A status callback's `MessageStatus` and `ErrorCode` → delivery status: as for SMS, but a
    /// failure meaning "not on WhatsApp" (63003…) is `undelivered`, so a fallback can follow.
    public static func deliveryStatus(_ status: String, errorCode: String?) -> DeliveryStatus? {
        if status == "failed" || status == "undelivered", let code = errorCode.flatMap({ Int64($0) }), unroutableErrors.contains(code) {
            return .undelivered
        }
        return TwilioGateway.deliveryStatus(status)
    }
}
