import VerifyCore

/// Stands in when no main auth server is configured: MFA is unavailable.
struct UnconfiguredSessions: SessionVerifier {
    func verify(_ token: String) throws -> Principal {
        throw VerifyError(.unavailable, "MFA is not configured: set PHONE_VERIFY_AUTH_CORE_JWKS_URL, _JWKS_FILE or _HS256_SECRET")
    }
}
