import HTTPMessages

/// The end of the API's global chain: picks the middleware of the groups that own a request's
/// path and runs them around the router. Each distinct prefix that carries middleware gets its
/// chain folded once, at start-up, with the middleware of the prefixes that contain it; a request
/// then costs one scan over these few prefixes, longest first, and no allocation.
struct GroupDispatch: Sendable {
    struct Area: Sendable {
        let prefix: PathPrefix
        let chain: MiddlewareChain
    }

    /// Longest prefix first: the first that owns a path is the innermost group with middleware.
    let areas: [Area]
    /// Paths no group with middleware owns: the router alone.
    let plain: MiddlewareChain

    init(_ groups: [RouteGroup], router: Router) {
        let final: MiddlewareChain.Responder = { request, context in try router.respond(to: request, context: &context) }
        // Outer (shorter) prefixes first; the application's order among equals (a stable sort).
        let ordered = groups.enumerated()
            .sorted { ($0.element.prefix.segments.count, $0.offset) < ($1.element.prefix.segments.count, $1.offset) }
            .map(\.element)
        var prefixes: [PathPrefix] = []
        for group in ordered where !group.middleware.isEmpty && !prefixes.contains(group.prefix) { prefixes.append(group.prefix) }
        areas = prefixes.reversed().map { prefix in
            let middleware = ordered.filter { $0.prefix.contains(prefix) }.flatMap(\.middleware)
            return Area(prefix: prefix, chain: MiddlewareChain(middleware, around: final))
        }
        plain = MiddlewareChain([], around: final)
    }

    /// The chain of the groups that own `path`.
    func chain(for path: String) -> MiddlewareChain {
        guard !areas.isEmpty else { return plain }
        return path.utf8.withContiguousStorageIfAvailable { chain(for: $0) } ?? Array(path.utf8).withUnsafeBufferPointer { chain(for: $0) }
    }

    private func chain(for bytes: UnsafeBufferPointer<UInt8>) -> MiddlewareChain {
        for area in areas where area.prefix.owns(bytes: bytes) { return area.chain }
        return plain
    }

    func respond(to request: HTTPRequest, context: inout RouteContext) throws -> HTTPResponse {
        try chain(for: request.path).respond(to: request, context: &context)
    }
}
