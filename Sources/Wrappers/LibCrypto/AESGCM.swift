internal import COpenSSL

/// AES-256-GCM authenticated encryption.
///
/// A sealed box is `nonce (12 bytes) || ciphertext || tag (16 bytes)`. Every
/// seal draws a fresh random nonce, so one key may seal up to about 2^32
/// messages before random nonces risk colliding (NIST SP 800-38D).
public enum AESGCM {
    /// Key length in bytes (AES-256).
    public static let keyByteCount = 32
    /// Nonce length in bytes.
    public static let nonceByteCount = 12
    /// Authentication tag length in bytes.
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`; `associatedData` is
    /// authenticated but not encrypted and must be passed again to ``open(_:key:associatedData:)``.
    /// - Returns: `nonce || ciphertext || tag`, 28 bytes longer than `plaintext`.
    /// - Throws: ``CryptoError/invalidKey(_:)`` unless `key` is 32 bytes;
    ///   ``CryptoError/openSSL(function:reason:)`` if OpenSSL fails.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        try checkSizes(key: key, textCount: plaintext.count, associatedData: associatedData)
        let nonce = SecureRandom.bytes(nonceByteCount)
        let context = try OpenSSL.unwrap(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        let initialized = key.withUnsafeBufferPointer { keyBytes in
            nonce.withUnsafeBufferPointer { nonceBytes in
                EVP_EncryptInit_ex2(context, FetchedAlgorithm.aes256GCM.handle,
                                    keyBytes.baseAddress, nonceBytes.baseAddress, nil)
            }
        }
        try OpenSSL.check(initialized, "EVP_EncryptInit_ex2")
        if !associatedData.isEmpty {
            var ignored: Int32 = 0
            let result = associatedData.withUnsafeBufferPointer {
                EVP_EncryptUpdate(context, nil, &ignored, $0.baseAddress, Int32($0.count))
            }
            try OpenSSL.check(result, "EVP_EncryptUpdate(aad)")
        }
        let total = nonceByteCount + plaintext.count + tagByteCount
        return try [UInt8](unsafeUninitializedCapacity: total) { box, initializedCount in
            let base = box.baseAddress!
            base.initialize(from: nonce, count: nonceByteCount)
            var written: Int32 = 0
            if !plaintext.isEmpty {
                let result = plaintext.withUnsafeBufferPointer {
                    EVP_EncryptUpdate(context, base + nonceByteCount, &written, $0.baseAddress, Int32($0.count))
                }
                try OpenSSL.check(result, "EVP_EncryptUpdate")
            }
            var finalWritten: Int32 = 0
            try OpenSSL.check(EVP_EncryptFinal_ex(context, base + nonceByteCount + Int(written), &finalWritten),
                              "EVP_EncryptFinal_ex")
            guard Int(written) + Int(finalWritten) == plaintext.count else {
                throw CryptoError.openSSL(function: "EVP_EncryptUpdate", reason: "unexpected ciphertext length")
            }
            let tagResult = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount),
                                                base + nonceByteCount + plaintext.count)
            try OpenSSL.check(tagResult, "EVP_CIPHER_CTX_ctrl(GET_TAG)")
            initializedCount = total
        }
    }

    /// Authenticates and decrypts a box produced by ``seal(_:key:associatedData:)``.
    /// - Throws: ``CryptoError/authenticationFailed`` if the box is truncated,
    ///   was altered, or `key`/`associatedData` differ from sealing;
    ///   ``CryptoError/invalidKey(_:)`` unless `key` is 32 bytes.
    public static func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] {
        guard box.count >= nonceByteCount + tagByteCount else { throw CryptoError.authenticationFailed }
        let ciphertextCount = box.count - nonceByteCount - tagByteCount
        try checkSizes(key: key, textCount: ciphertextCount, associatedData: associatedData)
        let context = try OpenSSL.unwrap(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(context) }
        return try box.withUnsafeBufferPointer { boxBytes in
            let base = boxBytes.baseAddress!
            let initialized = key.withUnsafeBufferPointer { keyBytes in
                EVP_DecryptInit_ex2(context, FetchedAlgorithm.aes256GCM.handle, keyBytes.baseAddress, base, nil)
            }
            try OpenSSL.check(initialized, "EVP_DecryptInit_ex2")
            if !associatedData.isEmpty {
                var ignored: Int32 = 0
                let result = associatedData.withUnsafeBufferPointer {
                    EVP_DecryptUpdate(context, nil, &ignored, $0.baseAddress, Int32($0.count))
                }
                try OpenSSL.check(result, "EVP_DecryptUpdate(aad)")
            }
            var tag = Array(boxBytes[(nonceByteCount + ciphertextCount)...])
            let tagResult = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag)
            try OpenSSL.check(tagResult, "EVP_CIPHER_CTX_ctrl(SET_TAG)")
            var plaintext = [UInt8](repeating: 0, count: ciphertextCount)
            var written: Int32 = 0
            if ciphertextCount > 0 {
                let result = plaintext.withUnsafeMutableBufferPointer {
                    EVP_DecryptUpdate(context, $0.baseAddress, &written, base + nonceByteCount, Int32(ciphertextCount))
                }
                try OpenSSL.check(result, "EVP_DecryptUpdate")
            }
            var finalWritten: Int32 = 0
            let verified = plaintext.withUnsafeMutableBufferPointer {
                EVP_DecryptFinal_ex(context, $0.baseAddress.map { $0 + Int(written) }, &finalWritten)
            }
            guard verified == 1, Int(written) + Int(finalWritten) == ciphertextCount else {
                // Never release unauthenticated plaintext, not even in freed memory.
                plaintext.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
                OpenSSL.clearErrors()
                throw CryptoError.authenticationFailed
            }
            return plaintext
        }
    }

    /// Validates the key length and that lengths fit OpenSSL's `int` parameters.
    private static func checkSizes(key: [UInt8], textCount: Int, associatedData: [UInt8]) throws {
        guard key.count == keyByteCount else {
            throw CryptoError.invalidKey("AES-256-GCM needs a \(keyByteCount)-byte key, got \(key.count)")
        }
        let limit = Int(Int32.max) - 64
        guard textCount <= limit, associatedData.count <= limit else {
            throw CryptoError.invalidArgument("AES-GCM input larger than \(limit) bytes")
        }
    }
}
