import HTTPTypes
import VerifyCore

/// `/healthz` (the process answers) and `/readyz` (the store answers and a gateway is reachable;
/// with `?gateways=false` the store alone, for load balancers: a vendor outage, the same for every
/// replica, must not take away checks, JWKS and introspection too).
struct HealthRoutes: Sendable {
    let readiness: @Sendable () throws -> Void
    let gatewayReadiness: @Sendable () throws -> Void

    func register(in router: inout Router) {
        let readiness = self.readiness
        let gatewayReadiness = self.gatewayReadiness
        router.add("GET", "/healthz") { _, _ in
            JSONResponse.make(200, ["status": "ok"], headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/readyz") { request, _ in
            do {
                try readiness()
                if request.query["gateways"] != "false" { try gatewayReadiness() }
                return JSONResponse.make(200, ["status": "ready"], headers: ["Cache-Control": "no-store"])
            } catch {
                let reason = (error as? VerifyError)?.message ?? "store unavailable"
                return JSONResponse.error(VerifyError(.unavailable, "not ready: \(reason)"), headers: ["Cache-Control": "no-store"])
            }
        }
    }
}
