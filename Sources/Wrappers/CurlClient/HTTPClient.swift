import Synchronization

/// A blocking, thread-safe HTTP/1.1 and HTTP/2 client over libcurl.
///
/// ``send(_:)`` runs the whole exchange on the calling thread (meant for delivery worker
/// threads and other dedicated threads; from async code, call it off the cooperative pool).
/// The client keeps a small pool of libcurl easy handles: each call takes one, uses it
/// exclusively and puts it back, so kept-alive connections, DNS results and TLS sessions are
/// reused across calls from several threads. Redirects are never followed, only http and
/// https are spoken, and TLS certificates are verified unless the configuration says otherwise.
///
/// ```swift
/// let client = HTTPClient()
/// let response = try client.send(.form(url: "https://api.example.com/sms", fields: [("To", "+15550100")]))
/// if response.isSuccess { … }
/// ```
public final class HTTPClient: Sendable {
    /// The settings every request starts from.
    public let configuration: HTTPClientConfiguration

    private let idle = Mutex<[EasyHandle]>([])
    private let requestCount = Atomic<Int>(0)
    private let failureCount = Atomic<Int>(0)
    private let connectionCount = Atomic<Int>(0)
    private let handleCount = Atomic<Int>(0)

    /// Creates a client; no handle or connection is made until the first request.
    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.configuration = configuration
    }

    /// Sends `request` and waits for the complete response, bounded by the timeouts.
    ///
    /// Every HTTP status is returned as a response; only transport problems throw.
    /// - Throws: ``HTTPClientError``; see ``HTTPClientError/isRetryable``.
    public func send(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse {
        let prepared = try PreparedRequest(request, configuration: configuration)
        let handle = try takeHandle()
        defer { putBack(handle) }
        requestCount.add(1, ordering: .relaxed)
        var newConnections = 0
        defer { connectionCount.add(newConnections, ordering: .relaxed) }
        do {
            return try handle.perform(prepared, configuration: configuration, newConnections: &newConnections)
        } catch {
            failureCount.add(1, ordering: .relaxed)
            throw error
        }
    }

    /// A snapshot of the client's counters.
    public var statistics: HTTPClientStatistics {
        HTTPClientStatistics(
            requests: requestCount.load(ordering: .relaxed),
            failures: failureCount.load(ordering: .relaxed),
            connectionsOpened: connectionCount.load(ordering: .relaxed),
            handlesCreated: handleCount.load(ordering: .relaxed),
            idleHandles: idle.withLock { $0.count }
        )
    }

    /// The linked libcurl version, e.g. "7.88.1".
    public static var libcurlVersion: String { CurlLibrary.version }

    private func takeHandle() throws(HTTPClientError) -> EasyHandle {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        guard let handle = EasyHandle() else {
            throw .other(code: 2, message: "libcurl could not create an easy handle")
        }
        handleCount.add(1, ordering: .relaxed)
        return handle
    }

    /// Returns a handle to the pool, or lets it be freed when the pool is full.
    private func putBack(_ handle: EasyHandle) {
        let surplus: EasyHandle? = idle.withLock { handles in
            guard handles.count < configuration.maxIdleHandles else { return handle }
            handles.append(handle)
            return nil
        }
        // Freed outside the lock: curl_easy_cleanup may close connections.
        _ = surplus
    }
}
