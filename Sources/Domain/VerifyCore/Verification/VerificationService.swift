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

    /// Starts a verification and queues its first message, in one transaction with its limits.
    /// `onStarted` runs inside that transaction after the verification is inserted (not for an
    /// idempotent replay), e.g. to link it to another record; its error undoes the start.
    public func start(
        _ request: StartRequest, onStarted: (@Sendable (Verification, any StoreTransaction) throws -> Void)? = nil
    ) throws -> StartOutcome {
        let now = clock.now()
        let protection = self.protection
        var testE164 = protection.testNumbers.match(request.phoneNumber)
        let options = request.options
        try options.validate()
        if options.customCode != nil { try Self.requireCustomCodeAllowed(request.purpose) }
        let number = try testE164.map { try testNumber($0, now: now) }
            ?? options.vet(vet(request.phoneNumber, defaultRegion: request.defaultRegion, lineTypes: false))
        // A test number written another way ("(415) 555-0199" with a default region, "tel:…"):
        // the parsed number decides, as it does for resends and checks, so no real SMS goes to it.
        if testE164 == nil, try protection.testNumbers.code(for: number.e164, now: now) != nil { testE164 = number.e164 }
        // The channels, fallbacks of `auto` included (each counts as a send: docs/GATEWAYS.md).
        let plan = try policy.plan(request.channel, for: number, testNumber: testE164 != nil)
        let id = random.timeOrderedIdentifier(prefix: "ver_", at: now)
        let code = testE164.flatMap { protection.testNumbers.codes[$0] } ?? options.customCode
            ?? CodeGenerator(length: options.codeLength ?? policy.codeLength, random: random).next()
        let verification = Verification(
            id: id, phoneNumber: number.e164, display: number.international, region: number.region,
            countryCode: number.countryCode, channel: plan.first.rawValue, locale: request.locale,
            purpose: options.customCode == nil ? request.purpose : .delegatedCustomCode,
            subject: request.subject, sessionID: request.sessionID,
            codeHash: hasher.hash(code: code, verificationID: id), codeLength: code.count,
            maxAttempts: policy.maxAttempts, sends: testE164 == nil ? plan.channels.count : 1, maxSends: policy.maxSends, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(policy.codeTTL)), lastSentAt: now,
            resendAvailableAt: now.addingTimeInterval(TimeInterval(policy.cooldown(afterSends: 1))))
        let queued = testE164 == nil ? try sealedMessage(for: verification, code: code, now: now, options: options, channel: plan.first) : nil
        let message = queued?.message
        let fallbackIDs = (0..<max(0, plan.channels.count - 1)).map { _ in random.timeOrderedIdentifier(prefix: "msg_", at: now) }
        let initial = planned(plan, verification: verification, message: message, fallbackIDs: fallbackIDs, now: now)
        // Claimed as it is inserted when the local worker can take it from memory (no claim
        // transaction, no poll); otherwise any worker claims it from the store.
        let lease = message == nil ? nil : notifier.handOffLease(now: now)
        let fingerprint = [number.e164, request.channel, request.locale ?? "", request.purpose.rawValue,
                           request.subject ?? ""].joined(separator: "|")
        // An Idempotency-Key is scoped by client, purpose, user and number: another IP, user or
        // number never meets this request's record or its id (a client behind the same IP meets it
        // only with the same key and number: keys must be unguessable, docs/API.md).
        let scopedKey = request.idempotencyKey.map {
            [request.clientIP, request.purpose.rawValue, request.subject ?? "", number.e164, $0].joined(separator: "|")
        }
        let notBefore = now.addingTimeInterval(-TimeInterval(policy.idempotencyWindow))
        let user = request.purpose == .signIn ? nil : request.subject
        let stepUp = request.purpose == .mfaStepUp
        let lockoutKey = protection.lockoutKey(phone: number.e164, client: request.clientIP, user: user, requester: request.requester)
        // Verified before the transaction (a provider may ask its vendor); a test number, which
        // costs nothing, never needs one.
        let challenge = message == nil ? .none : try checkChallenge(
            request.challenge, purpose: request.purpose, action: "start", phone: number.e164, client: request.clientIP, now: now)
        let clientIP = request.clientIP
        let requester = request.requester
        let shareOf = request.requester ?? AbuseProtection.requester(client: clientIP, user: user)
        let challengeable = message != nil && request.purpose == .signIn
        let steer = message != nil && canSteer(plan, purpose: request.purpose)
        let screeningFor = { @Sendable (channels: [Channel]) -> SendScreening in
            SendScreening(
                subjects: protection.sendSubjects(
                    phone: number.e164, client: clientIP, user: user, stepUp: stepUp, testNumber: message == nil, channels: channels,
                    shareOf: challenge.passed ? shareOf : nil),
                lockoutKey: lockoutKey,
                fraudKeys: message == nil
                    ? [] : protection.fraudKeys(phone: number.e164, region: number.region, channels: channels, requester: requester),
                // A step-up challenge goes to a factor the user proved to hold: the pumping guard
                // judges strangers' destinations, not it (its sends and approvals are still counted).
                judged: message != nil && !stepUp, challengeable: challengeable, outcome: challenge, client: clientIP,
                heldToVolume: request.purpose != .mfaEnroll)
        }
        // The plan's reads cover every plan cut from it (their keys are a subset).
        let full = screeningFor(plan.channels)
        let reads = ReadSet(
            limitKeys: protection.limiter.keys(full.subjects) + [lockoutKey], fraudKeys: full.fraudKeys,
            fraudSince: protection.fraud.countsSince(now), idempotencyKeys: scopedKey.map { [$0] } ?? [])
        // Built before the transaction: the SQLite writer thread only inserts it.
        let startedEvent = eventRecorder?.startedEvent(initial.verification, at: now)
        let outcome = try countingRefusals { try store.write(reading: reads) { tx -> StartOutcome in
            if let scopedKey, let record = try tx.idempotencyRecord(key: scopedKey, notBefore: notBefore) {
                guard record.fingerprint == fingerprint else {
                    throw VerifyError(.idempotencyKeyReused, "this Idempotency-Key was used for a different request")
                }
                return StartOutcome(verification: record.snapshot, replayed: true, rateLimit: nil)
            }
            // An `auto` plan refused by one channel's own quota goes by the channels left.
            let (current, screening, screened) = try screenCutting(plan, screeningFor, steer: steer, now: now, in: tx)
            let send = current == plan
                ? initial : planned(current, verification: verification, message: message, fallbackIDs: fallbackIDs, now: now)
            let report = try record(screened, screening, now: now, in: tx)
            if let first = send.message { try tx.enqueue(first, lease: lease) }
            for fallback in send.fallbacks { try tx.enqueue(fallback, lease: nil) }
            let v = send.verification
            try tx.insert(v)
            if let event = current == plan ? startedEvent : eventRecorder?.startedEvent(v, at: now) { try tx.insertEvent(event) }
            try onStarted?(v, tx)
            if let scopedKey {
                try tx.saveIdempotencyRecord(IdempotencyRecord(
                    key: scopedKey, fingerprint: fingerprint, verificationID: id, snapshot: v,
                    createdAt: now))
            }
            var outcome = StartOutcome(verification: v, replayed: false, rateLimit: report)
            outcome.steered = plan.channels.contains(.sms) && !current.channels.contains(.sms)
            return outcome
        } }
        if outcome.steered { events.record(.steered) }
        if !outcome.replayed {
            if let queued {
                var first = queued.message
                first.channel = Channel(rawValue: outcome.verification.channel) ?? first.channel
                if lease != nil { notifier.handOff(first, payload: queued.payload) } else { notifier.messagesQueued() }
            }
            events.record(.verificationStarted(purpose: request.purpose, region: number.region))
        }
        return outcome
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
