import Foundation
import HTTPMessages
import VerifyCore

/// `DELETE /v1/admin/limits/{phone}` (scope `lockouts`, asked by the group's ``ScopeMiddleware``):
/// lifts a number's send quota, every channel's, window's and requester's (docs/ABUSE.md,
/// "Operators lift locks"). The number is E.164 with its `+` percent-encoded (`%2B`), as for
/// `DELETE /v1/admin/lockouts/{phone}`.
struct LimitsRoutes: RouteCollection {
    let admin: LimitsAdmin

    func register(in router: inout Router) {
        let admin = self.admin
        router.add("DELETE", "/v1/admin/limits/{phone}") { _, context in
            let phone = context.parameters["phone"] ?? ""
            let cleared = try admin.clear(phone: phone)
            return JSONResponse.make(200, ["phone_number": .string(phone), "cleared": .int(Int64(cleared))], headers: ["Cache-Control": "no-store"])
        }
    }
}
