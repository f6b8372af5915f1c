import HTTPMessages
import VerifyCore

/// `/healthz` (the process answers) and `/readyz` (the store answers and a gateway is reachable;
/// with `?gateways=false` the store alone, for load balancers: a vendor outage, the same for every
/// replica, must not take away checks, JWKS and introspection too). With `reasonsNeedKey`
/// (production) a not-ready answer says why only to a key of scope `metrics` or `read`: store
/// errors can name hosts and users, and gateway states are for operators; probes need only
/// the status.
struct HealthRoutes: RouteCollection {
    let readiness: @Sendable () throws -> Void
    let gatewayReadiness: @Sendable () throws -> Void
    let keys: APIKeyring
    let reasonsNeedKey: Bool

    func register(in router: inout Router) {
        let readiness = self.readiness
        let gatewayReadiness = self.gatewayReadiness
        let keys = self.keys
        let reasonsNeedKey = self.reasonsNeedKey
        router.add("GET", "/healthz") { _, _ in
            JSONResponse.make(200, ["status": "ok"], headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/readyz") { request, _ in
            do {
                try readiness()
                if request.query["gateways"] != "false" { try gatewayReadiness() }
                return JSONResponse.make(200, ["status": "ready"], headers: ["Cache-Control": "no-store"])
            } catch {
                let message: String
                if reasonsNeedKey && !keys.allows(request, .metrics, .read) {
                    message = "not ready"
                } else {
                    message = "not ready: " + ((error as? VerifyError)?.message ?? "store unavailable")
                }
                return JSONResponse.error(VerifyError(.unavailable, message), headers: ["Cache-Control": "no-store"])
            }
        }
    }
}
