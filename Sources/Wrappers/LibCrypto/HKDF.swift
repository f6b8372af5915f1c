internal import COpenSSL

/// HMAC-based key derivation (RFC 5869), via OpenSSL's `EVP_KDF` "HKDF".
public enum HKDF {
    /// The largest output HKDF-SHA-256 can produce: 255 blocks of 32 bytes.
    public static let maximumSHA256Length = 255 * 32

    /// Derives `length` bytes with HKDF-SHA-256 (extract then expand).
    ///
    /// - Parameters:
    ///   - secret: The input keying material (IKM); must not be empty.
    ///   - salt: Optional salt; empty means a string of 32 zero bytes (RFC 5869).
    ///   - info: Optional context and application specific information.
    ///   - length: Output length, `1 ... 8160`.
    /// - Throws: ``CryptoError/invalidArgument(_:)`` for an empty secret or a
    ///   length out of range; ``CryptoError/openSSL(function:reason:)`` if OpenSSL fails.
    public static func sha256(secret: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard length > 0, length <= maximumSHA256Length else {
            throw CryptoError.invalidArgument("HKDF-SHA-256 length must be 1...\(maximumSHA256Length), got \(length)")
        }
        guard !secret.isEmpty else {
            throw CryptoError.invalidArgument("HKDF secret must not be empty")
        }
        let context = try OpenSSL.unwrap(EVP_KDF_CTX_new(FetchedAlgorithm.hkdf.handle), "EVP_KDF_CTX_new")
        defer { EVP_KDF_CTX_free(context) }
        var values: [OSSLParams.Value] = [
            .utf8(OSSL_KDF_PARAM_DIGEST, "SHA256"),
            .octets(OSSL_KDF_PARAM_KEY, secret),
        ]
        if !salt.isEmpty { values.append(.octets(OSSL_KDF_PARAM_SALT, salt)) }
        if !info.isEmpty { values.append(.octets(OSSL_KDF_PARAM_INFO, info)) }
        return try OSSLParams.withParameters(values) { parameters in
            try [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
                try OpenSSL.check(EVP_KDF_derive(context, output.baseAddress, length, parameters), "EVP_KDF_derive")
                initialized = length
            }
        }
    }
}
