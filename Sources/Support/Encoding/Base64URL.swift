/// Base64url without padding (RFC 4648 §5, RFC 7515 §2).
///
/// Credentials are signed on every approved check, so encoding writes straight into a
/// pre-sized string buffer instead of going through Foundation's base64 and string replacing.
public enum Base64URL {
    /// Encodes `bytes` as base64url without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String { Base64Codec.url.encode(bytes) }

    /// Appends the encoding of `bytes` to `out` (for building a token without string copies).
    public static func append(_ bytes: [UInt8], to out: inout [UInt8]) { Base64Codec.url.append(bytes, to: &out) }

    /// Decodes unpadded base64url text; `nil` for characters outside `A–Z a–z 0–9 - _`
    /// (including `=`, `+`, `/` and whitespace), for an impossible length (4n + 1), and for
    /// non-zero unused trailing bits, so every byte string has exactly one accepted encoding.
    public static func decode(_ text: String) -> [UInt8]? { Base64Codec.url.decode(text) }
}
