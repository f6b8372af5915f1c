/// How an ``HTTPServer`` listens and what it tolerates from clients.
///
/// The defaults suit a small JSON API behind a proxy: two event-loop threads, bodies up to
/// 16 KiB, idle connections dropped after 10 seconds.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric IPv4 or IPv6 address to bind to ("127.0.0.1", "0.0.0.0", "::1"); "::" binds
    /// dual-stack (IPv4 clients then show up with their IPv4 address).
    public var host: String
    /// TCP port; 0 asks the kernel for a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Number of worker threads (one libmicrohttpd daemon each); responders run on these threads,
    /// and each new connection goes to the worker holding the fewest.
    public var threadPoolSize: Int
    /// Connections accepted at once; further clients wait in the kernel's backlog.
    public var connectionLimit: Int
    /// Seconds a connection may stay idle (including mid-request) before it is closed.
    public var connectionTimeoutSeconds: Int
    /// Seconds a request head may take to arrive complete, counted from the accept (or from the
    /// end of the previous response on a keep-alive connection), however the bytes trickle in;
    /// then the connection is closed. It also bounds how long a keep-alive connection may wait
    /// idle for its next request, whatever ``connectionTimeoutSeconds`` says. 0 turns it off.
    public var headerTimeoutSeconds: Double
    /// Largest request body accepted; larger ones get 413 without reaching the responder.
    public var maxBodyBytes: Int
    /// Per-connection buffer memory; request heads that do not fit get 431 (or 414/400).
    public var memoryLimitPerConnection: Int

    /// Creates a configuration; every parameter has a production-sensible default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadPoolSize: Int = 2,
        connectionLimit: Int = 4096,
        connectionTimeoutSeconds: Int = 10,
        headerTimeoutSeconds: Double = 10,
        maxBodyBytes: Int = 16 * 1024,
        memoryLimitPerConnection: Int = 32 * 1024
    ) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.connectionLimit = connectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.maxBodyBytes = maxBodyBytes
        self.memoryLimitPerConnection = memoryLimitPerConnection
    }
}
