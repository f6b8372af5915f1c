import HTTPMessages
import VerifyCore

/// `/v1/app-attest/…`: what an iOS app needs before its assertions can pass the `app_attest`
/// challenge (docs/CHALLENGES.md): server nonces, and the one-time attestation of a key. Only
/// registered when the provider is enabled.
struct AppAttestRoutes: RouteCollection {
    let registry: any AppAttestRegistry
    let clock: any Clock

    /// Base64 of an 8 KiB attestation object (the registry refuses larger ones the same way).
    static let maxAttestationLength = 10924

    func register(in router: inout Router) {
        let registry = self.registry, clock = self.clock
        router.add("POST", "/v1/app-attest/challenge") { request, _ in
            _ = try RequestBody(request, allowEmpty: true)
            let issued = try registry.issueChallenge(now: clock.now())
            return JSONResponse.make(
                201, ["challenge": .string(issued.challenge), "expires_at": .string(RFC3339.format(issued.expiresAt))],
                headers: ["Cache-Control": "no-store"])
        }
        router.add("POST", "/v1/app-attest/attestations") { request, _ in
            let body = try RequestBody(request)
            let registration = AppAttestRegistration(
                keyID: try body.string("key_id", maxLength: 256),
                attestation: try body.string("attestation", maxLength: Self.maxAttestationLength),
                challenge: try body.string("challenge", maxLength: 256))
            let key = try registry.register(registration, now: clock.now())
            return JSONResponse.make(
                201, ["key_id": .string(key.keyID), "environment": .string(key.environment)], headers: ["Cache-Control": "no-store"])
        }
    }
}
