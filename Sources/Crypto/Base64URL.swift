/// Base64url encoding without padding (RFC 4648 §5, as used by JOSE/JWT).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xFF if it is not in the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` as base64url without `=` padding, straight into the string's buffer.
    public static func encode(_ bytes: [UInt8]) -> String {
        let length = (bytes.count * 4 + 2) / 3
        guard length > 0 else { return "" }
        return alphabet.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                String(unsafeUninitializedCapacity: length) { output in
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
    }

    /// Decodes unpadded base64url text.
    ///
    /// Strict, so that every byte string has exactly one accepted encoding
    /// (important for signatures and tokens): returns `nil` for characters
    /// outside `A–Z a–z 0–9 - _` (including `=`, `+`, `/` and whitespace), for
    /// an impossible length (4n + 1), and for non-zero unused trailing bits.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard input.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in input {
            let value = decodeTable[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits (2 or 4) must be zero for a canonical encoding.
        guard accumulator == 0 else { return nil }
        return output
    }
}
