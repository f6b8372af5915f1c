import Foundation

/// What a start settles before its transaction: the number, the channel plan, the code's
/// verification and messages, and the idempotency record's key. Built once per start.
struct StartDraft: Sendable {
    let now: Date
    let number: PhoneNumber
    let plan: ChannelPlan
    let verification: Verification
    /// The first message, sealed, and its payload in the clear; nil for a test number.
    let queued: (message: OutboxMessage, payload: MessagePayload)?
    let fallbackIDs: [String]
    /// The verification and messages for the whole plan (cut in the transaction if refused).
    let initial: PlannedSend
    let lease: OutboxLease?
    let fingerprint: String
    let scopedKey: String?

    var message: OutboxMessage? { queued?.message }
}

/// The screening of a start, settled before its transaction: what each plan cut is screened
/// against, what the transaction reads, and whether the fraud guard may steer to WhatsApp.
struct StartScreening: Sendable {
    let screeningFor: @Sendable ([Channel]) -> SendScreening
    let reads: ReadSet
    let steer: Bool
}

extension VerificationService {
    /// Starts a verification and queues its first message, in one transaction with its limits.
    /// `onStarted` runs inside that transaction after the verification is inserted (not for an
    /// idempotent replay), e.g. to link it to another record; its error undoes the start.
    public func start(
        _ request: StartRequest, onStarted: (@Sendable (Verification, any StoreTransaction) throws -> Void)? = nil
    ) throws -> StartOutcome {
        let draft = try draftStart(request, now: clock.now())
        let screening = try screenStart(request, draft)
        // Built before the transaction: the SQLite writer thread only inserts it.
        let startedEvent = eventRecorder?.startedEvent(draft.initial.verification, at: draft.now)
        let notBefore = draft.now.addingTimeInterval(-TimeInterval(policy.idempotencyWindow))
        let outcome = try countingRefusals { try store.write(reading: screening.reads) { tx -> StartOutcome in
            if let scopedKey = draft.scopedKey, let record = try tx.idempotencyRecord(key: scopedKey, notBefore: notBefore) {
                guard record.fingerprint == draft.fingerprint else {
                    throw VerifyError(.idempotencyKeyReused, "this Idempotency-Key was used for a different request")
                }
                return StartOutcome(verification: record.snapshot, replayed: true, rateLimit: nil)
            }
            return try insertStart(draft, screening, startedEvent: startedEvent, onStarted: onStarted, in: tx)
        } }
        announceStart(outcome, draft, purpose: request.purpose)
        return outcome
    }

    /// Validates the request and builds the verification, its code and its messages.
    private func draftStart(_ request: StartRequest, now: Date) throws -> StartDraft {
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
        let fallbackIDs = (0..<max(0, plan.channels.count - 1)).map { _ in random.timeOrderedIdentifier(prefix: "msg_", at: now) }
        let initial = planned(plan, verification: verification, message: queued?.message, fallbackIDs: fallbackIDs, now: now)
        // Claimed as it is inserted when the local worker can take it from memory (no claim
        // transaction, no poll); otherwise any worker claims it from the store.
        let lease = queued == nil ? nil : notifier.handOffLease(now: now)
        let fingerprint = [number.e164, request.channel, request.locale ?? "", request.purpose.rawValue,
                           request.subject ?? ""].joined(separator: "|")
        // An Idempotency-Key is scoped by client, purpose, user and number: another IP, user or
        // number never meets this request's record or its id (a client behind the same IP meets it
        // only with the same key and number: keys must be unguessable, docs/API.md).
        let scopedKey = request.idempotencyKey.map {
            [request.clientIP, request.purpose.rawValue, request.subject ?? "", number.e164, $0].joined(separator: "|")
        }
        return StartDraft(
            now: now, number: number, plan: plan, verification: verification, queued: queued, fallbackIDs: fallbackIDs,
            initial: initial, lease: lease, fingerprint: fingerprint, scopedKey: scopedKey)
    }

