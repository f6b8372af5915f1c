import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client of a PhoneVerify server's native API (docs/API.md, docs/MFA.md) for apps: phone
/// sign-in (start, check, resend, cancel, status), and the phone as a second factor of the app's
/// own accounts (`multiFactor(sessionToken:)`). Every call is `async` and throws
/// `PhoneVerifyError`, with two exceptions: `CancellationError` when the calling task is
/// cancelled, and whatever the app's own `challengeProvider` throws, passed through unchanged
/// (docs/CLIENT.md, "Errors").
///
/// ```swift
/// let client = PhoneVerifyClient(baseURL: URL(string: "https://verify.example.com")!)
/// let verification = try await client.startVerification(phoneNumber: "+14155552671")
/// let credential = try await client.check(verificationID: verification.id, code: "123456")
/// // send credential.token to your backend, which verifies it through the JWKS
/// ```
public final class PhoneVerifyClient: Sendable {
    /// The server's base URL (`https://verify.example.com`).
    public let baseURL: URL
    public let configuration: Configuration
    let session: URLSession

    /// - Parameters:
    ///   - session: the URLSession to use; by default an ephemeral one (no cookies, no cache)
    ///     with `configuration.requestTimeout`.
    public init(baseURL: URL, configuration: Configuration = Configuration(), session: URLSession? = nil) {
        self.baseURL = baseURL
        self.configuration = configuration
        if let session {
            self.session = session
        } else {
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
            sessionConfiguration.timeoutIntervalForResource = configuration.requestTimeout
            sessionConfiguration.httpCookieStorage = nil
            sessionConfiguration.urlCache = nil
            self.session = URLSession(configuration: sessionConfiguration)
        }
    }

    // MARK: Phone sign-in

    /// Sends a code to `phoneNumber` (`POST /v1/verifications`).
    ///
    /// Sent with an `Idempotency-Key` (yours, or a new UUID): a retry after a lost answer gets
    /// the same verification back and sends no second SMS. When the server answers
    /// `challenge_required` and no `challenge` was given, `configuration.challengeProvider` is
    /// asked for a token and the start is sent once more with it and the same key.
    /// - Parameters:
    ///   - phoneNumber: E.164 (`+14155552671`), or national format with `defaultRegion`.
    ///   - defaultRegion: ISO 3166-1 alpha-2 (`US`) for national numbers.
    ///   - locale: a language tag (`en`, `pt-BR`) for the message text.
    public func startVerification(
        phoneNumber: String, defaultRegion: String? = nil, locale: String? = nil, channel: Channel = .sms,
        challenge: ChallengeToken? = nil, idempotencyKey: String? = nil
    ) async throws -> Verification {
        var fields: [String: Any] = ["phone_number": phoneNumber, "channel": channel.rawValue]
        if let defaultRegion { fields["default_region"] = defaultRegion }
        if let locale { fields["locale"] = locale }
        let body = fields
        let key = idempotencyKey ?? configuration.makeIdempotencyKey()
        let data = try await withChallenge(given: challenge) { token in
            var request = body
            if let token { request["challenge"] = Self.challengeJSON(token) }
            return try await self.send(.start, body: request, idempotencyKey: key)
        }
        return try decode(Verification.self, data)
    }

    /// Checks a code (`POST /v1/verifications/{id}/check`) and returns the credential.
    /// Never retried after a lost answer (the check may have counted).
    public func check(verificationID: String, code: String) async throws -> PhoneCredential {
        let data = try await send(.check, id: verificationID, body: ["code": code])
        let answer = try decode(CheckAnswer.self, data)
        return try PhoneCredential(
            token: answer.credential.token, tokenType: answer.credential.tokenType, expiresIn: answer.credential.expiresIn,
            verificationID: answer.id)
    }

    /// Sends a new code (`POST /v1/verifications/{id}/resend`); the previous code stops working.
    /// Allowed from `Verification.resendAvailableAt` (else `resendTooSoon`). Uses the challenge
    /// hook like `startVerification`.
    /// `channel` switches channel for this send ("I did not get a WhatsApp message: call me").
    public func resend(verificationID: String, channel: Channel? = nil, challenge: ChallengeToken? = nil) async throws -> Verification {
        let data = try await withChallenge(given: challenge) { token in
            var body: [String: Any] = token.map { ["challenge": Self.challengeJSON($0)] } ?? [:]
            if let channel { body["channel"] = channel.rawValue }
            return try await self.send(.resend, id: verificationID, body: body)
        }
        return try decode(Verification.self, data)
    }

    /// Cancels a verification (`DELETE /v1/verifications/{id}`): its code stops working and a
    /// message not sent yet is dropped. Canceling twice is fine; an approved one is `alreadyUsed`.
    @discardableResult
    public func cancel(verificationID: String) async throws -> Verification {
        try decode(Verification.self, try await send(.cancel, id: verificationID))
    }

    /// Where a verification stands, with its latest message's delivery (`GET /v1/verifications/{id}`).
    public func status(verificationID: String) async throws -> Verification {
        try decode(Verification.self, try await send(.status, id: verificationID))
    }

