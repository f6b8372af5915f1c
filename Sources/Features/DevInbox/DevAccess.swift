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

    /// Whether `client` (resolved address) may reach the development endpoints (the `/dev`
    /// group's paths). `host`: the request's `Host`; a loopback client must also name a loopback
    /// host, or a web page whose name an attacker re-points at 127.0.0.1 (DNS rebinding) could
    /// read the codes in a developer's browser.
    public func allows(client: String, host: String? = nil) -> Bool {
        guard !exposed else { return true }
        guard Self.loopback.contains(where: { $0.contains(client) }) else { return false }
        return host.map(Self.isLoopbackHost) ?? true
    }

    /// `localhost`, `127.x.x.x` or `[::1]`, with or without a port.
    static func isLoopbackHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            guard let end = name.firstIndex(of: "]") else { return false }
            return name[name.index(after: name.startIndex)..<end] == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) }
    }
}
