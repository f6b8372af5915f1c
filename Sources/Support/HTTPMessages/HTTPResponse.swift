/// A complete HTTP response, or a stream for long-lived responses such as server-sent events.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    /// What goes after the headers.
    public enum Body: Sendable {
        /// A fixed body, sent with Content-Length.
        case bytes([UInt8])
        /// A body produced piece by piece: the transport calls `next` from its own thread until it
        /// returns nil (end) ; `next` may block up to its own timeout and return an empty array.
        case stream(HTTPBodyStream)
    }

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    public init(status: Int, headers: HTTPHeaders, stream: HTTPBodyStream) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// The fixed body bytes, or empty for a stream.
    public var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

/// A pull-based body stream. `next()` returns the next chunk, an empty chunk when nothing is
/// ready yet (the transport calls again), or nil at the end. `close()` is called once when the
/// client goes away or the stream ends.
public protocol HTTPBodyStream: Sendable {
    func next() -> [UInt8]?
    func close()
}

/// Anything that turns a request into a response synchronously, on the caller's thread.
/// The HTTP server calls it from its worker threads; tests call it directly.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The 413 for a body over the server's limit at `path` (answered without reading the body or
    /// calling `respond`); nil for the server's own JSON error.
    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse?
}

extension HTTPResponder {
    public func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? { nil }
}
