import HTTPMessages

/// Decides the client's IP: the socket peer, unless the peer is a trusted proxy, in which case
/// the right-most `X-Forwarded-For` hop that is not itself trusted.
public struct ClientIPResolver: Sendable {
    public let trustedProxies: [CIDR]

    public init(trustedProxies: [CIDR] = []) {
        self.trustedProxies = trustedProxies
    }

    public func resolve(_ request: HTTPRequest) -> String {
        let peer = request.remoteAddress
        guard !trustedProxies.isEmpty, isTrusted(peer) else { return peer }
        let hops = request.headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { Self.withoutPort($0.trimmingCharacters(in: .whitespaces)) }
        for hop in hops.reversed() {
            guard CIDR.parseAddress(hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return hops.first.flatMap { CIDR.parseAddress($0) != nil ? $0 : nil } ?? peer
    }

    /// The identity limits count against: an IPv4 address as is, an IPv6 address by its /64
    /// (one subscriber usually holds a whole /64, so counting single addresses would be useless).
    public static func limitKey(_ address: String) -> String {
        guard let bytes = CIDR.parseAddress(address) else { return address.isEmpty ? "unknown" : address }
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// Some proxies forward the client's port too: "203.0.113.7:51234", "[2001:db8::7]:443" (and
    /// "[2001:db8::7]") name the address alone; a bare IPv6 address is left as it is.
    static func withoutPort(_ hop: String) -> String {
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            return String(hop[hop.index(after: hop.startIndex)..<close])
        }
        let colons = hop.filter { $0 == ":" }.count
        if colons == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }

    private func isTrusted(_ address: String) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

import Foundation
