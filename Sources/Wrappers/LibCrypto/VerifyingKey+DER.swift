internal import COpenSSL

/// DER forms of a public key and DER ECDSA signatures, for protocols that carry them as such
/// (App Attest: the credential certificate's key, assertions signed in X9.62 DER).
extension VerifyingKey {
    /// Loads a DER SubjectPublicKeyInfo and detects its algorithm (Ed25519, P-256, RSA).
    /// - Throws: ``CryptoError/invalidKey(_:)`` for malformed DER, trailing bytes or an
    ///   unsupported key.
    public convenience init(subjectPublicKeyInfo der: [UInt8]) throws {
        guard !der.isEmpty, der.count < 1 << 20 else { throw CryptoError.invalidKey("SubjectPublicKeyInfo of \(der.count) bytes") }
        let parsed = der.withUnsafeBufferPointer { shim_d2i_PUBKEY($0.baseAddress, $0.count) }
        guard let pkey = parsed else {
            OpenSSL.clearErrors()
            throw CryptoError.invalidKey("not a DER SubjectPublicKeyInfo")
        }
        let algorithm: SigningAlgorithm
        do {
            algorithm = try PKey.algorithm(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.init(owning: pkey, algorithm: algorithm)
    }

    /// The public key as DER SubjectPublicKeyInfo.
    public func subjectPublicKeyInfo() throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 4096)
        let length = output.withUnsafeMutableBufferPointer { shim_i2d_PUBKEY(pkey, $0.baseAddress, Int32($0.count)) }
        guard length > 0 else { throw OpenSSL.error("i2d_PUBKEY") }
        return Array(output.prefix(Int(length)))
    }

    /// A P-256 key's point in X9.62 uncompressed form: 0x04 ‖ x ‖ y (65 bytes).
    /// - Throws: ``CryptoError/invalidKey(_:)`` for another kind of key.
    public func uncompressedPoint() throws -> [UInt8] {
        guard algorithm == .es256 else { throw CryptoError.invalidKey("not a P-256 key") }
        let x = try PKey.bignum(pkey, OSSL_PKEY_PARAM_EC_PUB_X, padTo: 32)
        let y = try PKey.bignum(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, padTo: 32)
        return [0x04] + x + y
    }

    /// Whether `signature`, a DER `ECDSA-Sig-Value`, is a valid ECDSA P-256 signature of
    /// SHA-256(`message`) by this key. False for any other kind of key and for malformed or
    /// non-canonical DER (OpenSSL re-encodes and compares). Safe from many threads at once.
    public func verify(derSignature signature: [UInt8], message: [UInt8]) -> Bool {
        guard algorithm == .es256, !signature.isEmpty, signature.count <= 80 else { return false }
        return digestVerify(encoded: signature, message: message)
    }
}
