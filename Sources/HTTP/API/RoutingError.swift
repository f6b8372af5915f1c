/// What the router throws when no handler takes a request. Thrown rather than answered, so the
/// middleware of a feature that owns a path prefix (Twilio's `/v2`) can answer in its own shape;
/// ``ErrorMiddleware`` gives everything else the server's JSON error.
public enum RoutingError: Error, Sendable, Equatable {
    /// No route has this path (or the path is hidden, as `/dev/…` is from remote clients).
    case notFound
    /// Routes have this path, for other methods (the `Allow` header's list).
    case methodNotAllowed(allowed: [String])
}
