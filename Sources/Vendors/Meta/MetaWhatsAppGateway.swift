import Gateways
import Foundation
import CurlClient
import VerifyCore

/// Settings of the Meta WhatsApp Cloud API gateway.
public struct MetaWhatsAppConfiguration: Sendable {
    public var baseURL: String
    /// Graph API version, e.g. `v21.0`.
    public var apiVersion: String
    /// The WhatsApp Business phone number ID (not the number itself) that sends.
    public var phoneNumberID: String
    /// A system-user access token with `whatsapp_business_messaging`.
    public var accessToken: String
    /// The approved authentication template (copy-code button), e.g. `verification_code`.
    public var templateName: String
    /// Languages the template is approved in, and the fallback.
    public var language: WhatsAppLanguage

    public init(
        phoneNumberID: String, accessToken: String, templateName: String, language: WhatsAppLanguage = WhatsAppLanguage(),
        apiVersion: String = "v21.0", baseURL: String = "https://graph.facebook.com"
    ) {
        self.phoneNumberID = phoneNumberID
        self.accessToken = accessToken
        self.templateName = templateName
        self.language = language
        self.apiVersion = apiVersion
        self.baseURL = baseURL
    }
}

/// Sends the approved authentication template through
/// `POST {baseURL}/{version}/{phone_number_id}/messages` (JSON, bearer token). Success carries
/// `messages[0].id` (`wamid.…`), the id status webhooks name.
public struct MetaWhatsAppGateway: MessageGateway {
    public let name = "meta-whatsapp"
    let configuration: MetaWhatsAppConfiguration
    let http: GatewayHTTP

    /// The recipient cannot get this WhatsApp message, while SMS (or another sender) may reach
    /// them: 131026 undeliverable (not on WhatsApp, old app, terms not accepted), 131030 not in
    /// the test number's allowed list, 131049 held back by Meta for ecosystem health, 131050 the
    /// user stopped this business's messages, 131047 outside the re-engagement window.
    static let unroutableErrors: Set<Int64> = [131026, 131030, 131047, 131049, 131050]
    /// The destination itself is refused: 131021 recipient is the sender's own number.
    static let destinationErrors: Set<Int64> = [131021]
    /// Throughput limits: 4 and 80007 (app/WABA call rate), 130429 (throughput), 131048 (spam
    /// rate limit), 131056 (too many messages to this one recipient).
    static let rateLimitErrors: Set<Int64> = [4, 80007, 130429, 131048, 131056]
    /// Token, permission and account problems of this gateway: 0/190 (token invalid or expired),
    /// 3/10/200–299 (permissions), 131005 (access denied), 131031 (account locked), 131042 (payment),
    /// 368 (policy block), 131045 (number not registered).
    static func isAccountError(_ code: Int64) -> Bool {
        [0, 3, 10, 190, 368, 131005, 131031, 131042, 131045].contains(code) || (200...299).contains(code)
    }

    public init(configuration: MetaWhatsAppConfiguration, http: GatewayHTTP) {
        self.configuration = configuration
        self.http = http
    }

    /// The request body; only the code and the language vary between messages.
    func payload(for message: OutboundMessage) -> JSONValue {
        let c = configuration
        return [
            "messaging_product": "whatsapp",
            "recipient_type": "individual",
            "to": .string(WhatsAppAuthenticationTemplate.digits(message.to)),
            "type": "template",
            "template": WhatsAppAuthenticationTemplate.template(
                name: c.templateName, language: c.language.code(for: message.locale), code: message.code),
        ]
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let c = configuration
        let url = c.baseURL + "/" + FormEncoding.percentEncode(c.apiVersion) + "/" + FormEncoding.percentEncode(c.phoneNumberID) + "/messages"
        let request = HTTPClientRequest.json(
            url: url, body: payload(for: message).encoded(),
            headers: [(name: "Authorization", value: "Bearer " + c.accessToken)])
        let response: HTTPClientResponse
        switch http.send(request, gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        let body = GatewayHTTP.json(response)
        if response.isSuccess {
            guard let id = body?["messages"]?.arrayValue?.first?["id"]?.stringValue else {
                return .retryable(reason: "\(name): HTTP \(response.status) without a message id", retryAfter: nil)
            }
            return .sent(via: name, providerMessageID: id, status: .sent)
        }
        return classify(response, error: body?["error"])
    }

    /// Meta's `{"error": {"code", "message", "error_data": {"details"}}}` → gateway result. The
    /// reason names the code and Meta's message, never the token; the delivery worker scrubs the
    /// verification code and number from it before storing.
    func classify(_ response: HTTPClientResponse, error: JSONValue?) -> GatewayResult {
        let code = error?["code"]?.intValue
        var text = error?["message"]?.stringValue ?? String(response.text.prefix(300))
        if let details = error?["error_data"]?["details"]?.stringValue, !details.isEmpty { text += " (\(details))" }
        let detail = "code \(code.map(String.init) ?? "-"): \(text.prefix(500))"
        if let code {
            if Self.unroutableErrors.contains(code) { return .unroutable(reason: "\(name) \(detail)") }
            if Self.destinationErrors.contains(code) { return .permanent(reason: "\(name) \(detail)") }
            if Self.rateLimitErrors.contains(code) {
                return .retryable(reason: "\(name): rate limited, \(detail)", retryAfter: GatewayHTTP.retryAfter(response))
            }
        }
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: detail) { return transient }
        if let code, Self.isAccountError(code) || response.status == 401 || response.status == 403 {
            return .retryable(reason: "\(name): access token, permission or account problem, HTTP \(response.status) \(detail)", retryAfter: nil)
        }
        if let code, (132000...132999).contains(code) {
            let language = "template \(configuration.templateName)"
            return .retryable(reason: "\(name): \(language) refused (not approved in this language, paused or wrong parameters), \(detail)", retryAfter: nil)
        }
        // Anything else is a request or setup problem of this gateway: another gateway may work.
        return .retryable(reason: "\(name): HTTP \(response.status) \(detail)", retryAfter: nil)
    }
}
