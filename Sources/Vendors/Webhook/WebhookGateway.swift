import Gateways
import Encoding
import LibCrypto
import Foundation
import CurlClient
import VerifyCore

/// Settings of the generic HTTPS webhook gateway.
public struct WebhookConfiguration: Sendable {
    public var url: String
    /// Standard Webhooks secret (`WebhookSecret`): `whsec_` + base64 of the key, or any other string.
    public var secret: String

    public init(url: String, secret: String) {
        self.url = url
        self.secret = secret
    }

    /// The HMAC key the secret stands for. A `whsec_` secret that is not base64 never gets here
    /// from the configuration (it is refused); one built in code is used as plain text.
    public var key: [UInt8] {
        WebhookSecret(secret).key ?? Array(secret.utf8)
    }
}

/// POSTs `{to, channel, body, code, verification_id, purpose, locale, message_id}` as JSON, signed per the
/// Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`),
/// so any provider can be plugged in. Contract: 2xx = accepted; 408, 429 and 5xx = try later;
/// 401, 403 and 404 = this endpoint is misconfigured (fail over); other 4xx = the message is
/// refused for good.
public struct WebhookGateway: MessageGateway {
    public let name = "webhook"
    let configuration: WebhookConfiguration
    let http: GatewayHTTP
    let clock: any Clock

    public init(configuration: WebhookConfiguration, http: GatewayHTTP, clock: any Clock) {
        self.configuration = configuration
        self.http = http
        self.clock = clock
    }

    public func send(_ message: OutboundMessage) -> GatewayResult {
        let payload: JSONValue = [
            "to": .string(message.to), "channel": .string(message.channel.rawValue), "body": .string(message.body), "code": .string(message.code),
            "verification_id": .string(message.verificationID), "purpose": .string(message.purpose.rawValue),
            "locale": .optional(message.locale), "message_id": .string(message.messageID),
        ]
        let body = payload.encoded()
        let timestamp = String(Int64(clock.now().timeIntervalSince1970))
        let signature = WebhookSecret.signature(key: configuration.key, id: message.messageID, timestamp: timestamp, body: body)
        let request = HTTPClientRequest.json(url: configuration.url, body: body, headers: [
            (name: "webhook-id", value: message.messageID), (name: "webhook-timestamp", value: timestamp),
            (name: "webhook-signature", value: signature),
        ])
        let response: HTTPClientResponse
        switch http.send(request, gateway: name) {
        case .failure(let failure): return failure.result
        case .success(let r): response = r
        }
        if response.isSuccess {
            let reply = GatewayHTTP.json(response)
            let id = reply?["id"]?.stringValue ?? reply?["message_id"]?.stringValue
            return .sent(via: name, providerMessageID: id, status: .sent)
        }
        // Bounded here; the delivery worker scrubs it, then cuts it to its stored length.
        let detail = "webhook: HTTP \(response.status) \(response.text.prefix(4000))"
        if let transient = GatewayHTTP.transient(response, gateway: name, detail: "") { return transient }
        // Only a 4xx other than the endpoint's own setup (auth, path) says "this message is refused";
        // a redirect or anything else is a misconfigured endpoint another gateway may not share.
        if [401, 403, 404].contains(response.status) || !(400..<500).contains(response.status) {
            return .retryable(reason: detail, retryAfter: nil)
        }
        return .permanent(reason: detail)
    }
}
