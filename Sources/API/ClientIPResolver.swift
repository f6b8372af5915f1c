import HTTPTypes

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
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard CIDR.parseAddress(hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return hops.first.flatMap { CIDR.parseAddress($0) != nil ? $0 : nil } ?? peer
    }

    private func isTrusted(_ address: String) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

import Foundation
