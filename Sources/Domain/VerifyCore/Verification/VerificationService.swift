import Foundation

/// What a client asks for when starting a verification.
public struct StartRequest: Sendable {
    public var phoneNumber: String
    public var defaultRegion: String?
    public var channel: String
    public var locale: String?
    public var purpose: Purpose
    public var subject: String?
    public var sessionID: String?
    /// Client identity for limits, the lockout and idempotency: its IP (IPv6: its /64).
    public var clientIP: String
    /// Who the failed-check lockout counts this request against, when not the client or user
    /// (a Twilio-compatible account: its checks carry no device, so its starts must not either).
    public var requester: String?
    public var idempotencyKey: String?
    /// Per-send choices beyond the policy (code length, custom code, names in the text…).
    public var options: SendOptions
    /// Proof that a person or a genuine app asks (docs/CHALLENGES.md); only the native sign-in
    /// API asks for one.
    public var challenge: ChallengeSubmission?

    public init(
        phoneNumber: String, defaultRegion: String? = nil, channel: String = "sms", locale: String? = nil,
        purpose: Purpose = .signIn, subject: String? = nil, sessionID: String? = nil,
        clientIP: String = "", requester: String? = nil, idempotencyKey: String? = nil, options: SendOptions = SendOptions(),
        challenge: ChallengeSubmission? = nil
    ) {
        self.challenge = challenge
        self.requester = requester
        self.options = options
        self.phoneNumber = phoneNumber
        self.defaultRegion = defaultRegion
        self.channel = channel
        self.locale = locale
        self.purpose = purpose
        self.subject = subject
        self.sessionID = sessionID
        self.clientIP = clientIP
        self.idempotencyKey = idempotencyKey
    }
}

/// The answer to a start: the verification and whether it is an idempotent replay.
public struct StartOutcome: Sendable, Equatable {
    public let verification: Verification
    public let replayed: Bool
    /// The limit closest to refusing, for the response's RateLimit fields.
    public let rateLimit: RateLimitReport?
    /// The fraud guard refused the SMS destination and the code went over WhatsApp instead.
    public internal(set) var steered = false
}

/// The answer to a successful check.
public struct ApprovedCheck: Sendable, Equatable {
    public let verification: Verification
    public let credential: Credential?
    public let rateLimit: RateLimitReport?
}

/// The verification lifecycle: start, resend, check, cancel, read. Knows nothing of HTTP,
/// SQL or C; every state change is one store transaction.
public struct VerificationService: Sendable {
    let store: any VerificationStore
    package let parser: any PhoneNumberParser
    let hasher: any CodeHasher
    let sealer: any MessageSealer
    package let random: any RandomSource
    package let clock: any Clock
    let composer: any MessageComposer
    package let notifier: any DeliveryNotifier
    let issuer: CredentialIssuer
    public let policy: VerificationPolicy
    public let protection: AbuseProtection
    /// When proof is asked before an SMS is sent, and who verifies it (docs/CHALLENGES.md).
    public let challenges: ChallengeGate
    public let challengePolicy: ChallengePolicy
    let events: any EventSink
    /// Writes the webhook events of docs/EVENTS.md with the changes; nil when they are off.
    public let eventRecorder: EventRecorder?

    public init(
        store: any VerificationStore, parser: any PhoneNumberParser, hasher: any CodeHasher,
        sealer: any MessageSealer, random: any RandomSource, clock: any Clock, policy: VerificationPolicy,
        composer: any MessageComposer, notifier: any DeliveryNotifier, issuer: CredentialIssuer,
        protection: AbuseProtection = AbuseProtection(), events: any EventSink = NoEvents(),
        challenges: ChallengeGate = .off, challengePolicy: ChallengePolicy = ChallengePolicy(), eventRecorder: EventRecorder? = nil
    ) {
        self.eventRecorder = eventRecorder
        self.challenges = challenges
        self.challengePolicy = challengePolicy
        self.protection = protection
        self.events = events
        self.store = store
        self.parser = parser
        self.hasher = hasher
        self.sealer = sealer
        self.random = random
        self.clock = clock
        self.policy = policy
        self.composer = composer
        self.notifier = notifier
        self.issuer = issuer
    }

    /// A test number as a `PhoneNumber` (its syntax was checked when configured, not its validity).
    func testNumber(_ e164: String, now: Date) throws -> PhoneNumber {
        _ = try protection.testNumbers.code(for: e164, now: now)
        if case .success(let parsed) = parser.parse(e164, defaultRegion: nil) { return parsed }
        return PhoneNumber(e164: e164, region: "ZZ", countryCode: 0, lineType: .unknown, international: e164)
    }

    /// Parses and vets a number against the policy; throws the client-facing refusal.
    /// `lineTypes: false` leaves the line type to the channel plan (`VerificationPolicy.plan`).
    public func vet(_ text: String, defaultRegion: String?, lineTypes: Bool = true) throws -> PhoneNumber {
        switch parser.parse(text, defaultRegion: defaultRegion) {
        case .failure(let problem):
            throw VerifyError(
                .invalidPhoneNumber, "phone_number is not a valid phone number (\(problem.rawValue))",
                details: ["reason": .string(problem.rawValue)])
        case .success(let number):
            if let refusal = policy.refusal(for: number, lineTypes: lineTypes) { throw refusal }
            return number
        }
    }

    /// A sealed outbox message carrying `code` for `verification`.
    func outboxMessage(
        for verification: Verification, code: String, now: Date, options: SendOptions = SendOptions(), channel: Channel = .sms
    ) throws -> OutboxMessage {
        try sealedMessage(for: verification, code: code, now: now, options: options, channel: channel).message
    }

    /// A sealed outbox message and its payload in the clear (for a hand-off from memory).
    func sealedMessage(
        for verification: Verification, code: String, now: Date, options: SendOptions = SendOptions(), channel: Channel = .sms
    ) throws -> (message: OutboxMessage, payload: MessagePayload) {
        let body = composer.body(
            code: code, locale: verification.locale, region: verification.region, purpose: verification.purpose,
            ttlSeconds: policy.codeTTL, appName: options.appName, appHash: options.appHash)
        let payload = MessagePayload(
            body: body, code: code, locale: verification.locale, display: verification.display, region: verification.region)
        let sealed = try sealer.seal(payload.json)
        let message = OutboxMessage(
            id: random.timeOrderedIdentifier(prefix: "msg_", at: now), verificationID: verification.id, to: verification.phoneNumber,
            purpose: verification.purpose, sealedPayload: sealed, createdAt: now, updatedAt: now,
            nextAttemptAt: now, expiresAt: verification.expiresAt, channel: channel)
        return (message, payload)
    }
}
