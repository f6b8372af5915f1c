/// A complete HTTP response. Every status code (including 4xx and 5xx) arrives here;
/// only transport failures throw.
public struct HTTPClientResponse: Sendable {
    /// The status code of the final response (1xx interim responses are skipped).
    public var status: Int
    /// Header fields of the final response in received order, names as the server sent them.
    public var headers: [(name: String, value: String)]
    /// The body, at most ``HTTPClientConfiguration/maxResponseBytes`` long.
    public var body: [UInt8]
    /// Seconds the transfer took, from start to last byte (libcurl's total time).
    public var totalSeconds: Double
    /// New TCP connections this request opened: 0 when a kept-alive connection was reused.
    public var newConnections: Int

    /// Creates a response (for fakes and tests; the client builds its own).
    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        totalSeconds: Double = 0, newConnections: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.totalSeconds = totalSeconds
        self.newConnections = newConnections
    }

    /// The first value of the named header (ASCII case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        headers.first { HeaderName.equal($0.name, name) }?.value
    }

    /// Every value of the named header, in received order.
    public func headers(named name: String) -> [String] {
        headers.filter { HeaderName.equal($0.name, name) }.map(\.value)
    }

    /// The body decoded as UTF-8 (invalid sequences repaired).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
