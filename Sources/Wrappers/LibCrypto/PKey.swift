internal import COpenSSL

/// Internal operations on an `EVP_PKEY *` shared by ``SigningKey`` and
/// ``VerifyingKey``. These functions never take ownership of the key.
enum PKey {
    /// The supported RSA modulus sizes, in bits (RFC 7518 §3.3 requires ≥ 2048).
    static let rsaBits = 2048...16384

    /// Determines the JWS algorithm of `pkey`, rejecting unsupported keys:
    /// Ed25519, EC on P-256 only, and RSA (not RSA-PSS) within ``rsaBits``.
    static func algorithm(of pkey: OpaquePointer) throws -> SigningAlgorithm {
        if EVP_PKEY_is_a(pkey, "ED25519") == 1 { return .ed25519 }
        if EVP_PKEY_is_a(pkey, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 80)
            var length = 0
            let result = EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length)
            guard result == 1 else {
                OpenSSL.clearErrors()
                throw CryptoError.invalidKey("EC key without a named curve")
            }
            let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard curve == "prime256v1" || curve == "P-256" else {
                throw CryptoError.invalidKey("EC curve \(curve) is not P-256")
            }
            return .es256
        }
        if EVP_PKEY_is_a(pkey, "RSA") == 1 {
            let bits = Int(EVP_PKEY_get_bits(pkey))
            guard rsaBits.contains(bits) else {
                throw CryptoError.invalidKey("RSA key of \(bits) bits; RS256 needs \(rsaBits)")
            }
            return .rs256
        }
        let type = EVP_PKEY_get0_type_name(pkey).map { String(cString: $0) } ?? "unknown"
        throw CryptoError.invalidKey("unsupported key type \(type)")
    }

    /// Parses a private key PEM (PKCS#8 "PRIVATE KEY" or the traditional
    /// "EC PRIVATE KEY" / "RSA PRIVATE KEY"). Encrypted PEM is rejected.
    /// The caller owns the returned key.
    static func readPrivateKey(pem: String) throws -> OpaquePointer {
        try withReadBIO(pem) { bio in
            guard let pkey = shim_PEM_read_bio_PrivateKey(bio) else {
                throw CryptoError.invalidKey("not an unencrypted private key PEM (\(OpenSSL.error("PEM_read_bio_PrivateKey")))")
            }
            return pkey
        }
    }

    /// Parses a SubjectPublicKeyInfo "PUBLIC KEY" PEM. The caller owns the returned key.
    static func readPublicKey(pem: String) throws -> OpaquePointer {
        try withReadBIO(pem) { bio in
            guard let pkey = shim_PEM_read_bio_PUBKEY(bio) else {
                throw CryptoError.invalidKey("not a public key PEM (\(OpenSSL.error("PEM_read_bio_PUBKEY")))")
            }
            return pkey
        }
    }

    /// The private key as unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY").
    static func privateKeyPEM(_ pkey: OpaquePointer) throws -> String {
        // Secure-heap memory BIO: the PEM text is cleansed when the BIO is freed.
        try withWriteBIO(BIO_s_secmem()) { bio in
            try OpenSSL.check(shim_PEM_write_bio_PKCS8PrivateKey(bio, pkey), "PEM_write_bio_PKCS8PrivateKey")
        }
    }

    /// The public key as SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY").
    static func publicKeyPEM(_ pkey: OpaquePointer) throws -> String {
        try withWriteBIO(BIO_s_mem()) { bio in
            try OpenSSL.check(PEM_write_bio_PUBKEY(bio, pkey), "PEM_write_bio_PUBKEY")
        }
    }

    /// The public members of the key's JWK (RFC 7517/7518/8037), values base64url.
    static func publicJWK(_ pkey: OpaquePointer, algorithm: SigningAlgorithm) throws -> [String: String] {
        switch algorithm {
        case .ed25519:
            var length = 32
            var raw = [UInt8](repeating: 0, count: 32)
            try OpenSSL.check(EVP_PKEY_get_raw_public_key(pkey, &raw, &length), "EVP_PKEY_get_raw_public_key")
            guard length == 32 else { throw CryptoError.invalidKey("Ed25519 public key of \(length) bytes") }
            return ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(raw)]
        case .es256:
            let x = try bignum(pkey, OSSL_PKEY_PARAM_EC_PUB_X, padTo: 32)
            let y = try bignum(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, padTo: 32)
            return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(x), "y": Base64URL.encode(y)]
        case .rs256:
            let n = try bignum(pkey, OSSL_PKEY_PARAM_RSA_N, padTo: nil)
            let e = try bignum(pkey, OSSL_PKEY_PARAM_RSA_E, padTo: nil)
            return ["kty": "RSA", "n": Base64URL.encode(n), "e": Base64URL.encode(e)]
        }
    }

    /// A BIGNUM key parameter as unsigned big-endian bytes: minimal length
    /// when `padTo` is nil (as JWK requires for RSA), else left-padded.
    static func bignum(_ pkey: OpaquePointer, _ name: String, padTo width: Int?) throws -> [UInt8] {
        var number: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_get_bn_param(pkey, name, &number), "EVP_PKEY_get_bn_param(\(name))")
        let bn = try OpenSSL.unwrap(number, "EVP_PKEY_get_bn_param(\(name))")
        defer { BN_free(bn) }
        let count = width ?? max(1, (Int(BN_num_bits(bn)) + 7) / 8)
        var bytes = [UInt8](repeating: 0, count: count)
        let written = BN_bn2binpad(bn, &bytes, Int32(count))
        guard written == Int32(count) else { throw OpenSSL.error("BN_bn2binpad(\(name))") }
        return bytes
    }

    /// Runs `body` with a read-only memory BIO over the UTF-8 of `text`.
    private static func withReadBIO<R>(_ text: String, _ body: (OpaquePointer) throws -> R) throws -> R {
        let bytes = Array(text.utf8)
        guard bytes.count < Int(Int32.max) else { throw CryptoError.invalidArgument("PEM text too large") }
        return try bytes.withUnsafeBytes { raw in
            let bio = try OpenSSL.unwrap(BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)), "BIO_new_mem_buf")
            defer { BIO_free(bio) }
            let result = try body(bio)
            // The PEM decoders may leave entries from formats they tried first.
            OpenSSL.clearErrors()
            return result
        }
    }

    /// Runs `write` against a fresh memory BIO of `method` and returns what it wrote.
    private static func withWriteBIO(_ method: OpaquePointer?, _ write: (OpaquePointer) throws -> Void) throws -> String {
        let bio = try OpenSSL.unwrap(BIO_new(method), "BIO_new")
        defer { BIO_free(bio) }
        try write(bio)
        var data: UnsafeMutablePointer<CChar>?
        let length = shim_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { throw OpenSSL.error("BIO_get_mem_data") }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
