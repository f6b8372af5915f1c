import Foundation
import HTTPMessages
import VerifyCore

/// Operators' view of failed-check lockouts (docs/ABUSE.md, "Failed checks"): who is waiting on
/// which number, and lifting every lockout of a number. Behind an API key with the `lockouts`
/// scope (`read` may list), asked by the group's ``ScopeMiddleware``.
struct LockoutRoutes: RouteCollection {
    let admin: LockoutAdmin

    func register(in router: inout Router) {
        let admin = self.admin
        router.add("GET", "/v1/admin/lockouts") { request, _ in
            // A literal "+" in a query string may arrive as a space.
            let phone = request.query["phone_number"].map { $0.hasPrefix(" ") ? "+" + $0.dropFirst() : $0 }
            let list = try admin.list(phone: phone).map { lockout -> JSONValue in
                [
                    "phone_number": .string(lockout.phoneNumber), "requester": .string(lockout.requester),
                    "failures": .int(Int64(lockout.failures)),
                    "locked_until": lockout.lockedUntil.map { .string(RFC3339.format($0)) } ?? .null,
                ]
            }
            return JSONResponse.make(200, ["lockouts": .array(list)], headers: ["Cache-Control": "no-store"])
        }
        router.add("DELETE", "/v1/admin/lockouts/{phone}") { _, context in
            let phone = context.parameters["phone"] ?? ""
            let cleared = try admin.clear(phone: phone)
            return JSONResponse.make(200, ["phone_number": .string(phone), "cleared": .int(Int64(cleared))], headers: ["Cache-Control": "no-store"])
        }
    }
}
