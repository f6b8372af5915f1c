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
    /// Client identity (IP) and its `Idempotency-Key`, scoping idempotent replays.
    public var clientIP: String
    public var idempotencyKey: String?

    public init(
        phoneNumber: String, defaultRegion: String? = nil, channel: String = "sms", locale: String? = nil,
        purpose: Purpose = .signIn, subject: String? = nil, sessionID: String? = nil,
        clientIP: String = "", idempotencyKey: String? = nil
    ) {
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
}

/// The answer to a successful check.
public struct ApprovedCheck: Sendable, Equatable {
    public let verification: Verification
    public let credential: Credential?
}

/// The verification lifecycle: start, resend, check, cancel, read. Knows nothing of HTTP,
/// SQL or C; every state change is one store transaction.
public struct VerificationService: Sendable {
    let store: any VerificationStore
    let parser: any PhoneNumberParser
    let hasher: any CodeHasher
    let sealer: any MessageSealer
    let random: any RandomSource
    let clock: any Clock
    let composer: any MessageComposer
    let notifier: any DeliveryNotifier
    let issuer: CredentialIssuer
    public let policy: VerificationPolicy

    public init(
        store: any VerificationStore, parser: any PhoneNumberParser, hasher: any CodeHasher,
        sealer: any MessageSealer, random: any RandomSource, clock: any Clock, policy: VerificationPolicy,
        composer: any MessageComposer, notifier: any DeliveryNotifier, issuer: CredentialIssuer
    ) {
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

    /// Parses and vets a number against the policy; throws the client-facing refusal.
    public func vet(_ text: String, defaultRegion: String?) throws -> PhoneNumber {
        switch parser.parse(text, defaultRegion: defaultRegion) {
        case .failure(let problem):
            throw VerifyError(
                .invalidPhoneNumber, "phone_number is not a valid phone number (\(problem.rawValue))",
                details: ["reason": .string(problem.rawValue)])
        case .success(let number):
            if let refusal = policy.refusal(for: number) { throw refusal }
            return number
        }
    }

    /// Starts a verification and queues its first message, in one transaction.
    public func start(_ request: StartRequest) throws -> StartOutcome {
        guard request.channel == "sms" else {
            throw VerifyError(.invalidRequest, "channel must be \"sms\"", details: ["field": "channel"])
        }
        let number = try vet(request.phoneNumber, defaultRegion: request.defaultRegion)
        let now = clock.now()
        let id = random.identifier(prefix: "ver_")
        let code = CodeGenerator(length: policy.codeLength, random: random).next()
        let verification = Verification(
            id: id, phoneNumber: number.e164, display: number.international, region: number.region, countryCode: number.countryCode,
            channel: request.channel, locale: request.locale, purpose: request.purpose,
            subject: request.subject, sessionID: request.sessionID,
            codeHash: hasher.hash(code: code, verificationID: id), codeLength: policy.codeLength,
            maxAttempts: policy.maxAttempts, maxSends: policy.maxSends, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(policy.codeTTL)), lastSentAt: now,
            resendAvailableAt: now.addingTimeInterval(TimeInterval(policy.cooldown(afterSends: 1))))
        let message = try outboxMessage(for: verification, code: code, now: now)
        let fingerprint = [number.e164, request.channel, request.locale ?? "", request.purpose.rawValue,
                           request.subject ?? ""].joined(separator: "|")
        let scopedKey = request.idempotencyKey.map { request.clientIP + "|" + $0 }
        let notBefore = now.addingTimeInterval(-TimeInterval(policy.idempotencyWindow))
        let outcome = try store.write { tx -> StartOutcome in
            if let scopedKey, let record = try tx.idempotencyRecord(key: scopedKey, notBefore: notBefore) {
                guard record.fingerprint == fingerprint else {
                    throw VerifyError(
                        .idempotencyKeyReused, "this Idempotency-Key was used for a different request",
                        details: ["verification_id": .string(record.verificationID)])
                }
                return StartOutcome(verification: record.snapshot, replayed: true)
            }
            try tx.insert(verification)
            try tx.enqueue(message)
            if let scopedKey {
                try tx.saveIdempotencyRecord(IdempotencyRecord(
                    key: scopedKey, fingerprint: fingerprint, verificationID: id, snapshot: verification,
                    createdAt: now))
            }
            return StartOutcome(verification: verification, replayed: false)
        }
        if !outcome.replayed { notifier.messagesQueued() }
        return outcome
    }

    /// A sealed outbox message carrying `code` for `verification`.
    func outboxMessage(for verification: Verification, code: String, now: Date) throws
        -> OutboxMessage
    {
        let body = composer.body(
            code: code, locale: verification.locale, region: verification.region, purpose: verification.purpose,
            ttlSeconds: policy.codeTTL)
        let payload = MessagePayload(body: body, code: code, locale: verification.locale, display: verification.display)
        let sealed = try sealer.seal(Array(try JSONEncoder().encode(payload)))
        return OutboxMessage(
            id: random.identifier(prefix: "msg_"), verificationID: verification.id, to: verification.phoneNumber,
            purpose: verification.purpose, sealedPayload: sealed, createdAt: now, updatedAt: now,
            nextAttemptAt: now, expiresAt: verification.expiresAt)
    }
}
