import CurlClient
import Foundation
import VerifyCore

/// POSTs one event to the receiver, signed per Standard Webhooks (the same signature as the
/// webhook gateway's): `webhook-id` (the event id, the same on every retry), `webhook-timestamp`
/// (Unix seconds of this attempt), `webhook-signature` (`v1,` + base64 HMAC-SHA256 of
/// `id.timestamp.body` keyed with the secret's decoded bytes). Redirects are never followed.
public struct EventSender: Sendable {
    public enum Result: Sendable, Equatable {
        /// The receiver answered 2xx.
        case delivered
        /// Anything else (3xx, 4xx, 5xx, a timeout, no connection): try again later. `detail`
        /// says what happened (a status and a bounded, number-scrubbed snippet, never the body).
        case failed(detail: String, retryAfter: Int?)
    }

    let url: String
    let key: [UInt8]
    let client: HTTPClient
    let clock: any Clock
    /// Seconds per POST in all, and to connect.
    let timeout: Double
    let connectTimeout: Double

    public init(url: String, secret: String, client: HTTPClient, clock: any Clock, timeout: Double = 5) {
        self.url = url
        key = WebhookSecret(secret).key ?? Array(secret.utf8)
        self.client = client
        self.clock = clock
        self.timeout = timeout
        connectTimeout = min(timeout, 3)
    }

    /// The headers of one attempt to send `event` at `timestamp` (Unix seconds).
    public func headers(for event: WebhookEvent, timestamp: Int64) -> [(name: String, value: String)] {
        let stamp = String(timestamp)
        return [
            (name: "webhook-id", value: event.id), (name: "webhook-timestamp", value: stamp),
            (name: "webhook-signature", value: WebhookSecret.signature(key: key, id: event.id, timestamp: stamp, body: Array(event.body.utf8))),
        ]
    }

    public func send(_ event: WebhookEvent) -> Result {
        var request = HTTPClientRequest.json(
            url: url, body: Array(event.body.utf8), headers: headers(for: event, timestamp: Int64(clock.now().timeIntervalSince1970)))
        request.timeoutSeconds = timeout
        request.connectTimeoutSeconds = connectTimeout
        let response: HTTPClientResponse
        do {
            response = try client.send(request)
        } catch {
            return .failed(detail: "\(error)", retryAfter: nil)
        }
        if response.isSuccess { return .delivered }
        let snippet = Redaction.scrub(response.text, secrets: [], maxLength: 200)
        return .failed(detail: "HTTP \(response.status) \(snippet)", retryAfter: GatewayHTTP.retryAfter(response))
    }
}
