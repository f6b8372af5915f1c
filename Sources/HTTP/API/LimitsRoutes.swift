import Foundation
import HTTPMessages
import VerifyCore

/// `DELETE /v1/admin/limits/{phone}` (scope `lockouts`): lifts a number's send quota, every
/// channel's, window's and requester's (docs/ABUSE.md, "Operators lift locks"). The number is
/// E.164 with its `+` percent-encoded (`%2B`), as for `DELETE /v1/admin/lockouts/{phone}`.
struct LimitsRoutes: RouteGroup {
    let admin: LimitsAdmin
    let keys: APIKeyring

    func register(in router: inout Router) {
        let admin = self.admin
        let keys = self.keys
        router.add("DELETE", "/v1/admin/limits/{phone}") { request, context in
            try keys.require(request, .lockouts)
            let phone = context.parameters["phone"] ?? ""
            let cleared = try admin.clear(phone: phone)
            return JSONResponse.make(200, ["phone_number": .string(phone), "cleared": .int(Int64(cleared))], headers: ["Cache-Control": "no-store"])
        }
    }
}
