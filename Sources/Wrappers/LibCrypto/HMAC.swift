internal import COpenSSL

/// Keyed-hash message authentication codes (RFC 2104).
public enum HMAC {
    /// The 32-byte HMAC-SHA-256 of `data` under `key`.
    ///
    /// Uses a fresh `EVP_MAC_CTX` per call from an `EVP_MAC` fetched once, which
    /// avoids the per-call algorithm fetch of the `HMAC()` one-shot (measured
    /// here: ~1.1M/s versus ~0.88M/s for 64-byte messages in C). Keys of any
    /// length are accepted, as RFC 2104 specifies.
    public static func sha256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        do {
            return try compute(key: key, data: data)
        } catch {
            // Only memory exhaustion or a broken OpenSSL can get here.
            fatalError("HMAC.sha256: \(error)")
        }
    }

    /// The 20-byte HMAC-SHA-1 of `data` under `key`. Only for checking vendors' webhook
    /// signatures that are defined with it (Twilio's `X-Twilio-Signature`); never for our own MACs.
    public static func sha1(key: [UInt8], data: [UInt8]) -> [UInt8] {
        do {
            return try compute(key: key, data: data, length: 20)
        } catch {
            fatalError("HMAC.sha1: \(error)")
        }
    }

    private static func compute(key: [UInt8], data: [UInt8], length expected: Int = 32) throws -> [UInt8] {
        let context = try OpenSSL.unwrap(EVP_MAC_CTX_new(FetchedAlgorithm.hmac.handle), "EVP_MAC_CTX_new")
        defer { EVP_MAC_CTX_free(context) }
        // OpenSSL treats a null key as "reuse the previous key", so an empty
        // key is passed as a valid pointer with length 0.
        let keyBytes = key.isEmpty ? [0] : key
        let initialized = keyBytes.withUnsafeBufferPointer {
            expected == 20
                ? shim_EVP_MAC_init_HMAC_SHA1(context, $0.baseAddress, key.count)
                : shim_EVP_MAC_init_HMAC_SHA256(context, $0.baseAddress, key.count)
        }
        try OpenSSL.check(initialized, "EVP_MAC_init")
        if !data.isEmpty {
            let result = data.withUnsafeBytes { raw in
                EVP_MAC_update(context, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            try OpenSSL.check(result, "EVP_MAC_update")
        }
        var length = 0
        let mac = try [UInt8](unsafeUninitializedCapacity: expected) { output, initialized in
            try OpenSSL.check(EVP_MAC_final(context, output.baseAddress, &length, expected), "EVP_MAC_final")
            guard length == expected else {
                throw CryptoError.openSSL(function: "EVP_MAC_final", reason: "unexpected length \(length)")
            }
            initialized = expected
        }
        return mac
    }
}
