/// Just enough DER (X.690) to read the App Attest nonce out of its certificate extension:
/// one tag–length–value at a time, definite lengths of at most two length bytes, never past the
/// input.
struct DERReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { bytes.isEmpty }

    /// The next element's tag and content; nil when the input is not well-formed.
    mutating func next() -> (tag: UInt8, content: ArraySlice<UInt8>)? {
        guard bytes.count >= 2 else { return nil }
        let start = bytes.startIndex
        let tag = bytes[start], first = bytes[start + 1]
        var offset = 2, length = 0
        switch first {
        case 0..<0x80: length = Int(first)
        case 0x81, 0x82:
            let count = Int(first & 0x7f)
            guard bytes.count >= 2 + count else { return nil }
            for index in 0..<count { length = length << 8 | Int(bytes[start + 2 + index]) }
            offset += count
        default: return nil
        }
        guard length <= bytes.count - offset else { return nil }
        let content = bytes[(start + offset)..<(start + offset + length)]
        bytes = bytes[(start + offset + length)...]
        return (tag, content)
    }

    /// The App Attest nonce extension (OID 1.2.840.113635.100.8.2):
    /// `SEQUENCE { [1] EXPLICIT OCTET STRING }`; the octets, or nil for any other shape.
    static func appAttestNonce(_ value: [UInt8]) -> [UInt8]? {
        var outer = DERReader(value[...])
        guard let sequence = outer.next(), sequence.tag == 0x30, outer.isAtEnd else { return nil }
        var members = DERReader(sequence.content)
        while let member = members.next() {
            guard member.tag == 0xA1 else { continue }
            var explicit = DERReader(member.content)
            guard let octets = explicit.next(), octets.tag == 0x04, explicit.isAtEnd else { return nil }
            return Array(octets.content)
        }
        return nil
    }
}
