/// The one base64 implementation (RFC 4648), byte by byte, for both alphabets: ``Base64URL``
/// (JWTs, JWKs) and ``Base64`` (HTTP Basic, vendors' signatures, Standard Webhooks secrets).
struct Base64Codec: Sendable {
    static let url = Base64Codec(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8))
    static let standard = Base64Codec(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8))

    init(_ alphabet: [UInt8]) {
        self.alphabet = alphabet
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        values = table
    }

    /// The 64 output characters, indexed by 6-bit value.
    let alphabet: [UInt8]
    /// Maps an ASCII byte to its 6-bit value, or 0xFF if it is not in the alphabet.
    let values: [UInt8]

    /// The length of the unpadded encoding of `count` bytes.
    static func encodedLength(of count: Int) -> Int { (count * 4 + 2) / 3 }

    /// Encodes `bytes` without `=` padding.
    func encode(_ bytes: [UInt8]) -> String {
        let length = Self.encodedLength(of: bytes.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in write(bytes, into: output) }
    }

    /// Appends the encoding of `bytes` to `out` (for building a token without string copies).
    func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: Self.encodedLength(of: bytes.count)))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = write(bytes, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the encoding of `bytes` into `output` (at least `encodedLength` long); returns
    /// the number of bytes written.
    private func write(_ bytes: [UInt8], into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        alphabet.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                var read = 0
                var written = 0
                while read + 3 <= input.count {
                    let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                    output[written] = table[Int(group >> 18 & 63)]
                    output[written + 1] = table[Int(group >> 12 & 63)]
                    output[written + 2] = table[Int(group >> 6 & 63)]
                    output[written + 3] = table[Int(group & 63)]
                    read += 3
                    written += 4
                }
                let rest = input.count - read
                if rest > 0 {
                    var group = UInt32(input[read]) << 16
                    if rest == 2 { group |= UInt32(input[read + 1]) << 8 }
                    output[written] = table[Int(group >> 18 & 63)]
                    output[written + 1] = table[Int(group >> 12 & 63)]
                    written += 2
                    if rest == 2 {
                        output[written] = table[Int(group >> 6 & 63)]
                        written += 1
                    }
                }
                return written
            }
        }
    }

    /// Decodes unpadded text; `nil` for characters outside the alphabet (including `=` and
    /// whitespace), for an impossible length (4n + 1), and for non-zero unused trailing bits,
    /// so every byte string has exactly one accepted encoding.
    func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { input in decode(input) }
    }

    private func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard input.count % 4 != 1 else { return nil }
        let count = input.count * 3 / 4
        var valid = true
        let output = values.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                var written = 0
                for character in input {
                    let value = table[Int(character)]
                    guard value != 0xFF else {
                        valid = false
                        break
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                        accumulator &= (1 << bits) - 1
                    }
                }
                // Leftover bits (2 or 4) must be zero for a canonical encoding.
                if accumulator != 0 { valid = false }
                initialized = written
            }
        }
        return valid ? output : nil
    }
}
