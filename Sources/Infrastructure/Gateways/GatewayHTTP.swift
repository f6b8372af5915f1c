import Foundation
import CurlClient
import VerifyCore

/// Shared HTTP plumbing of the vendor gateways: timeouts, and mapping transport failures and
/// HTTP statuses to gateway results.
public struct GatewayHTTP: Sendable {
    public let client: HTTPClient
    /// Total and connect timeouts of one vendor call, seconds.
    public let timeout: Double
    public let connectTimeout: Double

    public init(client: HTTPClient, timeout: Double = 10, connectTimeout: Double = 3) {
        self.client = client
        self.timeout = timeout
        self.connectTimeout = connectTimeout
    }

    /// Sends with this gateway's timeouts; a transport failure becomes `.failure(retryable)`.
    public func send(_ request: HTTPClientRequest, gateway: String) -> Result<HTTPClientResponse, GatewayFailure> {
        var request = request
        request.timeoutSeconds = timeout
        request.connectTimeoutSeconds = connectTimeout
        do {
            return .success(try client.send(request))
        } catch {
            return .failure(GatewayFailure(.retryable(reason: "\(gateway): \(error)", retryAfter: nil)))
        }
    }

    /// 429 and 5xx are retryable (honouring Retry-After); other statuses are decided by the caller.
    public static func transient(_ response: HTTPClientResponse, gateway: String, detail: String) -> GatewayResult? {
        if response.status == 429 || response.status == 408 || response.status >= 500 {
            return .retryable(reason: "\(gateway): HTTP \(response.status) \(detail)", retryAfter: retryAfter(response))
        }
        return nil
    }

    /// Retry-After in seconds (delta-seconds form; HTTP dates are treated as absent).
    public static func retryAfter(_ response: HTTPClientResponse) -> Int? {
        response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
    }

    /// A response body as a JSON object, if it is one.
    public static func json(_ response: HTTPClientResponse) -> JSONValue? {
        guard let value = try? JSONValue.parse(response.body), value.isObject else { return nil }
        return value
    }
}

/// A failed transport call, already mapped to a gateway result.
public struct GatewayFailure: Error {
    public let result: GatewayResult
    init(_ result: GatewayResult) { self.result = result }
}
