import Foundation

/// The signed-in user behind a request, from a verified session token.
public struct Principal: Sendable, Equatable {
    /// The main auth server's user id (`sub`).
    public let subject: String
    /// The session (`sid`), if the token names one.
    public let sessionID: String?
    /// Authentication methods used so far (RFC 8176 `amr`).
    public let authenticationMethods: [String]
    /// When the user last authenticated (`auth_time`), if known.
    public let authTime: Date?
    /// `acr` of the token, if any.
    public let acr: String?
    /// True for PhoneVerify's own step-up credentials (iss = our issuer).
    public let isStepUpCredential: Bool

    public init(
        subject: String, sessionID: String? = nil, authenticationMethods: [String] = [], authTime: Date? = nil,
        acr: String? = nil, isStepUpCredential: Bool = false
    ) {
        self.subject = subject
        self.sessionID = sessionID
        self.authenticationMethods = authenticationMethods
        self.authTime = authTime
        self.acr = acr
        self.isStepUpCredential = isStepUpCredential
    }
}

/// Verifies a bearer token (the main auth server's session token, or PhoneVerify's own step-up
/// credential) and says who it belongs to. Throws `VerifyError(.unauthenticated)` for anything
/// missing, malformed, expired, not yet valid, for another issuer or audience, or wrongly signed.
public protocol SessionVerifier: Sendable {
    func verify(_ token: String) throws -> Principal
}
