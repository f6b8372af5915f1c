/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `host` is not a numeric IPv4 or IPv6 address.
    case invalidHost(String)
    /// A configuration value is out of range (name and reason).
    case invalidConfiguration(String)
    /// libmicrohttpd refused to start, usually because the address is in use;
    /// `reason` is the system error text when one was available.
    case startFailed(host: String, port: Int, reason: String)
    /// ``HTTPServer/start()`` was called twice, or after shutdown.
    case alreadyStarted

    /// Human-readable text for logs and startup failures.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "invalid listen host '\(host)': expected a numeric IPv4 or IPv6 address"
        case .invalidConfiguration(let reason):
            return "invalid HTTP server configuration: \(reason)"
        case .startFailed(let host, let port, let reason):
            return "could not listen on \(host):\(port): \(reason)"
        case .alreadyStarted:
            return "the HTTP server was already started"
        }
    }
}