    /// Checks the challenge (before the transaction: a provider may ask its vendor; a test number,
    /// which costs nothing, never needs one) and settles what the transaction screens and reads.
    private func screenStart(_ request: StartRequest, _ draft: StartDraft) throws -> StartScreening {
        let protection = self.protection
        let number = draft.number, now = draft.now, message = draft.message
        let user = request.purpose == .signIn ? nil : request.subject
        let stepUp = request.purpose == .mfaStepUp
        let lockoutKey = protection.lockoutKey(phone: number.e164, client: request.clientIP, user: user, requester: request.requester)
        let challenge = message == nil ? .none : try checkChallenge(
            request.challenge, purpose: request.purpose, action: "start", phone: number.e164, client: request.clientIP, now: now)
        let clientIP = request.clientIP
        let requester = request.requester
        let shareOf = request.requester ?? AbuseProtection.requester(client: clientIP, user: user)
        let challengeable = message != nil && request.purpose == .signIn
        let heldToVolume = request.purpose != .mfaEnroll
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
                heldToVolume: heldToVolume)
        }
        // The plan's reads cover every plan cut from it (their keys are a subset).
        let full = screeningFor(draft.plan.channels)
        let reads = ReadSet(
            limitKeys: protection.limiter.keys(full.subjects) + [lockoutKey], fraudKeys: full.fraudKeys,
            fraudSince: protection.fraud.countsSince(now), idempotencyKeys: draft.scopedKey.map { [$0] } ?? [])
        return StartScreening(
            screeningFor: screeningFor, reads: reads, steer: message != nil && canSteer(draft.plan, purpose: request.purpose))
    }

    /// The start's writes, in its transaction: screens the plan (an `auto` plan refused by one
    /// channel's own quota goes by the channels left), records it, queues the messages and
    /// inserts the verification, its event and its idempotency record.
    private func insertStart(
        _ draft: StartDraft, _ screening: StartScreening, startedEvent: WebhookEvent?,
        onStarted: (@Sendable (Verification, any StoreTransaction) throws -> Void)?, in tx: any StoreTransaction
    ) throws -> StartOutcome {
        let plan = draft.plan, now = draft.now
        let (current, screeningUsed, screened) = try screenCutting(plan, screening.screeningFor, steer: screening.steer, now: now, in: tx)
        let send = current == plan
            ? draft.initial
            : planned(current, verification: draft.verification, message: draft.message, fallbackIDs: draft.fallbackIDs, now: now)
        let report = try record(screened, screeningUsed, now: now, in: tx)
        if let first = send.message { try tx.enqueue(first, lease: draft.lease) }
        for fallback in send.fallbacks { try tx.enqueue(fallback, lease: nil) }
        let v = send.verification
        try tx.insert(v)
        if let event = current == plan ? startedEvent : eventRecorder?.startedEvent(v, at: now) { try tx.insertEvent(event) }
        try onStarted?(v, tx)
        if let scopedKey = draft.scopedKey {
            try tx.saveIdempotencyRecord(IdempotencyRecord(
                key: scopedKey, fingerprint: draft.fingerprint, verificationID: draft.verification.id, snapshot: v,
                createdAt: now))
        }
        var outcome = StartOutcome(verification: v, replayed: false, rateLimit: report)
        outcome.steered = plan.channels.contains(.sms) && !current.channels.contains(.sms)
        return outcome
    }

    /// After the commit: hands the first message to the local worker (or wakes the workers) and
    /// counts the start.
    private func announceStart(_ outcome: StartOutcome, _ draft: StartDraft, purpose: Purpose) {
        if outcome.steered { events.record(.steered) }
        guard !outcome.replayed else { return }
        if let queued = draft.queued {
            var first = queued.message
            first.channel = Channel(rawValue: outcome.verification.channel) ?? first.channel
            if draft.lease != nil { notifier.handOff(first, payload: queued.payload) } else { notifier.messagesQueued() }
        }
        events.record(.verificationStarted(purpose: purpose, region: draft.number.region))
    }
}
