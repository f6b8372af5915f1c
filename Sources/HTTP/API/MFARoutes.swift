import HTTPMessages
import VerifyCore

/// `/v1/mfa/…`: the phone second factor for users of the main auth server. Every route needs
/// `Authorization: Bearer <session token>`.
struct MFARoutes: RouteCollection {
    let mfa: MFAService
    let sessions: any SessionVerifier
    let clock: any Clock

    func register(in router: inout Router) {
        router.add("POST", "/v1/mfa/enrollments") { try enroll($0, $1) }
        router.add("POST", "/v1/mfa/enrollments/{id}/confirm") { try confirm($0, $1) }
        router.add("GET", "/v1/mfa/factors") { request, _ in
            let factors = try mfa.factors(try principal(request))
            return JSONResponse.make(200, ["factors": .array(factors.map(Self.factorJSON))], headers: ["Cache-Control": "no-store"])
        }
        router.add("DELETE", "/v1/mfa/factors/{id}") { request, context in
            let factor = try mfa.deleteFactor(try principal(request), id: context.parameters["id"] ?? "")
            return JSONResponse.make(200, ["factor": Self.factorJSON(factor), "deleted": true], headers: ["Cache-Control": "no-store"])
        }
        router.add("POST", "/v1/mfa/challenges") { try challenge($0, $1) }
        router.add("POST", "/v1/mfa/challenges/{id}/verify") { try verify($0, $1) }
    }

    /// The verified caller, or 401.
    func principal(_ request: HTTPRequest) throws -> Principal {
        guard let header = request.headers["Authorization"], header.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else {
            throw JSONResponse.noCredentials("a bearer token from the main auth server is required")
        }
        return try sessions.verify(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
    }

    func enroll(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let user = try principal(request)
        let body = try RequestBody(request)
        let (region, locale) = try VerificationRoutes.regionAndLocale(body)
        let outcome = try mfa.enroll(
            user, phoneNumber: try body.string("phone_number", maxLength: 64), defaultRegion: region,
            locale: locale, clientIP: context.clientIP,
            idempotencyKey: try VerificationRoutes.idempotencyKey(request))
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        RateLimitHeaders.apply(outcome.rateLimit, to: &headers)
        return JSONResponse.make(201, Self.withPurpose(VerificationJSON.summary(outcome.verification, status: .pending), .mfaEnroll), headers: headers)
    }

    func confirm(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let user = try principal(request)
        let body = try RequestBody(request)
        let code = try body.string("code", maxLength: 32)
        let factor = try mfa.confirm(
            user, enrollmentID: try VerificationRoutes.id(context), code: code, clientIP: context.clientIP,
            displayName: try body.optionalString("display_name", maxLength: 256))
        return JSONResponse.make(201, ["factor": Self.factorJSON(factor)], headers: ["Cache-Control": "no-store"])
    }

    func challenge(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let user = try principal(request)
        let body = try RequestBody(request)
        let (outcome, factor) = try mfa.challenge(
            user, factorID: try body.string("factor_id", maxLength: 64), locale: try body.optionalString("locale", maxLength: 35),
            clientIP: context.clientIP)
        guard case .object(var members) = VerificationJSON.summary(outcome.verification, status: .pending) else { return HTTPResponse(status: 500) }
        // The enrolled number is never echoed in full.
        members.removeAll { $0.key == "phone_number" }
        members.insert(JSONMember("purpose", .string(Purpose.mfaStepUp.rawValue)), at: 2)
        members.insert(JSONMember("factor_id", .string(factor.id)), at: 3)
        members.insert(JSONMember("phone_number_hint", .string(factor.phoneNumberHint)), at: 4)
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        RateLimitHeaders.apply(outcome.rateLimit, to: &headers)
        return JSONResponse.make(201, .object(members), headers: headers)
    }

    func verify(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let user = try principal(request)
        let code = try RequestBody(request).string("code", maxLength: 32)
        let approved = try mfa.verify(user, challengeID: try VerificationRoutes.id(context), code: code, clientIP: context.clientIP)
        var members: [JSONMember] = [JSONMember("id", .string(approved.verification.id)), JSONMember("status", "approved")]
        if let credential = approved.credential { members.append(JSONMember("credential", VerificationJSON.credential(credential))) }
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        RateLimitHeaders.apply(approved.rateLimit, to: &headers)
        return JSONResponse.make(200, .object(members), headers: headers)
    }

    static func factorJSON(_ factor: Factor) -> JSONValue {
        [
            "id": .string(factor.id), "phone_number_hint": .string(factor.phoneNumberHint),
            "created_at": .string(RFC3339.format(factor.createdAt)),
            "last_used_at": factor.lastUsedAt.map { .string(RFC3339.format($0)) } ?? .null,
            "display_name": .optional(factor.displayName),
        ]
    }

    static func withPurpose(_ value: JSONValue, _ purpose: Purpose) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members.insert(JSONMember("purpose", .string(purpose.rawValue)), at: 2)
        return .object(members)
    }
}
