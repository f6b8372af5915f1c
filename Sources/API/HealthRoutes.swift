import HTTPTypes
import VerifyCore

/// `/healthz` (the process answers) and `/readyz` (the store answers).
struct HealthRoutes: Sendable {
    let readiness: @Sendable () throws -> Void

    func register(in router: inout Router) {
        let readiness = self.readiness
        router.add("GET", "/healthz") { _, _ in
            JSONResponse.make(200, ["status": "ok"], headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/readyz") { _, _ in
            do {
                try readiness()
                return JSONResponse.make(200, ["status": "ready"], headers: ["Cache-Control": "no-store"])
            } catch {
                let reason = (error as? VerifyError)?.message ?? "store unavailable"
                return JSONResponse.error(VerifyError(.unavailable, "not ready: \(reason)"), headers: ["Cache-Control": "no-store"])
            }
        }
    }
}
