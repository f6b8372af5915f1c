import HTTPMessages
import VerifyCore

/// Server-to-server administration, behind `Authorization: Bearer KEY` with the route's scope
/// (``APIKeyring``): `fraud` or `factors` to change, those or `read` to list.
struct AdminRoutes: RouteGroup {
    let fraud: FraudAdmin
    let mfa: MFAService?
    let keys: APIKeyring

    func register(in router: inout Router) {
        let fraud = self.fraud
        let keys = self.keys
        router.add("GET", "/v1/admin/fraud") { request, _ in
            try keys.require(request, .fraud, .read)
            let list = try fraud.verdicts().map { stat, verdict -> JSONValue in
                [
                    "key": .string(stat.key), "sent": .int(Int64(stat.sent)), "approved": .int(Int64(stat.approved)),
                    "conversion": stat.conversion.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
                    "override": .optional(stat.action?.rawValue), "refused": .bool(FraudAdmin.isRefused(verdict)),
                    "state": .string(verdict.state.rawValue), "reason": .string(verdict.reason),
                ]
            }
            return JSONResponse.make(200, ["keys": .array(list)], headers: ["Cache-Control": "no-store"])
        }
        router.add("PUT", "/v1/admin/fraud/{key}") { request, context in
            try keys.require(request, .fraud)
            let body = try RequestBody(request)
            guard let action = FraudAction(rawValue: try body.string("action", maxLength: 16)) else {
                throw VerifyError(.invalidRequest, "action must be \"allow\" or \"block\"", details: ["field": "action"])
            }
            let key = context.parameters["key"] ?? ""
            try fraud.setOverride(key: key, action: action)
            return JSONResponse.make(200, ["key": .string(key), "override": .string(action.rawValue)])
        }
        if let mfa {
            // Account recovery by support staff: a user's factors, masked, and their removal.
            router.add("GET", "/v1/admin/users/{subject}/factors") { request, context in
                try keys.require(request, .factors, .read)
                let factors = try mfa.factors(subject: context.parameters["subject"] ?? "")
                return JSONResponse.make(200, ["factors": .array(factors.map(MFARoutes.factorJSON))], headers: ["Cache-Control": "no-store"])
            }
            // Migration from another provider: a phone the user already verified there becomes a
            // factor without a code (docs/MFA.md "Importing factors").
            router.add("POST", "/v1/admin/users/{subject}/factors") { request, context in
                try keys.require(request, .factors)
                let body = try RequestBody(request)
                let factor = try mfa.importFactor(
                    subject: context.parameters["subject"] ?? "", phoneNumber: try body.string("phone_number", maxLength: 64),
                    displayName: try body.optionalString("display_name", maxLength: 256))
                return JSONResponse.make(201, ["factor": MFARoutes.factorJSON(factor)], headers: ["Cache-Control": "no-store"])
            }
            router.add("DELETE", "/v1/admin/users/{subject}/factors/{id}") { request, context in
                try keys.require(request, .factors)
                let factor = try mfa.deleteFactor(subject: context.parameters["subject"] ?? "", id: context.parameters["id"] ?? "")
                return JSONResponse.make(200, ["factor": MFARoutes.factorJSON(factor), "deleted": true], headers: ["Cache-Control": "no-store"])
            }
        }
        router.add("DELETE", "/v1/admin/fraud/{key}") { request, context in
            try keys.require(request, .fraud)
            let key = context.parameters["key"] ?? ""
            try fraud.setOverride(key: key, action: nil)
            return JSONResponse.make(200, ["key": .string(key), "override": .null])
        }
    }
}
