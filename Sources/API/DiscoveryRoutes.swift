import HTTPTypes
import VerifyCore

/// JWKS and the OpenID-style discovery document, so stock JWT libraries verify credentials.
struct DiscoveryRoutes: Sendable {
    let keys: any KeyRing
    let issuer: String

    func register(in router: inout Router) {
        let keys = self.keys
        let issuer = self.issuer
        router.add("GET", "/.well-known/jwks.json") { _, _ in
            JSONResponse.make(200, ["keys": .array(keys.publicJWKs())], headers: ["Cache-Control": "public, max-age=300"])
        }
        router.add("GET", "/.well-known/openid-configuration") { _, _ in
            let algorithms = Set(keys.publicJWKs().compactMap { $0["alg"]?.stringValue }).sorted()
            let document: JSONValue = [
                "issuer": .string(issuer),
                "jwks_uri": .string(issuer + "/.well-known/jwks.json"),
                "id_token_signing_alg_values_supported": .array(algorithms.map { .string($0) }),
                "token_endpoint_auth_methods_supported": ["none"],
                "subject_types_supported": ["public"],
                "claims_supported": [
                    "iss", "aud", "sub", "iat", "nbf", "exp", "jti", "auth_time", "phone_number",
                    "phone_number_verified", "amr", "acr", "sid", "vid",
                ],
            ]
            return JSONResponse.make(200, document, headers: ["Cache-Control": "public, max-age=300"])
        }
    }
}
