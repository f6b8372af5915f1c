/// Standard base64 with padding (RFC 4648 §4): HTTP Basic credentials, vendors' request
/// signatures, Standard Webhooks secrets. The same codec as ``Base64URL``, standard alphabet.
public enum Base64 {
    /// Encodes `bytes`, padded with `=` to a multiple of 4 characters.
    public static func encode(_ bytes: [UInt8]) -> String {
        let text = Base64Codec.standard.encode(bytes)
        return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    }

    /// Decodes padded text strictly: a multiple of 4 characters, `=` only as the last one or two,
    /// nothing outside the alphabet (no whitespace), canonical trailing bits; otherwise `nil`.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count % 4 == 0 else { return nil }
        let padding = utf8.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        return Base64Codec.standard.decode(String(text.dropLast(padding)))
    }
}
