internal import COpenSSL

/// A public key that verifies JWS signatures (Ed25519, ES256, RS256), for
/// example the keys of another server published as a JWK set.
///
/// The instance owns one `EVP_PKEY` and frees it in `deinit`.
///
/// `@unchecked Sendable` is safe because the `EVP_PKEY` is never modified
/// after the initializer returns, and OpenSSL 3 allows one key to be used
/// concurrently from many threads as long as each operation has its own
/// context: every ``verify(signature:message:)`` call creates its own `EVP_MD_CTX`.
public final class VerifyingKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`.
    let pkey: OpaquePointer
    /// The JWS algorithm this key verifies.
    public let algorithm: SigningAlgorithm

    /// Takes ownership of `pkey`, whose algorithm the caller has checked.
    init(owning pkey: OpaquePointer, algorithm: SigningAlgorithm) {
        self.pkey = pkey
        self.algorithm = algorithm
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// Builds a key from a public JWK: OKP with crv Ed25519, EC with crv P-256,
    /// or RSA of 2048–16384 bits. Other members (`kid`, `use`, private
    /// members) are ignored, except that `alg`, if present, must match.
    /// - Throws: ``CryptoError/invalidKey(_:)`` for anything else, for members
    ///   that are not canonical base64url or have the wrong size, and for EC
    ///   points not on the curve.
    public convenience init(jwk: [String: String]) throws {
        let (pkey, algorithm) = try JWK.publicKey(from: jwk)
        self.init(owning: pkey, algorithm: algorithm)
    }

    /// Loads a SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY") and detects its algorithm.
    /// - Throws: ``CryptoError/invalidKey(_:)`` for malformed PEM or unsupported keys.
    public convenience init(pem: String) throws {
        let pkey = try PKey.readPublicKey(pem: pem)
        let algorithm: SigningAlgorithm
        do {
            algorithm = try PKey.algorithm(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        self.init(owning: pkey, algorithm: algorithm)
    }

    /// Builds an Ed25519 key from its raw 32-byte RFC 8032 public key.
    public convenience init(rawEd25519PublicKey raw: [UInt8]) throws {
        try self.init(jwk: ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(raw)])
    }

    /// Whether `signature` is a valid signature of `message` by this key.
    ///
    /// Signatures use the JWS form produced by ``SigningKey/sign(_:)``
    /// (ES256: 64-byte raw `r || s`). Any malformed input returns `false`.
    /// Safe to call from many threads at once.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        defer { OpenSSL.clearErrors() }
        let encoded: [UInt8]
        switch algorithm {
        case .ed25519:
            guard signature.count == 64 else { return false }
            encoded = signature
        case .es256:
            guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
            encoded = der
        case .rs256:
            guard signature.count == (Int(EVP_PKEY_get_bits(pkey)) + 7) / 8 else { return false }
            encoded = signature
        }
        return digestVerify(encoded: encoded, message: message)
    }

    /// `EVP_DigestVerify` of an encoded (DER for ECDSA) signature; SHA-256 except for Ed25519.
    func digestVerify(encoded: [UInt8], message: [UInt8]) -> Bool {
        defer { OpenSSL.clearErrors() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let digest: String? = algorithm == .ed25519 ? nil : "SHA256"
        guard EVP_DigestVerifyInit_ex(context, nil, digest, nil, nil, pkey, nil) == 1 else { return false }
        let result = encoded.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        return result == 1
    }

    /// The public key as SubjectPublicKeyInfo PEM ("BEGIN PUBLIC KEY").
    public func publicKeyPEM() throws -> String {
        try PKey.publicKeyPEM(pkey)
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
