import Foundation

/// A phone verification: what `startVerification`, `resend`, `cancel`, `status` and
/// `MultiFactor.enrollPhone` return. Dates are the server's (UTC, whole seconds).
public struct Verification: Codable, Sendable, Hashable {
    /// The verification id (`ver_…`): keep it to check the code, resend or cancel.
    public var id: String
    public var status: VerificationStatus
    /// The number in E.164 (`+14155552671`), as the server normalised it.
    public var phoneNumber: String
    public var channel: Channel
    /// When the code stops working (it moves on each resend).
    public var expiresAt: Date
    /// When `resend` is allowed again: the end of a countdown the app can show.
    public var resendAvailableAt: Date
    /// Checks left before the verification is locked (`maxAttemptsReached`).
    public var attemptsRemaining: Int
    /// Further codes that may still be sent with `resend`.
    public var sendsRemaining: Int
    /// How many digits the code has (for the input field).
    public var codeLength: Int
    public var createdAt: Date
    /// `mfa_enroll` for an MFA enrolment; nil for a first-factor verification.
    public var purpose: String?
    /// The latest message's delivery (only `status` returns it; nil before any message exists).
    public var delivery: Delivery?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, status, channel, purpose, delivery
        case phoneNumber = "phone_number"
        case expiresAt = "expires_at"
        case resendAvailableAt = "resend_available_at"
        case attemptsRemaining = "attempts_remaining"
        case sendsRemaining = "sends_remaining"
        case codeLength = "code_length"
        case createdAt = "created_at"
    }

    /// A verification as the server describes it (for previews and tests; calls return them).
    public init(
        id: String, status: VerificationStatus = .pending, phoneNumber: String, channel: Channel = .sms, expiresAt: Date,
        resendAvailableAt: Date, attemptsRemaining: Int, sendsRemaining: Int, codeLength: Int, createdAt: Date,
        purpose: String? = nil, delivery: Delivery? = nil
    ) {
        self.id = id
        self.status = status
        self.phoneNumber = phoneNumber
        self.channel = channel
        self.expiresAt = expiresAt
        self.resendAvailableAt = resendAvailableAt
        self.attemptsRemaining = attemptsRemaining
        self.sendsRemaining = sendsRemaining
        self.codeLength = codeLength
        self.createdAt = createdAt
        self.purpose = purpose
        self.delivery = delivery
    }

    /// Seconds until `resend` is allowed (0 when it is), for a countdown.
    public func secondsUntilResend(now: Date = Date()) -> Int {
        max(0, Int(resendAvailableAt.timeIntervalSince(now).rounded(.up)))
    }

    /// Whether the code's lifetime is over at `now`.
    public func isExpired(now: Date = Date()) -> Bool { now >= expiresAt }

    /// The state to keep (UserDefaults, a file) so the app can continue after a restart.
    public var pending: PendingVerification {
        PendingVerification(
            verificationID: id, phoneNumber: phoneNumber, expiresAt: expiresAt, resendAvailableAt: resendAvailableAt,
            codeLength: codeLength, attemptsRemaining: attemptsRemaining, sendsRemaining: sendsRemaining)
    }
}

/// A verification in progress, as an app keeps it across a restart (Firebase keeps its
/// verification id the same way). Codable: store it as JSON; restore it with
/// `PhoneVerifyClient.resume(_:)`, which asks the server where it stands.
public struct PendingVerification: Codable, Sendable, Hashable {
    public var verificationID: String
    public var phoneNumber: String
    public var expiresAt: Date
    public var resendAvailableAt: Date
    public var codeLength: Int
    public var attemptsRemaining: Int
    public var sendsRemaining: Int

    public init(
        verificationID: String, phoneNumber: String, expiresAt: Date, resendAvailableAt: Date, codeLength: Int,
        attemptsRemaining: Int, sendsRemaining: Int
    ) {
        self.verificationID = verificationID
        self.phoneNumber = phoneNumber
        self.expiresAt = expiresAt
        self.resendAvailableAt = resendAvailableAt
        self.codeLength = codeLength
        self.attemptsRemaining = attemptsRemaining
        self.sendsRemaining = sendsRemaining
    }

