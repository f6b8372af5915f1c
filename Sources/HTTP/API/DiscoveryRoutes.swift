import HTTPMessages
import VerifyCore

/// JWKS and the OpenID-style discovery document, so stock JWT libraries verify credentials.
struct DiscoveryRoutes: RouteCollection {
    let keys: any KeyRing
    let issuer: String
    /// Whether `POST /v1/credentials/introspect` exists (advertised as `introspection_endpoint`).
    var introspection = false

    func register(in router: inout Router) {
        let keys = self.keys
        let issuer = self.issuer
        // `iss` stays exactly as configured; URLs under it drop a trailing "/" (OIDC Discovery §4).
        let base = String(issuer.reversed().drop { $0 == "/" }.reversed())
        let introspection = self.introspection
        router.add("GET", "/.well-known/jwks.json") { _, _ in
            // Verifiers refetch the set when a credential names a key they do not know, which is
            // when a key has just been activated, possibly by another replica: reread the store
            // now (at most once a second, whatever the traffic) rather than up to one refresh
            // interval later.
            keys.refreshForUnknownKey()
            return JSONResponse.make(200, ["keys": .array(keys.publicJWKs())], headers: ["Cache-Control": "public, max-age=300"])
        }
        router.add("GET", "/.well-known/openid-configuration") { _, _ in
            let algorithms = Set(keys.publicJWKs().compactMap { $0["alg"]?.stringValue }).sorted()
            var members: [JSONMember] = [
                JSONMember("issuer", .string(issuer)),
                JSONMember("jwks_uri", .string(base + "/.well-known/jwks.json")),
                JSONMember("id_token_signing_alg_values_supported", .array(algorithms.map { .string($0) })),
                JSONMember("subject_types_supported", ["public"]),
                JSONMember("claims_supported", [
                    "iss", "aud", "sub", "iat", "nbf", "exp", "jti", "auth_time", "phone_number",
                    "phone_number_verified", "amr", "acr", "sid", "vid",
                ]),
            ]
            if introspection {
                members.insert(JSONMember("introspection_endpoint", .string(base + IntrospectionRoutes.path)), at: 2)
            }
            let document = JSONValue.object(members)
            return JSONResponse.make(200, document, headers: ["Cache-Control": "public, max-age=300"])
        }
    }
}
