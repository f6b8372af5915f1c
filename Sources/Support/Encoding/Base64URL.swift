/// Base64url without padding (RFC 4648 §5, RFC 7515 §2), byte by byte.
///
/// Credentials are signed on every approved check, so encoding writes straight into a
/// pre-sized string buffer instead of going through Foundation's base64 and string replacing.
public enum Base64URL {
    /// The 64 output characters, indexed by 6-bit value.
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xFF if it is not in the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// The length of the unpadded encoding of `count` bytes.
    static func encodedLength(of count: Int) -> Int { (count * 4 + 2) / 3 }

    /// Encodes `bytes` as base64url without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        let length = encodedLength(of: bytes.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in write(bytes, into: output) }
    }

    /// Appends the encoding of `bytes` to `out` (for building a token without string copies).
    public static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: encodedLength(of: bytes.count)))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = write(bytes, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the encoding of `bytes` into `output` (at least `encodedLength` long); returns
    /// the number of bytes written.
    private static func write(_ bytes: [UInt8], into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
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

    /// Decodes unpadded base64url text; `nil` for characters outside `A–Z a–z 0–9 - _`
    /// (including `=`, `+`, `/` and whitespace), for an impossible length (4n + 1), and for
    /// non-zero unused trailing bits, so every byte string has exactly one accepted encoding.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { input in decode(input) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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