    /// Whether the code's lifetime is over: then there is nothing to resume, start again.
    public func isExpired(now: Date = Date()) -> Bool { now >= expiresAt }

    /// JSON for storage (dates as ISO 8601).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }

    /// Reads what `encoded()` wrote.
    public init(encoded data: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        self = try decoder.decode(PendingVerification.self, from: data)
    }
}

/// A phone factor of a signed-in user (numbers are only ever shown masked).
public struct Factor: Codable, Sendable, Hashable {
    /// `fac_…`
    public var id: String
    /// `+1*******2671`
    public var phoneNumberHint: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// The name the user knows the phone by ("Work phone"), e.g. kept from Firebase when the
    /// factor was imported; nil when none was given. Show it beside `phoneNumberHint`.
    public var displayName: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case phoneNumberHint = "phone_number_hint"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case displayName = "display_name"
    }
}

/// A step-up challenge sent to an enrolled phone (`MultiFactor.challenge(factorID:)`).
public struct MFAChallenge: Codable, Sendable, Hashable {
    /// The challenge id (`ver_…`): pass it to `MultiFactor.verify(challengeID:code:)`.
    public var id: String
    public var status: VerificationStatus
    public var factorID: String
    public var phoneNumberHint: String
    public var channel: Channel
    public var expiresAt: Date
    public var resendAvailableAt: Date
    public var attemptsRemaining: Int
    public var sendsRemaining: Int
    public var codeLength: Int
    public var createdAt: Date

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, status, channel
        case factorID = "factor_id"
        case phoneNumberHint = "phone_number_hint"
        case expiresAt = "expires_at"
        case resendAvailableAt = "resend_available_at"
        case attemptsRemaining = "attempts_remaining"
        case sendsRemaining = "sends_remaining"
        case codeLength = "code_length"
        case createdAt = "created_at"
    }
}

/// A challenge provider the server offers in `challenge_required` (`details.providers`): its
/// name (`turnstile`, `hcaptcha`, `recaptcha`, `app_attest`, `play_integrity`, `grant`) and its
/// public parameters (`site_key`, `action`, `version`, … — never a secret).
public struct ChallengeProviderInfo: Codable, Sendable, Hashable {
    public var name: String
    public var parameters: [String: String]

    public init(name: String, parameters: [String: String] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The widget's site key (captchas).
    public var siteKey: String? { parameters["site_key"] }
    /// The action a captcha must be solved for, when the server names one.
    public var action: String? { parameters["action"] }
}

/// A solved challenge, sent as `"challenge": {"provider", "token", …}` with a start or resend.
public struct ChallengeToken: Codable, Sendable, Hashable {
    public var provider: String
    public var token: String
    /// App Attest: the attested key's id.
    public var keyID: String?
    /// App Attest: base64url of the client data the assertion signs.
    public var clientData: String?
    /// Play Integrity: the app's package name, when the server knows several.
    public var packageName: String?

    public init(provider: String, token: String, keyID: String? = nil, clientData: String? = nil, packageName: String? = nil) {
        self.provider = provider
        self.token = token
        self.keyID = keyID
        self.clientData = clientData
        self.packageName = packageName
    }

    enum CodingKeys: String, CodingKey {
        case provider, token
        case keyID = "key_id"
        case clientData = "client_data"
        case packageName = "package_name"
    }
}

/// Called when the server answers `challenge_required`: produce a token for one of the offered
/// providers (show a captcha, ask App Attest or your backend), or return nil to give up (the call
/// then throws `PhoneVerifyError.challengeRequired`).
public typealias ChallengeProvider = @Sendable ([ChallengeProviderInfo]) async throws -> ChallengeToken?
