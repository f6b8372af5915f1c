/// One HTTP request: method, absolute URL, header fields and body, plus per-request overrides.
///
/// Headers are sent exactly as given, in order. No `Content-Type` is added for you (use
/// ``form(url:fields:headers:)`` or ``json(url:body:headers:)``, or set it yourself).
public struct HTTPClientRequest: Sendable {
    /// Upper-case method token, e.g. "GET", "POST", "DELETE".
    public var method: String
    /// Absolute `http://` or `https://` URL, already percent-encoded.
    public var url: String
    /// Header fields in sending order; names must be tokens, values must not contain CR, LF or NUL.
    public var headers: [(name: String, value: String)]
    /// The request body; empty sends none (or `Content-Length: 0` for POST, PUT and PATCH).
    public var body: [UInt8]
    /// Overrides ``HTTPClientConfiguration/totalTimeout`` for this request.
    public var timeoutSeconds: Double?
    /// Overrides ``HTTPClientConfiguration/connectTimeout`` for this request.
    public var connectTimeoutSeconds: Double?
    /// Credentials sent preemptively as `Authorization: Basic …`.
    public var basicAuth: BasicAuth?

    /// Creates a request; only the URL is required (a GET without body).
    public init(
        method: String = "GET",
        url: String,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        timeoutSeconds: Double? = nil,
        connectTimeoutSeconds: Double? = nil,
        basicAuth: BasicAuth? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.basicAuth = basicAuth
    }

    /// A POST of `application/x-www-form-urlencoded` fields, encoded by ``FormEncoding/encode(_:)``.
    public static func form(
        url: String, fields: [(String, String)], headers: [(name: String, value: String)] = []
    ) -> HTTPClientRequest {
        HTTPClientRequest(
            method: "POST", url: url,
            headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")] + headers,
            body: Array(FormEncoding.encode(fields).utf8)
        )
    }

    /// A POST of an already-serialised JSON document with `Content-Type: application/json`.
    public static func json(
        url: String, body: [UInt8], headers: [(name: String, value: String)] = []
    ) -> HTTPClientRequest {
        HTTPClientRequest(
            method: "POST", url: url,
            headers: [(name: "Content-Type", value: "application/json")] + headers,
            body: body
        )
    }

    /// The first value of the named header (ASCII case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        headers.first { HeaderName.equal($0.name, name) }?.value
    }
}
