import API

/// Who may reach the development endpoints (`/dev/…`: sent messages and their codes). A
/// development server on 0.0.0.0 (a container) would otherwise show codes — including codes sent
/// through real vendor gateways — to anyone who can reach the port. They answer loopback
/// clients only (the client as trusted-proxy rules resolve it), unless exposure is asked for.
public struct DevAccess: Sendable {
    /// `PHONE_VERIFY_DEV_EXPOSE=true`: every client may reach them.
    public var exposed: Bool

    public init(exposed: Bool = false) {
        self.exposed = exposed
    }

    static let loopback = ["127.0.0.0/8", "::1/128", "::ffff:127.0.0.0/104"].compactMap(CIDR.init)

    /// Whether `path` is a development endpoint (anything under `/dev`), read as the router reads
    /// it: empty segments do not count, so `//dev/messages` is guarded like `/dev/messages`.
    static func guards(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: true).first == "dev"
    }

    /// Whether a request for `path` from `client` (resolved address) may be answered.
    public func allows(path: String, client: String) -> Bool {
        exposed || !Self.guards(path) || Self.loopback.contains { $0.contains(client) }
    }
}
