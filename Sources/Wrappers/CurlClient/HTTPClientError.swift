/// Why a request produced no response. HTTP error statuses are not errors: they come back as
/// an ``HTTPClientResponse``.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Connected and sent (at least part of) the request, but no complete response arrived in
    /// time. The server may have acted on the request: retry non-idempotent calls only with an
    /// idempotency key.
    case timeout
    /// No connection could be made (name resolution, refused, unreachable, or the connect
    /// phase timed out). Nothing was sent, so retrying is always safe.
    case connectionFailed(String)
    /// The TLS handshake or certificate verification failed (never retried insecurely).
    case tls(String)
    /// The URL is malformed or its scheme is not allowed.
    case invalidURL(String)
    /// The method or a header cannot be sent as given (bad token, CR/LF/NUL in a value).
    case invalidRequest(String)
    /// The response body exceeded ``HTTPClientConfiguration/maxResponseBytes`` (or the headers
    /// exceeded 64 KiB).
    case tooLarge
    /// Any other libcurl failure, with its CURLcode and message (for example the connection
    /// dropped mid-response: code 52, 55 or 56).
    case other(code: Int, message: String)

    /// Whether the same request may succeed if sent again later: timeouts, connection failures
    /// and dropped connections. See ``timeout`` for the caveat on non-idempotent requests.
    public var isRetryable: Bool {
        switch self {
        case .timeout, .connectionFailed:
            return true
        case .tls, .invalidURL, .invalidRequest, .tooLarge:
            return false
        case .other(let code, _):
            return Self.retryableCodes.contains(code)
        }
    }

    /// CURLE_PARTIAL_FILE, HTTP2, GOT_NOTHING, SEND_ERROR, RECV_ERROR, HTTP2_STREAM, HTTP3.
    static let retryableCodes: Set<Int> = [16, 18, 52, 55, 56, 92, 95]

    /// A one-line explanation for logs (never contains credentials or bodies).
    public var description: String {
        switch self {
        case .timeout: return "HTTP request timed out"
        case .connectionFailed(let message): return "connection failed: \(message)"
        case .tls(let message): return "TLS failure: \(message)"
        case .invalidURL(let message): return "invalid URL: \(message)"
        case .invalidRequest(let message): return "invalid request: \(message)"
        case .tooLarge: return "response too large"
        case .other(let code, let message): return "libcurl error \(code): \(message)"
        }
    }
}
