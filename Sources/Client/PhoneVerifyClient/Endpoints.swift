import Foundation

/// One operation of the native API this client calls, with what it reads from the answer. The
/// client builds every request from these values, and the tests check each against
/// docs/openapi.json (method, path, success status, every decoded field).
struct Endpoint: Sendable, Hashable {
    let method: String
    /// The OpenAPI path template (`/v1/verifications/{id}/check`).
    let template: String
    let successStatus: Int
    /// Whether a request whose answer was lost may be sent again without a second effect: safe
    /// methods, DELETEs the server answers the same way twice, and starts with an Idempotency-Key.
    let replayable: Bool
    /// Whether the request carries an Idempotency-Key (generated once per call).
    let keyed: Bool
    /// Dotted paths of the response members decoded (`credential.token`, `factors[].id`).
    let decodedFields: [String]

    /// The path with `{id}` filled in (percent-encoded as a path segment).
    func path(id: String? = nil) -> String {
        guard let id else { return template }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        return template.replacingOccurrences(of: "{id}", with: id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id)
    }
}

extension Endpoint {
    private static func fields<K: CodingKey & CaseIterable>(_: K.Type, prefix: String = "", except: [String] = []) -> [String] {
        K.allCases.map(\.stringValue).filter { !except.contains($0) }.map { prefix + $0 }
    }

    private static let verification = fields(Verification.CodingKeys.self, except: ["purpose", "delivery"])
    private static let credential = ["credential.token", "credential.token_type", "credential.expires_in"]
    private static let factor = fields(Factor.CodingKeys.self, prefix: "factor.")

    static let start = Endpoint(
        method: "POST", template: "/v1/verifications", successStatus: 201, replayable: true, keyed: true, decodedFields: verification)
    static let resend = Endpoint(
        method: "POST", template: "/v1/verifications/{id}/resend", successStatus: 200, replayable: false, keyed: false,
        decodedFields: verification)
    static let check = Endpoint(
        method: "POST", template: "/v1/verifications/{id}/check", successStatus: 200, replayable: false, keyed: false,
        decodedFields: ["id", "status", "phone_number"] + credential)
    static let status = Endpoint(
        method: "GET", template: "/v1/verifications/{id}", successStatus: 200, replayable: true, keyed: false,
        decodedFields: fields(Verification.CodingKeys.self, except: ["purpose"])
            + fields(Delivery.CodingKeys.self, prefix: "delivery."))
    static let cancel = Endpoint(
        method: "DELETE", template: "/v1/verifications/{id}", successStatus: 200, replayable: true, keyed: false,
        decodedFields: verification)
    static let enroll = Endpoint(
        method: "POST", template: "/v1/mfa/enrollments", successStatus: 201, replayable: true, keyed: true,
        decodedFields: fields(Verification.CodingKeys.self, except: ["delivery"]))
    static let confirmEnrollment = Endpoint(
        method: "POST", template: "/v1/mfa/enrollments/{id}/confirm", successStatus: 201, replayable: false, keyed: false,
        decodedFields: factor)
    static let factors = Endpoint(
        method: "GET", template: "/v1/mfa/factors", successStatus: 200, replayable: true, keyed: false,
        decodedFields: fields(Factor.CodingKeys.self, prefix: "factors[]."))
    // A repeated delete answers 404: not replayed, so a lost answer is reported, not turned into
    // a confusing not_found.
    static let deleteFactor = Endpoint(
        method: "DELETE", template: "/v1/mfa/factors/{id}", successStatus: 200, replayable: false, keyed: false,
        decodedFields: factor + ["deleted"])
    static let challenge = Endpoint(
        method: "POST", template: "/v1/mfa/challenges", successStatus: 201, replayable: false, keyed: false,
        decodedFields: fields(MFAChallenge.CodingKeys.self))
    static let verify = Endpoint(
        method: "POST", template: "/v1/mfa/challenges/{id}/verify", successStatus: 200, replayable: false, keyed: false,
        decodedFields: ["id", "status"] + credential)

    /// Every operation the client calls.
    static let all: [Endpoint] = [start, resend, check, status, cancel, enroll, confirmEnrollment, factors, deleteFactor, challenge, verify]

    /// The error envelope's members the client reads (any operation's error answers).
    static let errorFields = ["error.code", "error.message", "error.details"]
}

/// Answers whose shape is not a public model.
struct CheckAnswer: Decodable {
    let id: String
    let status: VerificationStatus
    let phoneNumber: String?
    let credential: CredentialAnswer

    enum CodingKeys: String, CodingKey {
        case id, status, credential
        case phoneNumber = "phone_number"
    }
}

struct CredentialAnswer: Decodable {
    let token: String
    let tokenType: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case token
        case tokenType = "token_type"
        case expiresIn = "expires_in"
    }
}

struct FactorAnswer: Decodable {
    let factor: Factor
    let deleted: Bool?
}

struct FactorListAnswer: Decodable {
    let factors: [Factor]
}
