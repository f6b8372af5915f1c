internal import COpenSSL

/// Internal JWK support: importing public JWKs into `EVP_PKEY`s and RFC 7638
/// thumbprints. Exporting lives in ``PKey/publicJWK(_:algorithm:)``.
enum JWK {
    /// The RFC 7638 thumbprint of a public JWK produced by ``PKey/publicJWK(_:algorithm:)``:
    /// base64url SHA-256 of the required members, in lexicographic order,
    /// serialized as JSON without whitespace.
    static func thumbprint(of jwk: [String: String]) throws -> String {
        let members: [String]
        switch jwk["kty"] {
        case "OKP": members = ["crv", "kty", "x"]
        case "EC": members = ["crv", "kty", "x", "y"]
        case "RSA": members = ["e", "kty", "n"]
        default: throw CryptoError.invalidKey("JWK thumbprint: unsupported kty")
        }
        let fields = try members.map { name -> String in
            // Values are base64url or fixed names, so they need no JSON escaping.
            guard let value = jwk[name], value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C })
            else { throw CryptoError.invalidKey("JWK thumbprint: bad member \(name)") }
            return "\"\(name)\":\"\(value)\""
        }
        let json = "{" + fields.joined(separator: ",") + "}"
        return Base64URL.encode(Digest.sha256(Array(json.utf8)))
    }

    /// Builds a public `EVP_PKEY` from a JWK: OKP/Ed25519, EC/P-256 or RSA.
    /// Private members are ignored. If `alg` is present it must match the key.
    /// The returned key is validated (`EVP_PKEY_public_check` for EC and RSA)
    /// and owned by the caller.
    static func publicKey(from jwk: [String: String]) throws -> (pkey: OpaquePointer, algorithm: SigningAlgorithm) {
        let pkey: OpaquePointer
        switch jwk["kty"] {
        case "OKP":
            guard jwk["crv"] == "Ed25519" else { throw CryptoError.invalidKey("OKP JWK: crv must be Ed25519") }
            let x = try member("x", of: jwk, count: 32)
            pkey = try x.withUnsafeBufferPointer {
                try OpenSSL.unwrap(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, 32),
                                   "EVP_PKEY_new_raw_public_key")
            }
        case "EC":
            guard jwk["crv"] == "P-256" else { throw CryptoError.invalidKey("EC JWK: crv must be P-256") }
            // Uncompressed SEC 1 point: 0x04 || x || y.
            let point = try [0x04] + member("x", of: jwk, count: 32) + member("y", of: jwk, count: 32)
            pkey = try OSSLParams.withParameters([
                .utf8(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1"),
                .octets(OSSL_PKEY_PARAM_PUB_KEY, point),
            ]) { try fromData(type: .ec, $0) }
        case "RSA":
            pkey = try rsaPublicKey(n: member("n", of: jwk, count: nil), e: member("e", of: jwk, count: nil))
        default:
            throw CryptoError.invalidKey("JWK kty must be OKP, EC or RSA")
        }
        let algorithm: SigningAlgorithm
        do {
            if jwk["kty"] != "OKP" { try checkPublicKey(pkey) }
            algorithm = try PKey.algorithm(of: pkey)
            if let alg = jwk["alg"], alg != algorithm.rawValue, !(algorithm == .ed25519 && alg == "Ed25519") {
                throw CryptoError.invalidKey("JWK alg \(alg) does not match the \(algorithm.rawValue) key")
            }
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
        return (pkey, algorithm)
    }

    /// A base64url member decoded; exactly `count` bytes if given, else non-empty.
    private static func member(_ name: String, of jwk: [String: String], count: Int?) throws -> [UInt8] {
        guard let text = jwk[name], let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw CryptoError.invalidKey("JWK member \(name) missing or not base64url")
        }
        if let count, bytes.count != count {
            throw CryptoError.invalidKey("JWK member \(name) must be \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }

    /// An RSA public key from big-endian modulus and exponent, via OSSL_PARAM_BLD.
    private static func rsaPublicKey(n: [UInt8], e: [UInt8]) throws -> OpaquePointer {
        guard n.count <= PKey.rsaBits.upperBound / 8, e.count <= 8 else {
            throw CryptoError.invalidKey("RSA JWK: modulus or exponent too large")
        }
        let modulus = try n.withUnsafeBufferPointer {
            try OpenSSL.unwrap(BN_bin2bn($0.baseAddress, Int32($0.count), nil), "BN_bin2bn(n)")
        }
        defer { BN_free(modulus) }
        let exponent = try e.withUnsafeBufferPointer {
            try OpenSSL.unwrap(BN_bin2bn($0.baseAddress, Int32($0.count), nil), "BN_bin2bn(e)")
        }
        defer { BN_free(exponent) }
        let builder = try OpenSSL.unwrap(OSSL_PARAM_BLD_new(), "OSSL_PARAM_BLD_new")
        defer { OSSL_PARAM_BLD_free(builder) }
        // The shim pushes with C literals: OSSL_PARAM_BLD keeps the key-name pointers.
        try OpenSSL.check(shim_OSSL_PARAM_BLD_push_rsa_public(builder, modulus, exponent), "OSSL_PARAM_BLD_push_BN")
        let parameters = try OpenSSL.unwrap(OSSL_PARAM_BLD_to_param(builder), "OSSL_PARAM_BLD_to_param")
        defer { OSSL_PARAM_free(parameters) }
        return try fromData(type: .rsa, parameters)
    }

    /// Key types built from parameters.
    private enum KeyType: String {
        case ec = "EC", rsa = "RSA"
    }

    /// `EVP_PKEY_fromdata` for a public key of key type `type`.
    private static func fromData(type: KeyType, _ parameters: UnsafePointer<OSSL_PARAM>) throws -> OpaquePointer {
        let newContext = type == .ec ? shim_EVP_PKEY_CTX_new_EC() : shim_EVP_PKEY_CTX_new_RSA()
        let context = try OpenSSL.unwrap(newContext, "EVP_PKEY_CTX_new_from_name(\(type.rawValue))")
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSL.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
        var pkey: OpaquePointer?
        // OSSL_PARAM arguments are declared non-const in EVP_PKEY_fromdata but only read.
        let result = EVP_PKEY_fromdata(context, &pkey, shim_EVP_PKEY_PUBLIC_KEY(), UnsafeMutablePointer(mutating: parameters))
        guard result == 1, let pkey else {
            throw CryptoError.invalidKey("\(type.rawValue) JWK rejected: \(OpenSSL.error("EVP_PKEY_fromdata"))")
        }
        return pkey
    }

    /// Throws unless OpenSSL's public-key validation accepts `pkey`
    /// (point on the curve for EC; odd modulus and valid exponent for RSA).
    private static func checkPublicKey(_ pkey: OpaquePointer) throws {
        let context = try OpenSSL.unwrap(EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil), "EVP_PKEY_CTX_new_from_pkey")
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            throw CryptoError.invalidKey("public key check failed: \(OpenSSL.error("EVP_PKEY_public_check"))")
        }
    }
}
