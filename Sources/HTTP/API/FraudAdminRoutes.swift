import HTTPMessages
import VerifyCore

/// The fraud guard's administration (`/v1/admin/fraud`): its verdicts, and an operator's allow or
/// block of a key. The group's ``ScopeMiddleware`` asks for `fraud` (or `read` to list).
struct FraudAdminRoutes: RouteCollection {
    let fraud: FraudAdmin

    func register(in router: inout Router) {
        let fraud = self.fraud
        router.add("GET", "/v1/admin/fraud") { _, _ in
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
            let body = try RequestBody(request)
            guard let action = FraudAction(rawValue: try body.string("action", maxLength: 16)) else {
                throw VerifyError(.invalidRequest, "action must be \"allow\" or \"block\"", details: ["field": "action"])
            }
            let key = context.parameters["key"] ?? ""
            try fraud.setOverride(key: key, action: action)
            return JSONResponse.make(200, ["key": .string(key), "override": .string(action.rawValue)])
        }
        router.add("DELETE", "/v1/admin/fraud/{key}") { _, context in
            let key = context.parameters["key"] ?? ""
            try fraud.setOverride(key: key, action: nil)
            return JSONResponse.make(200, ["key": .string(key), "override": .null])
        }
    }
}
