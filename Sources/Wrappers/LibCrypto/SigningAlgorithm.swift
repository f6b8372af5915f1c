/// A JWS signature algorithm; the raw value is the JOSE `alg` header value.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    /// Ed25519 (RFC 8037 `EdDSA`); 64-byte signatures.
    case ed25519 = "EdDSA"
    /// ECDSA on P-256 with SHA-256 (RFC 7518 `ES256`); 64-byte raw `r || s` signatures.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 `RS256`); keys of 2048 bits or more.
    case rs256 = "RS256"
}
