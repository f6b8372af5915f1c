/// A request checked against the configuration and reduced to what libcurl needs: resolved
/// timeouts, the protocol list, and raw header lines.
struct PreparedRequest {
    /// How the method and body are expressed with libcurl options.
    enum Mode: Equatable {
        /// A plain GET without body.
        case get
        /// HEAD: CURLOPT_NOBODY.
        case head
        /// A body sent with CURLOPT_COPYPOSTFIELDS, the method name set with CURLOPT_CUSTOMREQUEST
        /// unless it is POST.
        case withBody(customMethod: String?)
        /// Another method without body: CURLOPT_CUSTOMREQUEST only.
        case custom(String)
    }

    var url: String
    var mode: Mode
    var body: [UInt8]
    var headerLines: [String]
    var protocols: String
    var connectTimeoutMilliseconds: Int
    var totalTimeoutMilliseconds: Int
    var basicAuth: BasicAuth?

    /// Validates `request`; throws ``HTTPClientError/invalidURL(_:)`` or
    /// ``HTTPClientError/invalidRequest(_:)`` for anything libcurl would misread.
    init(_ request: HTTPClientRequest, configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        let allowed = configuration.allowedSchemes.map { $0.lowercased() }.filter { $0 == "http" || $0 == "https" }
        guard let scheme = Self.scheme(of: request.url) else {
            throw .invalidURL("missing scheme (expected http:// or https://)")
        }
        guard allowed.contains(scheme) else {
            throw .invalidURL("scheme \"\(scheme)\" is not allowed")
        }
        guard request.url.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .invalidURL("URL contains spaces or control characters")
        }
        guard HeaderName.isToken(request.method) else {
            throw .invalidRequest("method \"\(request.method)\" is not a token")
        }
        url = request.url
        body = request.body
        protocols = allowed.sorted().joined(separator: ",")
        basicAuth = request.basicAuth
        connectTimeoutMilliseconds = Self.milliseconds(request.connectTimeoutSeconds ?? configuration.connectTimeout)
        totalTimeoutMilliseconds = Self.milliseconds(request.timeoutSeconds ?? configuration.totalTimeout)
        mode = Self.mode(method: request.method, hasBody: !request.body.isEmpty)
        headerLines = try Self.headerLines(request, userAgent: configuration.userAgent)
    }

    /// The lower-cased scheme before "://", or nil when there is none.
    static func scheme(of url: String) -> String? {
        guard let range = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound]
        guard let first = scheme.utf8.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z"),
              scheme.utf8.allSatisfy({ HeaderName.isTokenByte($0) }) else { return nil }
        return scheme.lowercased()
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return max(1, Int((seconds * 1000).rounded(.up)))
    }

    private static func mode(method: String, hasBody: Bool) -> Mode {
        switch method {
        case "GET" where !hasBody: return .get
        case "HEAD": return .head
        case "POST": return .withBody(customMethod: nil)
        case "PUT", "PATCH": return .withBody(customMethod: method)
        default: return hasBody ? .withBody(customMethod: method) : .custom(method)
        }
    }

    /// Caller headers as curl lines, plus `Expect:` (no 100-continue round trip),
    /// `Content-Type:` (no implicit form type) and the user agent, unless the caller set them.
    private static func headerLines(_ request: HTTPClientRequest, userAgent: String) throws(HTTPClientError) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(request.headers.count + 3)
        for (name, value) in request.headers {
            guard HeaderName.isToken(name) else {
                throw .invalidRequest("header name \"\(name)\" is not a token")
            }
            guard HeaderName.isValidValue(value) else {
                throw .invalidRequest("header \"\(name)\" has a control character in its value")
            }
            // "Name:" would make curl drop the header; "Name;" sends it with an empty value.
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if request.header("Expect") == nil { lines.append("Expect:") }
        if request.header("Content-Type") == nil { lines.append("Content-Type:") }
        if request.header("User-Agent") == nil {
            guard HeaderName.isValidValue(userAgent) else {
                throw .invalidRequest("user agent has a control character")
            }
            if !userAgent.isEmpty { lines.append("User-Agent: \(userAgent)") }
        }
        return lines
    }
}
