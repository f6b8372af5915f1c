import Gateways
import Foundation
import CurlClient
import VerifyCore

/// Settings of the Vonage (Nexmo) SMS API gateway.
public struct VonageConfiguration: Sendable {
    public var baseURL = "https://rest.nexmo.com"
    public var apiKey: String
    public var apiSecret: String
    public var from: String
    /// Where Vonage sends delivery receipts (`…/v1/webhooks/vonage/dlr?token=…`), if reachable.
    public var callbackURL: String?

    public init(apiKey: String, apiSecret: String, from: String, baseURL: String = "https://rest.nexmo.com", callbackURL: String? = nil) {
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.from = from
        self.baseURL = baseURL
        self.callbackURL = callbackURL
    }
}

/// Sends through `POST /sms/json`; success when `messages[0].status == "0"`.
public struct VonageGateway: MessageGateway {
    public let name = "vonage"
    let configuration: VonageConfiguration
    let http: GatewayHTTP

    /// Status 1 (throttled) and 5 (internal error) are transient; 7 (number barred) is about the
    /// destination; anything else is an account or request problem of this gateway.
    static let transientStatuses: Set<String> = ["1", "5"]
    static let destinationStatuses: Set<String> = ["7"]

    public init(configuration: VonageConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        var fields = [
            ("api_key", c.apiKey), ("api_secret", c.apiSecret), ("from", c.from),
            ("to", message.to.hasPrefix("+") ? String(message.to.dropFirst()) : message.to), ("text", message.body),
            ("client-ref", message.messageID),
        ]
        // `text` covers the GSM 03.38 tables (ü, é, £, €…); `unicode` only what they lack.
        if SMSSegments.measure(message.body).encoding == .ucs2 { fields.append(("type", "unicode")) }
        if let callback = c.callbackURL { fields.append(("callback", callback)) }
        let response: HTTPClientResponse
        switch http.send(.form(url: c.baseURL + "/sms/json", fields: fields), gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: "") { return transient }
        guard response.isSuccess, let first = GatewayHTTP.json(response)?["messages"]?.arrayValue?.first,
            let status = first["status"]?.stringValue
        else {
            return .retryable(reason: "vonage: HTTP \(response.status), unexpected body", retryAfter: nil)
        }
        if status == "0" {
            return .sent(via: name, providerMessageID: first["message-id"]?.stringValue, status: .sent)
        }
        let detail = "vonage status \(status): \(first["error-text"]?.stringValue ?? "")"
        if Self.destinationStatuses.contains(status) { return .permanent(reason: detail) }
        return .retryable(reason: detail, retryAfter: Self.transientStatuses.contains(status) ? 1 : nil)
    }

    /// A delivery receipt's `status` → delivery status (nil for statuses that say nothing new).
    public static func deliveryStatus(_ value: String) -> DeliveryStatus? {
        switch value {
        case "delivered": return .delivered
        case "expired": return .undelivered
        case "failed", "rejected": return .failed
        case "accepted", "buffered": return .sent
        default: return nil
        }
    }
}
