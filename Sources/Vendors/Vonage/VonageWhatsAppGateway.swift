import Gateways
import Foundation
import CurlClient
import VerifyCore

/// Settings of the Vonage Messages API WhatsApp gateway (HTTP Basic with the API key and secret).
public struct VonageWhatsAppConfiguration: Sendable {
    public var baseURL: String
    public var apiKey: String
    public var apiSecret: String
    /// The WhatsApp Business number linked to the Vonage account (E.164; sent without `+`).
    public var from: String
    /// The approved authentication template (copy-code button) in the linked WhatsApp Business Account.
    public var templateName: String
    /// Languages the template is approved in, and the fallback.
    public var language: WhatsAppLanguage

    public init(
        apiKey: String, apiSecret: String, from: String, templateName: String, language: WhatsAppLanguage = WhatsAppLanguage(),
        baseURL: String = "https://api.nexmo.com"
    ) {
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.from = from
        self.templateName = templateName
        self.language = language
        self.baseURL = baseURL
    }
}

/// Sends through `POST /v1/messages`. An authentication template has a button, so Vonage wants
/// it as `message_type: custom` whose `custom` object is passed through to WhatsApp:
/// `{"type": "template", "template": {…}}`, the same template object as the Cloud API, with
/// the deterministic language policy. 202 carries `message_uuid`.
///
/// Vonage reports "not a WhatsApp user" only in status webhooks (which need an application and
/// JWT-signed callbacks, not Basic auth): the synchronous answer says "accepted" or describes
/// a request, credit, auth or rate problem (RFC 7807 `type`/`title`/`detail`).
public struct VonageWhatsAppGateway: MessageGateway {
    public let name = "vonage-whatsapp"
    let configuration: VonageWhatsAppConfiguration
    let http: GatewayHTTP

    public init(configuration: VonageWhatsAppConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    func payload(for message: OutboundMessage) -> JSONValue {
        let c = configuration
        return [
            "message_type": "custom",
            "channel": "whatsapp",
            "from": .string(WhatsAppAuthenticationTemplate.digits(c.from)),
            "to": .string(WhatsAppAuthenticationTemplate.digits(message.to)),
            "client_ref": .string(message.messageID),
            "custom": [
                "type": "template",
                "template": WhatsAppAuthenticationTemplate.template(
                    name: c.templateName, language: c.language.code(for: message.locale), code: message.code, deterministicPolicy: true),
            ],
        ]
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        var request = HTTPClientRequest.json(
            url: c.baseURL + "/v1/messages", body: payload(for: message).encoded(),
            headers: [(name: "Accept", value: "application/json")])
        request.basicAuth = BasicAuth(user: c.apiKey, password: c.apiSecret)
        let response: HTTPClientResponse
        switch http.send(request, gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        let body = GatewayHTTP.json(response)
        if response.isSuccess {
            guard let id = body?["message_uuid"]?.stringValue else {
                return .retryable(reason: "\(name): HTTP \(response.status) without a message_uuid", retryAfter: nil)
            }
            return .sent(via: name, providerMessageID: id, status: .sent)
        }
        let title = body?["title"]?.stringValue ?? String(response.text.prefix(300))
        let detail = "\(title)\(body?["detail"]?.stringValue.map { ": " + $0.prefix(300) } ?? "")"
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: detail) { return transient }
        switch response.status {
        case 401, 403: return .retryable(reason: "\(name): credentials or permissions refused, HTTP \(response.status) \(detail)", retryAfter: nil)
        case 402: return .retryable(reason: "\(name): out of credit, HTTP 402 \(detail)", retryAfter: nil)
        // 400/422: the request (sender, template, language) is wrong for this account: fail over.
        default: return .retryable(reason: "\(name): HTTP \(response.status) \(detail)", retryAfter: nil)
        }
    }

    /// A Messages API status webhook's `status` → delivery status: `submitted` → sent,
    /// `delivered`/`read` → delivered, `undeliverable` → undelivered, `rejected` → failed.
    public static func deliveryStatus(_ status: String) -> DeliveryStatus? {
        switch status {
        case "submitted": return .sent
        case "delivered", "read": return .delivered
        case "undeliverable": return .undelivered
        case "rejected": return .failed
        default: return nil
        }
    }
}