    /// Continues a verification kept across an app restart: asks the server where it stands and
    /// returns it while a code can still be entered; throws `expired`, `alreadyUsed` or
    /// `maxAttemptsReached` when it is over (start a new one then).
    public func resume(_ pending: PendingVerification) async throws -> Verification {
        let current = try await status(verificationID: pending.verificationID)
        switch current.status {
        case .pending: return current
        case .expired: throw PhoneVerifyError.expired
        case .approved, .canceled: throw PhoneVerifyError.alreadyUsed
        case .maxAttemptsReached: throw PhoneVerifyError.maxAttemptsReached
        // A state a newer server added: the app sees it in `status` and decides; a check of a
        // verification that is over throws its own typed error.
        case .unknown: return current
        }
    }

    // MARK: MFA

    /// The phone second factor of a user signed in to the app's own auth server, whose session
    /// token PhoneVerify trusts (docs/MFA.md).
    public func multiFactor(sessionToken: String) -> MultiFactor {
        MultiFactor(client: self, sessionToken: sessionToken)
    }

    // MARK: Helpers

    /// Runs `attempt` with the given token; on `challenge_required` without one, asks the hook
    /// and runs it once more with its token.
    private func withChallenge(given: ChallengeToken?, _ attempt: (ChallengeToken?) async throws -> Data) async throws -> Data {
        do {
            return try await attempt(given)
        } catch PhoneVerifyError.challengeRequired(let providers) where given == nil {
            guard let hook = configuration.challengeProvider, let token = try await hook(providers) else {
                throw PhoneVerifyError.challengeRequired(providers: providers)
            }
            return try await attempt(token)
        }
    }

    static func challengeJSON(_ token: ChallengeToken) -> [String: String] {
        var json = ["provider": token.provider, "token": token.token]
        if let keyID = token.keyID { json["key_id"] = keyID }
        if let clientData = token.clientData { json["client_data"] = clientData }
        if let packageName = token.packageName { json["package_name"] = packageName }
        return json
    }
}

/// MFA calls with the user's session token (`Authorization: Bearer`), from
/// `PhoneVerifyClient.multiFactor(sessionToken:)`.
public struct MultiFactor: Sendable {
    public let client: PhoneVerifyClient
    /// The app's session token (a JWT of the main auth server).
    public let sessionToken: String

    /// Sends a code to a new phone (`POST /v1/mfa/enrollments`, with an Idempotency-Key). When
    /// the user already has a factor, pass a recent step-up credential (`verify`), else
    /// `stepUpRequired`. Confirm with `confirmEnrollment(enrollmentID: verification.id, …)`.
    public func enrollPhone(
        _ phoneNumber: String, defaultRegion: String? = nil, locale: String? = nil, stepUp: PhoneCredential? = nil,
        idempotencyKey: String? = nil
    ) async throws -> Verification {
        var body: [String: Any] = ["phone_number": phoneNumber]
        if let defaultRegion { body["default_region"] = defaultRegion }
        if let locale { body["locale"] = locale }
        let key = idempotencyKey ?? client.configuration.makeIdempotencyKey()
        let data = try await client.send(.enroll, body: body, bearer: bearer(stepUp), idempotencyKey: key)
        return try client.decode(Verification.self, data)
    }

    /// Confirms an enrolment with the code the new phone received: the phone becomes a factor.
    /// `displayName`: what the user calls this phone ("Work phone", at most 64 characters), shown
    /// in `factors()` beside the masked number (Firebase's `enroll(with:displayName:)`).
    public func confirmEnrollment(
        enrollmentID: String, code: String, displayName: String? = nil, stepUp: PhoneCredential? = nil
    ) async throws -> Factor {
        var body = ["code": code]
        if let displayName { body["display_name"] = displayName }
        let data = try await client.send(.confirmEnrollment, id: enrollmentID, body: body, bearer: bearer(stepUp))
        return try client.decode(FactorAnswer.self, data).factor
    }

    /// The user's factors (masked numbers).
    public func factors() async throws -> [Factor] {
        try client.decode(FactorListAnswer.self, try await client.send(.factors, bearer: sessionToken)).factors
    }

    /// Sends a step-up code to an enrolled phone (`POST /v1/mfa/challenges`).
    public func challenge(factorID: String, locale: String? = nil) async throws -> MFAChallenge {
        var body: [String: Any] = ["factor_id": factorID]
        if let locale { body["locale"] = locale }
        return try client.decode(MFAChallenge.self, try await client.send(.challenge, body: body, bearer: sessionToken))
    }

    /// Verifies a challenge's code and returns the step-up credential (`acr` `aal2`) for the
    /// app's backend, which checks it like any PhoneVerify credential (RFC 9470 step-up).
    public func verify(challengeID: String, code: String) async throws -> PhoneCredential {
        let data = try await client.send(.verify, id: challengeID, body: ["code": code], bearer: sessionToken)
        let answer = try client.decode(CheckAnswer.self, data)
        return try PhoneCredential(
            token: answer.credential.token, tokenType: answer.credential.tokenType, expiresIn: answer.credential.expiresIn,
            verificationID: answer.id)
    }

    /// Removes a factor; needs a recent step-up (`stepUpRequired` otherwise): pass the credential
    /// `verify` returned.
    @discardableResult
    public func deleteFactor(_ factorID: String, stepUp: PhoneCredential? = nil) async throws -> Factor {
        try client.decode(FactorAnswer.self, try await client.send(.deleteFactor, id: factorID, bearer: bearer(stepUp))).factor
    }

    private func bearer(_ stepUp: PhoneCredential?) -> String { stepUp?.token ?? sessionToken }
}
