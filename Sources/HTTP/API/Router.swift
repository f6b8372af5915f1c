import HTTPMessages

/// What a handler knows of the request beyond the request itself.
public struct RouteContext: Sendable {
    public var requestID: String
    /// The client's IP as trusted-proxy rules resolve it, as limits count it (IPv6 by its /64).
    public var clientIP: String
    /// The client's full address as trusted-proxy rules resolve it.
    public var clientAddress: String
    /// Path parameters by name, e.g. "id".
    public var parameters: [String: String]
    /// The matched route template, e.g. "/v1/verifications/{id}" (bounded cardinality for logs and metrics).
    public var route: String

    public init(
        requestID: String, clientIP: String, clientAddress: String? = nil, parameters: [String: String] = [:], route: String = ""
    ) {
        self.requestID = requestID
        self.clientIP = clientIP
        self.clientAddress = clientAddress ?? clientIP
        self.parameters = parameters
        self.route = route
    }
}

/// A route handler. A thrown `VerifyError` becomes the error response (``ErrorMiddleware``).
public typealias RouteHandler = @Sendable (HTTPRequest, RouteContext) throws -> HTTPResponse

/// Maps method + path (with `{name}` parameters) to handlers; tells 404 from 405.
public struct Router: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct Route: Sendable {
        let method: String
        let template: String
        let segments: [Segment]
        let handler: RouteHandler
    }

    public enum Match: Sendable {
        case found(RouteHandler, template: String, parameters: [String: String])
        case methodNotAllowed(allowed: [String], template: String)
        case notFound
    }

    private var routes: [Route] = []

    public init() {}

    /// Registers `handler` for `method` and a template like "/v1/verifications/{id}/check".
    public mutating func add(_ method: String, _ template: String, _ handler: @escaping RouteHandler) {
        let segments = Self.split(template).map { part -> Segment in
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
        routes.append(Route(method: method, template: template, segments: segments, handler: handler))
    }

    /// Adds `other`'s routes, each handler run through `middleware` (folded once, here).
    mutating func add(_ other: Router, through middleware: [any Middleware]) {
        for route in other.routes {
            guard !middleware.isEmpty else {
                routes.append(route)
                continue
            }
            let handler = route.handler
            let chain = MiddlewareChain(middleware) { request, context in try handler(request, context) }
            routes.append(
                Route(method: route.method, template: route.template, segments: route.segments) { request, context in
                    var context = context
                    return try chain.respond(to: request, context: &context)
                })
        }
    }

    /// Every registered (method, template) pair, for documentation checks.
    public var table: [(method: String, template: String)] { routes.map { ($0.method, $0.template) } }

    public func match(method: String, path: String) -> Match {
        let parts = Self.split(path)
        var allowed: [String] = []
        var allowedTemplate = ""
        for route in routes {
            guard let parameters = Self.bind(route.segments, parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route.handler, template: route.template, parameters: parameters)
            }
            allowed.append(route.method)
            allowedTemplate = route.template
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed, template: allowedTemplate)
    }

    /// The end of the middleware chain: runs the matching handler with the route's template and
    /// parameters in `context`, or throws a ``RoutingError`` (after naming the template of a 405,
    /// so logs and metrics count it under its route).
    public func respond(to request: HTTPRequest, context: inout RouteContext) throws -> HTTPResponse {
        switch match(method: request.method, path: request.path) {
        case .notFound:
            throw RoutingError.notFound
        case .methodNotAllowed(let allowed, let template):
            context.route = template
            throw RoutingError.methodNotAllowed(allowed: allowed)
        case .found(let handler, let template, let parameters):
            context.route = template
            context.parameters = parameters
            return try handler(request, context)
        }
    }

    private static func bind(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if text != part { return nil }
            case .parameter(let name):
                guard !part.isEmpty, let value = String(part).removingPercentEncodingSafely() else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

extension String {
    /// Percent-decoding that refuses malformed escapes instead of guessing.
    func removingPercentEncodingSafely() -> String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }  // byte scan, not Foundation's substring search
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let h = iterator.next(), let l = iterator.next(),
                    let hi = hexValue(h), let lo = hexValue(l)
                else { return nil }
                bytes.append(hi << 4 | lo)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
