/// Counters describing how an ``HTTPClient`` has used libcurl since it was created.
public struct HTTPClientStatistics: Sendable, Equatable {
    /// Calls to ``HTTPClient/send(_:)`` that reached libcurl (validation failures excluded).
    public var requests: Int
    /// Requests that ended with a thrown ``HTTPClientError``.
    public var failures: Int
    /// TCP connections opened (libcurl's CURLINFO_NUM_CONNECTS summed over requests); far
    /// below ``requests`` when keep-alive connections are reused.
    public var connectionsOpened: Int
    /// Easy handles created; stays at the peak number of concurrent callers.
    public var handlesCreated: Int
    /// Easy handles currently idle in the pool.
    public var idleHandles: Int

    /// Creates a snapshot (for fakes and tests).
    public init(requests: Int = 0, failures: Int = 0, connectionsOpened: Int = 0, handlesCreated: Int = 0, idleHandles: Int = 0) {
        self.requests = requests
        self.failures = failures
        self.connectionsOpened = connectionsOpened
        self.handlesCreated = handlesCreated
        self.idleHandles = idleHandles
    }
}
