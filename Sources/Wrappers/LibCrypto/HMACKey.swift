internal import COpenSSL

/// An HMAC-SHA-256 key prepared once, for a key that authenticates many messages (the code
/// hasher's). ``HMAC/sha256(key:data:)`` sets up a context per call: `EVP_MAC_init` fetches
/// SHA-256 by name (under OpenSSL 3.0's global method-store lock) and runs the key schedule
/// (two hash blocks). Here both happen once, in `init`; each ``mac(_:)`` duplicates the
/// prepared context (`EVP_MAC_CTX_dup` only reads its source) and hashes the message.
///
/// `@unchecked Sendable`: the prepared context is never modified after `init`, and every call
/// works on its own duplicate, so many threads may call ``mac(_:)`` at once.
public final class HMACKey: @unchecked Sendable {
    /// The prepared `EVP_MAC_CTX *`; only ever duplicated.
    private let prepared: OpaquePointer

    /// Prepares `key` (any length, as RFC 2104 allows). Stops the process only when OpenSSL
    /// cannot allocate or lacks SHA-256, as ``HMAC/sha256(key:data:)`` does.
    public init(sha256Key key: [UInt8]) {
        do {
            let context = try OpenSSL.unwrap(EVP_MAC_CTX_new(FetchedAlgorithm.hmac.handle), "EVP_MAC_CTX_new")
            // OpenSSL treats a null key as "reuse the previous key": an empty key is a valid
            // pointer with length 0.
            let keyBytes = key.isEmpty ? [0] : key
            let initialized = keyBytes.withUnsafeBufferPointer {
                shim_EVP_MAC_init_HMAC_SHA256(context, $0.baseAddress, key.count)
            }
            guard initialized == 1 else {
                EVP_MAC_CTX_free(context)
                throw OpenSSL.error("EVP_MAC_init")
            }
            prepared = context
        } catch {
            fatalError("HMACKey: \(error)")
        }
    }

    deinit {
        EVP_MAC_CTX_free(prepared)
    }

    /// The 32-byte HMAC-SHA-256 of `data`; equal to `HMAC.sha256(key:data:)` with this key.
    public func mac(_ data: [UInt8]) -> [UInt8] {
        guard let context = EVP_MAC_CTX_dup(prepared) else { fatalError("HMACKey: EVP_MAC_CTX_dup failed") }
        defer { EVP_MAC_CTX_free(context) }
        if !data.isEmpty {
            let updated = data.withUnsafeBufferPointer { EVP_MAC_update(context, $0.baseAddress, $0.count) }
            guard updated == 1 else { fatalError("HMACKey: EVP_MAC_update failed") }
        }
        var length = 0
        let mac = [UInt8](unsafeUninitializedCapacity: 32) { output, initialized in
            guard EVP_MAC_final(context, output.baseAddress, &length, 32) == 1, length == 32 else {
                fatalError("HMACKey: EVP_MAC_final failed")
            }
            initialized = 32
        }
        return mac
    }
}
