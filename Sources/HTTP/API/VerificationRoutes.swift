import Foundation
import HTTPMessages
import VerifyCore
import Encoding

/// `/v1/verifications…`: the first-factor phone verification API.
struct VerificationRoutes: RouteCollection {
    let service: VerificationService
    let clock: any Clock

    func register(in router: inout Router) {
        router.add("POST", "/v1/verifications") { try start($0, $1) }
        router.add("GET", "/v1/verifications/{id}") { try get($0, $1) }
        router.add("DELETE", "/v1/verifications/{id}") { try cancel($0, $1) }
        router.add("POST", "/v1/verifications/{id}/resend") { try resend($0, $1) }
        router.add("POST", "/v1/verifications/{id}/check") { try check($0, $1) }
    }

    func start(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let body = try RequestBody(request)
        let (region, locale) = try Self.regionAndLocale(body)
        let idempotencyKey = try Self.idempotencyKey(request)
        let outcome = try service.start(StartRequest(
            phoneNumber: try body.string("phone_number", maxLength: 64),
            defaultRegion: region,
            channel: try body.optionalString("channel", maxLength: 16) ?? "sms",
            locale: locale,
            clientIP: context.clientIP,
            idempotencyKey: idempotencyKey,
            challenge: try ChallengeJSON.parse(body)))
        var headers = HTTPHeaders()
        headers.set("Cache-Control", "no-store")
        headers.set("Location", "/v1/verifications/" + outcome.verification.id)
        if outcome.replayed { headers.set("Idempotent-Replayed", "true") }
        RateLimitHeaders.apply(outcome.rateLimit, to: &headers)
        return JSONResponse.make(201, VerificationJSON.summary(outcome.verification, status: .pending), headers: headers)
    }

    func get(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let view = try service.get(id: try Self.id(context))
        return JSONResponse.make(200, VerificationJSON.detail(view), headers: ["Cache-Control": "no-store"])
    }

    func cancel(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let v = try service.cancel(id: try Self.id(context))
        return JSONResponse.make(200, VerificationJSON.summary(v, status: v.status(at: clock.now())), headers: ["Cache-Control": "no-store"])
    }

    func resend(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let body = try RequestBody(request, allowEmpty: true)
        let outcome = try service.resend(
            id: try Self.id(context), clientIP: context.clientIP, challenge: try ChallengeJSON.parse(body),
            channel: try body.optionalString("channel", maxLength: 16))
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        RateLimitHeaders.apply(outcome.rateLimit, to: &headers)
        let v = outcome.verification
        return JSONResponse.make(200, VerificationJSON.summary(v, status: v.status(at: clock.now())), headers: headers)
    }

    func check(_ request: HTTPRequest, _ context: RouteContext) throws -> HTTPResponse {
        let body = try RequestBody(request)
        let code = try body.string("code", maxLength: 32)
        let approved = try service.checkAndIssue(id: try Self.id(context), code: code, clientIP: context.clientIP)
        var members = VerificationJSON.identity(approved.verification, status: .approved)
        if let credential = approved.credential { members.append(JSONMember("credential", VerificationJSON.credential(credential))) }
        var headers: HTTPHeaders = ["Cache-Control": "no-store"]
        RateLimitHeaders.apply(approved.rateLimit, to: &headers)
        return JSONResponse.make(200, .object(members), headers: headers)
    }

    /// Validated `default_region` (ISO 3166-1 alpha-2, upper-cased) and `locale` (a language tag).
    static func regionAndLocale(_ body: RequestBody) throws -> (String?, String?) {
        // Checked before upper-casing: "ß".uppercased() is "SS" (South Sudan).
        let raw = try body.optionalString("default_region", maxLength: 2)
        if let raw, !(raw.utf8.count == 2 && raw.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) })) {
            throw VerifyError(
                .invalidRequest, "default_region must be an ISO 3166-1 alpha-2 code", details: ["field": "default_region"])
        }
        let region = raw?.uppercased()
        let locale = try body.optionalString("locale", maxLength: 35)
        if let locale, !locale.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == "-" || $0 == "_" }) {
            throw VerifyError(.invalidRequest, "locale must be a language tag such as \"en\" or \"pt-BR\"", details: ["field": "locale"])
        }
        return (region, locale)
    }

    /// A verification id from the path; malformed ids are simply not found.
    static func id(_ context: RouteContext) throws -> String {
        guard let id = context.parameters["id"], id.hasPrefix("ver_"), id.utf8.count <= 64 else {
            throw VerifyError(.notFound, "no verification with this id")
        }
        return id
    }

    static func idempotencyKey(_ request: HTTPRequest) throws -> String? {
        guard let key = request.headers["Idempotency-Key"] else { return nil }
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw VerifyError(
                .invalidRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters",
                details: ["field": "Idempotency-Key"])
        }
        return key
    }
}
