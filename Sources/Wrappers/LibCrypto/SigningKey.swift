internal import COpenSSL

/// A private key that signs JWS messages with Ed25519, ES256 or RS256.
///
/// The instance owns one `EVP_PKEY` and frees it in `deinit`.
///
/// `@unchecked Sendable` is safe because the `EVP_PKEY` and the signing template are never
/// modified after the initializer returns, and OpenSSL 3 allows one key to be used
/// concurrently from many threads as long as each operation has its own context: every
/// ``sign(_:)`` call copies the template into its own `EVP_MD_CTX` (`EVP_MD_CTX_copy_ex` only
/// reads its source) and frees it.
///
/// The template is `EVP_DigestSignInit_ex` done once: that call fetches the digest and the
/// signature implementation by name and exports the key to the provider, which OpenSSL 3.0
/// does under its global method-store lock. Per signature it cost about a third of an ES256
/// signature on this machine (docs/BENCHMARKS.md, "Third round"); a copy costs none of it.
public final class SigningKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    let pkey: OpaquePointer
    /// The JWS algorithm this key signs with.
    public let algorithm: SigningAlgorithm
    /// An `EVP_MD_CTX *` initialised for signing with `pkey`; only ever copied.
    private let template: OpaquePointer

    /// Takes ownership of `pkey`, whose algorithm the caller has checked; frees it and throws
    /// when no signing context can be made for it.
    private init(owning pkey: OpaquePointer, algorithm: SigningAlgorithm) throws {
        do {
            self.template = try Self.signingTemplate(pkey, algorithm: algorithm)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.pkey = pkey
        self.algorithm = algorithm
    }

    deinit {
        EVP_MD_CTX_free(template)
        EVP_PKEY_free(pkey)
    }

    private static func signingTemplate(_ pkey: OpaquePointer, algorithm: SigningAlgorithm) throws -> OpaquePointer {
        let context = try OpenSSL.unwrap(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        // Ed25519 hashes internally (PureEdDSA) and must get no digest name.
        let digest: String? = algorithm == .ed25519 ? nil : "SHA256"
        guard EVP_DigestSignInit_ex(context, nil, digest, nil, nil, pkey, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw OpenSSL.error("EVP_DigestSignInit_ex")
        }
        return context
    }

    /// Takes ownership of `pkey`; frees it and throws if it is unsupported.
    private convenience init(adopting pkey: OpaquePointer) throws {
        let algorithm: SigningAlgorithm
        do {
            algorithm = try PKey.algorithm(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        try self.init(owning: pkey, algorithm: algorithm)
    }

    /// Generates a new random key: Ed25519, ECDSA P-256, or RSA 2048 (e = 65537).
    public static func generate(_ algorithm: SigningAlgorithm) throws -> SigningKey {
        let context: OpaquePointer
        switch algorithm {
        case .ed25519:
            context = try OpenSSL.unwrap(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil), "EVP_PKEY_CTX_new_id(ED25519)")
        case .es256:
            context = try OpenSSL.unwrap(shim_EVP_PKEY_CTX_new_EC(), "EVP_PKEY_CTX_new_from_name(EC)")
        case .rs256:
            context = try OpenSSL.unwrap(shim_EVP_PKEY_CTX_new_RSA(), "EVP_PKEY_CTX_new_from_name(RSA)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        switch algorithm {
        case .ed25519:
            break
        case .es256:
            try OpenSSL.check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name")
        case .rs256:
            try OpenSSL.check(EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048), "EVP_PKEY_CTX_set_rsa_keygen_bits")
        }
        var generated: OpaquePointer?
        try OpenSSL.check(EVP_PKEY_keygen(context, &generated), "EVP_PKEY_keygen")
        return try SigningKey(adopting: OpenSSL.unwrap(generated, "EVP_PKEY_keygen"))
    }

    /// Loads an unencrypted private key PEM and detects its algorithm.
    ///
    /// Accepts PKCS#8 ("BEGIN PRIVATE KEY") and the traditional
    /// "BEGIN EC PRIVATE KEY" / "BEGIN RSA PRIVATE KEY" forms.
    /// - Throws: ``CryptoError/invalidKey(_:)`` for malformed or encrypted PEM,
    ///   EC curves other than P-256, RSA below 2048 bits, or other key types.
    public convenience init(pem: String) throws {
        try self.init(adopting: PKey.readPrivateKey(pem: pem))
    }

    /// Builds an Ed25519 key from its 32-byte RFC 8032 private key (seed).
    /// - Throws: ``CryptoError/invalidKey(_:)`` unless `seed` is 32 bytes.
    public convenience init(rawEd25519Seed seed: [UInt8]) throws {
        guard seed.count == 32 else {
            throw CryptoError.invalidKey("Ed25519 seed must be 32 bytes, got \(seed.count)")
        }
        let pkey = try seed.withUnsafeBufferPointer {
            try OpenSSL.unwrap(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32),
                               "EVP_PKEY_new_raw_private_key")
        }
        try self.init(adopting: pkey)
    }

    /// The private key as unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY").
    public func privateKeyPEM() throws -> String {
        try PKey.privateKeyPEM(pkey)
    }

    /// The public half as SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY").
    public func publicKeyPEM() throws -> String {
        try PKey.publicKeyPEM(pkey)
    }

    /// The matching public key, as a separate key holding no private material.
    public func verifyingKey() throws -> VerifyingKey {
        try VerifyingKey(pem: publicKeyPEM())
    }

    /// Signs `message`, returning a signature in JWS form:
    /// Ed25519: 64 bytes; ES256: 64-byte raw `r || s` (not DER);
    /// RS256: RSASSA-PKCS1-v1_5 over SHA-256, as long as the modulus.
    /// Safe to call from many threads at once.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        let context = try OpenSSL.unwrap(EVP_MD_CTX_new(), "EVP_MD_CTX_new")
        defer { EVP_MD_CTX_free(context) }
        try OpenSSL.check(EVP_MD_CTX_copy_ex(context, template), "EVP_MD_CTX_copy_ex")
        let signature = try message.withUnsafeBufferPointer { input -> [UInt8] in
            var capacity = 0
            try OpenSSL.check(EVP_DigestSign(context, nil, &capacity, input.baseAddress, input.count),
                              "EVP_DigestSign(size)")
            var output = [UInt8](repeating: 0, count: capacity)
            var length = capacity
            try OpenSSL.check(EVP_DigestSign(context, &output, &length, input.baseAddress, input.count),
                              "EVP_DigestSign")
            return Array(output.prefix(length))
        }
        return algorithm == .es256 ? try ECDSASignature.raw(fromDER: signature) : signature
    }

    /// The public key as a JWK: OKP `{kty, crv, x}`, EC `{kty, crv, x, y}` or
    /// RSA `{kty, n, e}`, with base64url (unpadded) values.
    public func publicJWK() throws -> [String: String] {
        try PKey.publicJWK(pkey, algorithm: algorithm)
    }

    /// The RFC 7638 JWK thumbprint (base64url SHA-256), usable as a `kid`.
    public func thumbprint() throws -> String {
        try JWK.thumbprint(of: publicJWK())
    }
}
