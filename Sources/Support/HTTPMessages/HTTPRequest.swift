/// A complete HTTP request as the transport hands it to a responder: no sockets, no C.
public struct HTTPRequest: Sendable {
    /// Upper-case method token, e.g. "GET".
    public var method: String
    /// The path without the query string, percent-decoding left to the router.
    public var path: String
    /// Decoded query parameters (the first value wins for repeated names).
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The socket peer's IP address as text ("127.0.0.1", "::1"), empty when unknown.
    public var remoteAddress: String

    public init(
        method: String, path: String, query: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], remoteAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
