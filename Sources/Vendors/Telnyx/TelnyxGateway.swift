import CurlClient
import Foundation
import Gateways
import VerifyCore

/// How to reach Telnyx's Messaging API (`POST /v2/messages`).
public struct TelnyxConfiguration: Sendable {
    public var baseURL: String
    /// API key (v2), sent as `Authorization: Bearer …`.
    public var apiKey: String
    /// Sender: a Telnyx number (E.164), a short code, or an alphanumeric sender id.
    public var from: String
    /// Messaging profile; Telnyx needs it for alphanumeric senders. Nil: not sent.
    public var messagingProfileID: String?

    public init(apiKey: String, from: String, messagingProfileID: String? = nil, baseURL: String = "https://api.telnyx.com") {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.from = from
        self.messagingProfileID = messagingProfileID
    }
}

/// Telnyx SMS: one JSON POST per message (`from`, `to`, `text`); the reply's `data.id` is the
/// message id. Errors are `{"errors": [{"code", "title", "detail"}]}`: a refused destination is
/// permanent, credentials and account problems fail over, 429 and 5xx are retried.
public struct TelnyxGateway: MessageGateway {
    public let name = "telnyx"
    let configuration: TelnyxConfiguration
    let http: GatewayHTTP

    /// Codes that refuse the destination itself: invalid or inactive number, not E.164, invalid
    /// `to`, not routable.
    static let destinationErrors: Set<String> = ["10001", "10002", "10016", "40001", "40310"]

    public init(configuration: TelnyxConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    /// The request body.
    func payload(for message: OutboundMessage) -> JSONValue {
        let c = configuration
        var members = [JSONMember("from", .string(c.from)), JSONMember("to", .string(message.to)), JSONMember("text", .string(message.body))]
        if let profile = c.messagingProfileID { members.append(JSONMember("messaging_profile_id", .string(profile))) }
        return .object(members)
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        let request = HTTPClientRequest.json(
            url: c.baseURL + "/v2/messages", body: payload(for: message).encoded(),
            headers: [(name: "Authorization", value: "Bearer " + c.apiKey)])
        let response: HTTPClientResponse
        switch http.send(request, gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        let body = GatewayHTTP.json(response)
        if response.isSuccess {
            guard let id = body?["data"]?["id"]?.stringValue else {
                return .retryable(reason: "\(name): HTTP \(response.status) without a message id", retryAfter: nil)
            }
            return .sent(via: name, providerMessageID: id, status: .sent)
        }
        let error = body?["errors"]?.arrayValue?.first
        let code = error?["code"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
        let text = error?["detail"]?.stringValue ?? error?["title"]?.stringValue ?? String(response.text.prefix(300))
        let detail = "code \(code ?? "-"): \(text.prefix(500))"
        if let code, Self.destinationErrors.contains(code) { return .permanent(reason: "\(name) \(detail)") }
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: detail) { return transient }
        // Credentials (401), permissions (403), sender or profile problems: another gateway may send.
        return .retryable(reason: "\(name): HTTP \(response.status) \(detail)", retryAfter: nil)
    }
}
