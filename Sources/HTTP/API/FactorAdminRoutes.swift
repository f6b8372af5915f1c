import HTTPMessages
import VerifyCore

/// Account recovery and migration by support staff (`/v1/admin/users/{subject}/factors`): a
/// user's factors, masked, their removal, and the import of a phone the user already verified
/// elsewhere. The group's ``ScopeMiddleware`` asks for `factors` (or `read` to list).
struct FactorAdminRoutes: RouteCollection {
    let mfa: MFAService

    func register(in router: inout Router) {
        let mfa = self.mfa
        router.add("GET", "/v1/admin/users/{subject}/factors") { _, context in
            let factors = try mfa.factors(subject: context.parameters["subject"] ?? "")
            return JSONResponse.make(200, ["factors": .array(factors.map(MFARoutes.factorJSON))], headers: ["Cache-Control": "no-store"])
        }
        // Migration from another provider: a phone the user already verified there becomes a
        // factor without a code (docs/MFA.md "Importing factors").
        router.add("POST", "/v1/admin/users/{subject}/factors") { request, context in
            let body = try RequestBody(request)
            let factor = try mfa.importFactor(
                subject: context.parameters["subject"] ?? "", phoneNumber: try body.string("phone_number", maxLength: 64),
                displayName: try body.optionalString("display_name", maxLength: 256))
            return JSONResponse.make(201, ["factor": MFARoutes.factorJSON(factor)], headers: ["Cache-Control": "no-store"])
        }
        router.add("DELETE", "/v1/admin/users/{subject}/factors/{id}") { _, context in
            let factor = try mfa.deleteFactor(subject: context.parameters["subject"] ?? "", id: context.parameters["id"] ?? "")
            return JSONResponse.make(200, ["factor": MFARoutes.factorJSON(factor), "deleted": true], headers: ["Cache-Control": "no-store"])
        }
    }
}
