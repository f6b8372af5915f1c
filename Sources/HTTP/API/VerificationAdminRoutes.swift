import HTTPMessages
import VerifyCore

/// `GET /v1/admin/verifications?phone_number=+…[&limit=N]`: a number's recent verifications with
/// their status and delivery state, for support ("I never got my code"). Scope `read` (the
/// group's ``ScopeMiddleware``); codes are never shown (only their hashes exist). `keys` only
/// decides whether pending ids are shown.
struct VerificationAdminRoutes: RouteCollection {
    let admin: VerificationAdmin
    let keys: APIKeyring

    func register(in router: inout Router) {
        let admin = self.admin
        let keys = self.keys
        router.add("GET", "/v1/admin/verifications") { request, _ in
            // A literal "+" in a query string may arrive as a space.
            guard let raw = request.query["phone_number"], !raw.isEmpty else {
                throw VerifyError(.invalidRequest, "phone_number is required", details: ["field": "phone_number"])
            }
            let phone = raw.hasPrefix(" ") ? "+" + raw.dropFirst() : raw
            var limit = 20
            if let text = request.query["limit"] {
                guard let value = Int(text), text.count <= 4 else {
                    throw VerifyError(.invalidRequest, "limit must be 1–\(VerificationAdmin.maxLimit)", details: ["field": "limit"])
                }
                limit = value
            }
            let pendingIDs = keys.allows(request, .lockouts)
            let list = try admin.list(phone: phone, limit: limit).map { view -> JSONValue in
                guard case .object(var members) = VerificationJSON.detail(view) else { return .null }
                // A pending verification's id lets anyone cancel it (DELETE /v1/verifications/{id}
                // takes no key): listings show it only once the verification has ended, or to a
                // key an operator trusts to lift locks (`lockouts`; admin keys hold every scope).
                if view.status == .pending, !pendingIDs { members = members.map { $0.key == "id" ? JSONMember("id", .null) : $0 } }
                members.append(JSONMember("purpose", .string(view.verification.purpose.rawValue)))
                members.append(JSONMember("sends", .int(Int64(view.verification.sends))))
                return .object(members)
            }
            return JSONResponse.make(200, ["verifications": .array(list)], headers: ["Cache-Control": "no-store"])
        }
    }
}
