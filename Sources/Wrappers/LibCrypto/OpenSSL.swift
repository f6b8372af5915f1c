internal import COpenSSL

/// Internal helpers around OpenSSL: error-queue handling and algorithm
/// handles fetched once per process.
enum OpenSSL {
    /// Builds a ``CryptoError/openSSL(function:reason:)`` from the first entry
    /// of this thread's OpenSSL error queue, then clears the queue so that
    /// stale entries never leak into a later error.
    static func error(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else {
            return .openSSL(function: function, reason: "unknown error")
        }
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .openSSL(function: function, reason: reason)
    }

    /// Throws unless `result` is 1, OpenSSL's success value for most calls.
    static func check(_ result: Int32, _ function: String) throws {
        if result != 1 { throw error(function) }
    }

    /// Returns `pointer`, or throws the pending OpenSSL error if it is nil.
    static func unwrap<T>(_ pointer: T?, _ function: String) throws -> T {
        guard let pointer else { throw error(function) }
        return pointer
    }

    /// Discards anything left in this thread's error queue (used by paths
    /// that report failure as `false`/`nil` rather than by throwing).
    static func clearErrors() {
        ERR_clear_error()
    }
}

/// An OpenSSL algorithm object (`EVP_MD`, `EVP_MAC`, `EVP_CIPHER`, `EVP_KDF`)
/// fetched once from the default provider and kept for the process lifetime.
///
/// `@unchecked Sendable` is safe: fetched algorithm objects are immutable and
/// reference counted, and OpenSSL 3 documents them as shareable between
/// threads; each operation creates its own per-call context from them.
struct FetchedAlgorithm: @unchecked Sendable {
    /// The fetched object (`EVP_MD *`, `EVP_MAC *`, …); never freed.
    let handle: OpaquePointer

    /// SHA-256 (`EVP_MD`).
    static let sha256 = FetchedAlgorithm(EVP_MD_fetch(nil, "SHA256", nil), "EVP_MD_fetch(SHA256)")
    /// HMAC (`EVP_MAC`).
    static let hmac = FetchedAlgorithm(EVP_MAC_fetch(nil, "HMAC", nil), "EVP_MAC_fetch(HMAC)")
    /// AES-256-GCM (`EVP_CIPHER`).
    static let aes256GCM = FetchedAlgorithm(EVP_CIPHER_fetch(nil, "AES-256-GCM", nil), "EVP_CIPHER_fetch(AES-256-GCM)")
    /// HKDF (`EVP_KDF`).
    static let hkdf = FetchedAlgorithm(EVP_KDF_fetch(nil, "HKDF", nil), "EVP_KDF_fetch(HKDF)")

    /// Fetch failures mean the OpenSSL installation lacks its default provider,
    /// which no caller can recover from; they stop the process with the reason.
    private init(_ handle: OpaquePointer?, _ function: String) {
        guard let handle else {
            fatalError("OpenSSL: \(OpenSSL.error(function)) (default provider missing?)")
        }
        self.handle = handle
    }
}
