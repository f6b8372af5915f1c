import Foundation

/// An IPv4 or IPv6 network such as "10.0.0.0/8" or "::1/128".
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    public let network: [UInt8]
    public let prefixLength: Int

    /// Parses "address/len" or a bare address (a host network).
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let address = CIDR.parseAddress(String(first)) else { return nil }
        let maxLength = address.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maxLength).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = maxLength
        }
        network = address
    }

    public var description: String {
        let text: String
        if network.count == 4 {
            text = network.map(String.init).joined(separator: ".")
        } else {
            text = stride(from: 0, to: 16, by: 2).map { String(UInt16(network[$0]) << 8 | UInt16(network[$0 + 1]), radix: 16) }.joined(separator: ":")
        }
        return "\(text)/\(prefixLength)"
    }

    public func contains(_ addressText: String) -> Bool {
        guard let address = CIDR.parseAddress(addressText), address.count == network.count else { return false }
        var remaining = prefixLength
        for i in 0..<address.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask: UInt8 = bits == 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if address[i] & mask != network[i] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// Binary form of an IPv4 (4 bytes) or IPv6 (16 bytes) address text; IPv4-mapped IPv6 becomes IPv4.
    public static func parseAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return Array(bytes[12..<16])
            }
            return bytes
        }
        return nil
    }
}
