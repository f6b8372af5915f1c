/// Client-wide settings for an ``HTTPClient``: timeouts, limits, TLS and the handle pool.
///
/// The defaults suit calls to SMS vendors and JWKS endpoints: short timeouts, 1 MiB bodies,
/// certificates always verified, no proxy unless one is configured explicitly.
public struct HTTPClientConfiguration: Sendable {
    /// Seconds allowed for name resolution plus the TCP (and TLS) handshake.
    public var connectTimeout: Double
    /// Seconds allowed for the whole request, connect included.
    public var totalTimeout: Double
    /// Largest response body accepted; a bigger one fails with ``HTTPClientError/tooLarge``.
    public var maxResponseBytes: Int
    /// Verifies the server certificate chain and host name. Only turn this off against a
    /// development server; it is never off by default.
    public var verifyTLS: Bool
    /// A PEM file of trusted CA certificates; nil uses the system bundle.
    public var caBundlePath: String?
    /// Sent as `User-Agent` unless the request sets its own.
    public var userAgent: String
    /// URL schemes the client accepts (lower case); only "http" and "https" are ever allowed,
    /// use `["https"]` to refuse plain HTTP.
    public var allowedSchemes: Set<String>
    /// An explicit proxy URL; nil means no proxy (the `http_proxy` family of environment
    /// variables is ignored, so configuration is never ambient).
    public var proxy: String?
    /// Idle easy handles (each with its open keep-alive connections) kept for reuse;
    /// concurrent callers beyond this get a fresh handle that is freed afterwards.
    public var maxIdleHandles: Int

    /// Creates a configuration; every parameter has a production-sensible default.
    public init(
        connectTimeout: Double = 5.0,
        totalTimeout: Double = 10.0,
        maxResponseBytes: Int = 1 << 20,
        verifyTLS: Bool = true,
        caBundlePath: String? = nil,
        userAgent: String = "phone-verify",
        allowedSchemes: Set<String> = ["https", "http"],
        proxy: String? = nil,
        maxIdleHandles: Int = 8
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.verifyTLS = verifyTLS
        self.caBundlePath = caBundlePath
        self.userAgent = userAgent
        self.allowedSchemes = allowedSchemes
        self.proxy = proxy
        self.maxIdleHandles = maxIdleHandles
    }
}
