import CBOR

/// A CBOR encoder for tests only (the service never writes CBOR): builds synthetic assertions
/// and mutated attestations.
enum CBOREncoding {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return head(0, n)
        case .negative(let n): return head(1, n)
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries): return head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .tagged(let tag, let content): return head(6, tag) + encode(content)
        case .bool(let flag): return [flag ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        case .undefined: return [0xf7]
        case .simple(let n): return n < 24 ? [0xe0 | n] : [0xf8, n]
        case .float(let x): return [0xfb] + (0..<8).map { UInt8(truncatingIfNeeded: x.bitPattern >> (56 - 8 * UInt64($0))) }
        }
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: return [type | 24, UInt8(argument)]
        case 0x100...0xffff: return [type | 25] + bigEndian(argument, 2)
        case 0x10000...0xffff_ffff: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }

    /// A text-keyed map.
    static func map(_ members: [(String, CBORValue)]) -> CBORValue {
        .map(members.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }
}

extension CBORValue {
    /// This map with `key` set to `value` (kept in place, or appended).
    func setting(_ key: String, _ value: CBORValue) -> CBORValue {
        guard case .map(var entries) = self else { return self }
        if let index = entries.firstIndex(where: { $0.key == .text(key) }) {
            entries[index] = CBORMapEntry(key: .text(key), value: value)
        } else {
            entries.append(CBORMapEntry(key: .text(key), value: value))
        }
        return .map(entries)
    }
}
