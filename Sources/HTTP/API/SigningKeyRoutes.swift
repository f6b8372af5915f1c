import HTTPMessages
import VerifyCore

/// `GET /v1/admin/signing-keys` (scope `read`, the group's ``ScopeMiddleware``): the credential
/// signing keys in the store as `phone-verify keys list` shows them (`kid`, algorithm, status,
/// `retire_after`, whether JWKS publishes it), so an operator or a deploy script can follow a key
/// rotation from outside the replicas (docs/OPERATIONS.md, "Key rotation").
struct SigningKeyRoutes: RouteCollection {
    let store: any SigningKeyStore
    let clock: any Clock

    func register(in router: inout Router) {
        let store = self.store, clock = self.clock
        router.add("GET", "/v1/admin/signing-keys") { _, _ in
            let keys = try store.signingKeys(), now = clock.now()
            return JSONResponse.make(
                200, ["signing_keys": .array(keys.map { SigningKeyJSON.make($0, now: now) })], headers: ["Cache-Control": "no-store"])
        }
    }
}
