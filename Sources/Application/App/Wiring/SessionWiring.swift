import Credentials
import Foundation
import CurlClient
import Telemetry
import VerifyCore

/// Builds the verifier of the main auth server's session tokens (and of PhoneVerify's own
/// step-up credentials), when MFA is configured.
enum SessionWiring {
    static func verifier(_ c: Configuration, issuer: String, keys: any KeyRing, clock: any Clock, logger: Logger) throws -> (any SessionVerifier)? {
        guard c.authCore.isConfigured else { return nil }
        let own = ownCredentials(issuer: issuer, audience: c.audience, keys: keys)
        var configuration = AuthCoreConfiguration()
        configuration.jwksURL = c.authCore.jwksURL
        configuration.jwksFile = c.authCore.jwksFile
        configuration.hs256Secret = c.authCore.hs256Secret
        configuration.issuer = c.authCore.issuer
        configuration.audience = c.authCore.audience
        configuration.leewaySeconds = c.authCore.leeway
        configuration.jwksMinRefreshSeconds = c.authCore.jwksMinRefresh
        // Production fetches the auth server's keys over TLS only.
        let http = HTTPClient(configuration: HTTPClientConfiguration(
            allowedSchemes: c.mode == .production ? ["https"] : ["https", "http"]))
        return try SessionTokenVerifier(configuration: configuration, own: own, clock: clock, http: http)
    }

    /// PhoneVerify's own credentials: its issuer, audience and every key it still publishes.
    static func ownCredentials(issuer: String, audience: String, keys: any KeyRing) -> OwnCredentials {
        OwnCredentials(issuer: issuer, audience: audience, refresh: { keys.refreshForUnknownKey() }) {
            keys.publicJWKs().map { jwk in
                var fields: [String: String] = [:]
                if case .object(let members) = jwk { for m in members { fields[m.key] = m.value.stringValue } }
                return fields
            }
        }
    }

    /// Introspection with one-time redemption; none without an API key that may call it.
    static func introspector(
        _ c: Configuration, issuer: String, keys: any KeyRing, store: any CredentialRedemptionStore, clock: any Clock,
        random: any RandomSource
    ) -> CredentialIntrospector? {
        guard c.apiKeys.hasKey(for: .introspect) else { return nil }
        let verifier = OwnCredentialVerifier(own: ownCredentials(issuer: issuer, audience: c.audience, keys: keys), clock: clock)
        return CredentialIntrospector(verifier: verifier, redemptions: store, random: random)
    }
}
