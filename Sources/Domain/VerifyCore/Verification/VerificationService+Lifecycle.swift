import Foundation
import Encoding

extension VerificationService {
    /// The verification with its effective status and latest delivery.
    public func get(id: String, purposes: Set<Purpose> = [.signIn]) throws -> VerificationView {
        let now = clock.now()
        return try store.read { reader -> VerificationView in
            guard let v = try reader.verification(id: id), purposes.contains(v.purpose) else {
                throw VerifyError.notFound(id)
            }
            return VerificationView(
                verification: v, status: v.status(at: now), delivery: try reader.latestMessage(verificationID: id)?.delivery)
        }
    }

    /// Sends a new code; the previous code stops working, the attempt counter is kept, and
    /// the cooldown doubles after each send. Counts against the same limits as a start.
    /// `options` shape the new code and its text (a generated code keeps the verification's
    /// length unless `options.codeLength` says otherwise); `ignoringCooldown` skips the resend
    /// cooldown (the Twilio-compatible API, where a repeat request sends at once).
    public func resend(
        id: String, clientIP: String = "", purposes: Set<Purpose> = [.signIn], options: SendOptions = SendOptions(),
        ignoringCooldown: Bool = false, requester: String? = nil, challenge: ChallengeSubmission? = nil, channel: String? = nil
    ) throws -> StartOutcome {
        let now = clock.now()
        let service = self
        try options.validate()
        // A resend may switch channel: the new plan is checked against the number's line type.
        let switched = try channel.flatMap { try resendPlan($0, id: id, purposes: purposes, now: now) }
        // A submitted challenge is bound to the number: read it first (only then).
        let proof: ChallengeOutcome
        if let challenge, purposes.contains(.signIn), challenges.isActive,
            let v = try store.read({ try $0.verification(id: id) }), v.purpose == .signIn
        {
            proof = try checkChallenge(challenge, purpose: .signIn, action: "resend", phone: v.phoneNumber, verificationID: id, client: clientIP, now: now)
        } else {
            proof = .none
        }
        let fresh = options.customCode ?? CodeGenerator(length: options.codeLength ?? policy.codeLength, random: random).next()
        let random = self.random
        let outcome = try countingRefusals { try store.write(reading: ReadSet(verifications: [id])) { tx -> StartOutcome in
            guard var v = try tx.verification(id: id), purposes.contains(v.purpose) else {
                throw VerifyError.notFound(id)
            }
            if options.customCode != nil { try Self.requireCustomCodeAllowed(v.purpose) }
            try Self.requireUsable(v, now: now)
            guard v.sends < v.maxSends else {
                let rest = Self.remainingLifetime(v, now: now)
                throw VerifyError(
                    .maxSendsReached, "no more codes can be sent for this verification; start a new one",
                    details: ["max_sends": .int(Int64(v.maxSends))], retryAfter: rest,
                    rateLimit: Self.exhausted("verification_sends", quota: v.maxSends, window: Self.codeLifetime(v), reset: rest))
            }
            guard ignoringCooldown || now >= v.resendAvailableAt else {
                let wait = Int(v.resendAvailableAt.timeIntervalSince(now).rounded(.up))
                let cooldown = max(1, Int(v.resendAvailableAt.timeIntervalSince(v.lastSentAt).rounded(.up)))
                throw VerifyError(
                    .resendTooSoon, "a new code can be sent in \(wait) s",
                    details: ["resend_available_at": .string(RFC3339.format(v.resendAvailableAt))], retryAfter: wait,
                    rateLimit: Self.exhausted("resend_cooldown", quota: 1, window: cooldown, reset: wait))
            }
            let protection = service.protection
            let testCode = try protection.testNumbers.code(for: v.phoneNumber, now: now)
            // A generated code has the verification's length (it may differ from the policy's).
            let generated = options.customCode == nil && options.codeLength == nil && fresh.count != v.codeLength
                && CodeGenerator.allowedLengths.contains(v.codeLength)
                ? CodeGenerator(length: v.codeLength, random: random).next() : fresh
            let code = testCode ?? generated
            // Once a caller chose a code, the verification's approval is never a conversion.
            if options.customCode != nil && testCode == nil { v.purpose = .delegatedCustomCode }
            v.codeLength = code.count
            var plan = (switched ?? ChannelPlan(requested: v.channel, channels: [Channel(rawValue: v.channel) ?? .sms]))
                .limited(to: v.maxSends - v.sends)
            // A requester waiting out its failed-check backoff gets no new codes for the number
            // either, not even on a verification started before.
            let user = v.purpose == .signIn ? nil : v.subject
            let stepUp = v.purpose == .mfaStepUp
            let screeningFor = { (channels: [Channel]) -> SendScreening in
                SendScreening(
                    subjects: protection.sendSubjects(
                        phone: v.phoneNumber, client: clientIP, user: user, stepUp: stepUp, testNumber: testCode != nil, channels: channels,
                        shareOf: proof.passed ? requester ?? AbuseProtection.requester(client: clientIP, user: user) : nil),
                    lockoutKey: protection.lockoutKey(phone: v.phoneNumber, client: clientIP, user: user, requester: requester),
                    fraudKeys: testCode == nil
                        ? protection.fraudKeys(phone: v.phoneNumber, region: v.region, channels: channels, requester: requester) : [],
                    judged: testCode == nil && !stepUp,
                    challengeable: testCode == nil && v.purpose == .signIn && service.challenges.isActive && purposes.contains(.signIn),
                    outcome: proof, client: clientIP, heldToVolume: v.purpose != .mfaEnroll)
            }
            // As on start: an `auto` plan refused by one channel's own quota goes by the others.
            let steer = testCode == nil && service.canSteer(plan, purpose: v.purpose)
            let screenedPlan = try service.screenCutting(plan, screeningFor, steer: steer, now: now, in: tx)
            let (screening, screened) = (screenedPlan.screening, screenedPlan.screened)
            let steered = plan.channels.contains(.sms) && !screenedPlan.plan.channels.contains(.sms)
            plan = screenedPlan.plan
            v.sends += testCode == nil ? plan.channels.count : 1
            v.channel = plan.first.rawValue
            v.codeHash = service.hasher.hash(code: code, verificationID: v.id)
            v.lastSentAt = now
            v.expiresAt = now.addingTimeInterval(TimeInterval(service.policy.codeTTL))
            v.resendAvailableAt = now.addingTimeInterval(TimeInterval(service.policy.cooldown(afterSends: v.sends)))
            let report = try service.record(screened, screening, now: now, in: tx)
            if testCode == nil {
                try tx.supersedeQueuedMessages(verificationID: v.id, reason: "superseded by a resend", now: now)
                let first = try service.outboxMessage(for: v, code: code, now: now, options: options, channel: plan.first)
                try tx.enqueue(first)
                for fallback in service.fallbackMessages(after: first, plan: plan, now: now) { try tx.enqueue(fallback) }
            }
            try tx.update(v)
            var outcome = StartOutcome(verification: v, replayed: false, rateLimit: report)
            outcome.steered = steered
            return outcome
        } }
        if outcome.steered { events.record(.steered) }
        notifier.messagesSuperseded(verificationID: id)
        notifier.messagesQueued()
        return outcome
    }

    /// Checks a code. The attempt is counted before the comparison, in the same transaction,
    /// so parallel guesses can never exceed the cap; a correct code is accepted once. Checks
    /// count against the client's check limit; failures against the lockout of this requester
    /// (the client, or the owner for MFA) on this number, never against the number as a whole.
    /// `owner` restricts the check to verifications that user started in that session (MFA); `onApproved`
    /// runs inside the approving transaction (e.g. storing a factor), and its error undoes it.
    public func check(
        id: String, code: String, clientIP: String = "", purposes: Set<Purpose> = [.signIn], owner: Principal? = nil,
        requester: String? = nil, onApproved: (@Sendable (Verification, any StoreTransaction) throws -> Void)? = nil
    ) throws -> ApprovedCheck {
        let now = clock.now()
        let hasher = self.hasher
        let protection = self.protection
        let recorder = eventRecorder
        let reads = ReadSet(
            verifications: [id], limitKeys: protection.limiter.keys(protection.checkSubjects(client: clientIP)),
            factorSubjects: owner.map { [$0.subject] } ?? [])
        // Wrong codes count against this requester only (the user for MFA, else the client).
        let user = owner?.subject
        let (outcome, region) = try countingRefusals { try store.write(reading: reads) { tx -> (Result<ApprovedCheck, VerifyError>, String?) in
            // An owner's verification (MFA) is theirs only in the session that started it.
            guard var v = try tx.verification(id: id), purposes.contains(v.purpose),
                owner == nil || (v.subject == owner?.subject && v.sessionID == owner?.sessionID)
            else {
                return (.failure(VerifyError.notFound(id)), nil)
            }
            do { try Self.requireUsable(v, now: now) } catch let error as VerifyError {
                // Reported once: the event's id is the verification's (later checks insert nothing).
                if error.code == .expired { try recorder?.failed(v, reason: "expired", at: now, in: tx) }
                return (.failure(error), v.region)
            }
            guard code.utf8.count == v.codeLength, code.utf8.allSatisfy(ASCII.isDigit) else {
                return (.failure(VerifyError(
                    .invalidRequest, "code must be \(v.codeLength) digits", details: ["field": "code"])), v.region)
            }
            // A test number's approval is no conversion (nothing was sent): it must not lift the
            // fraud guard's verdict on its block or country.
            let isTestNumber = try protection.testNumbers.code(for: v.phoneNumber, now: now) != nil
            let lockoutKey = protection.lockoutKey(phone: v.phoneNumber, client: clientIP, user: user, requester: requester)
            let admission = try protection.limiter.admit(protection.checkSubjects(client: clientIP), now: now, in: tx, lockout: lockoutKey)
            let report = try protection.limiter.record(admission, now: now, in: tx)
            v.attempts += 1
            if hasher.matches(code: code, verificationID: v.id, expected: v.codeHash) {
                v.storedStatus = .approved
                v.approvedAt = now
                try tx.update(v)
                try recorder?.approved(v, at: now, in: tx)
                try onApproved?(v, tx)
                // A test number's or a caller-chosen code's approval proves nothing about the phone.
                if !isTestNumber && v.purpose != .delegatedCustomCode {
                    try protection.fraud.recordApproval(
                        keys: protection.fraudKeys(
                            phone: v.phoneNumber, region: v.region, channels: [Channel(rawValue: v.channel) ?? .sms], requester: requester),
                        now: now, in: tx)
                }
                return (.success(ApprovedCheck(verification: v, credential: nil, rateLimit: report)), v.region)
            }
            if v.attempts >= v.maxAttempts {
                v.storedStatus = .maxAttemptsReached
                try recorder?.failed(v, reason: "max_attempts_reached", at: now, in: tx)
            }
            try tx.update(v)
            let lockout = try protection.limiter.recordFailedCheck(key: lockoutKey, now: now, in: tx)
            return (.failure(VerifyError(
                .incorrectCode, "the code is incorrect",
                details: ["attempts_remaining": .int(Int64(v.attemptsRemaining))],
                rateLimit: RateLimitReport.closest([report, lockout].compactMap { $0 }))), v.region)
        } }
        record(outcome, region: region)
        // A message still waiting for a retry must not carry a used code, or one that can no longer
        // be checked: the delivery worker re-reads a claimed message's verification just before
        // sending it. Nothing is written or signalled here, on every check's path (measured: telling
        // the worker cost ~40 µs per flow in lock contention); a message still in the worker's
        // memory at approval (only possible with a custom code) may still go out, used.
        return try outcome.get()
    }

    /// Runs `body`; a refusal by a rate limit or the fraud guard is counted on its way out.
    func countingRefusals<T>(_ body: () throws -> T) throws -> T {
        // A paused destination noted during the transaction (refused or not) is reported now.
        defer { eventRecorder?.flushPauses(to: store) }
        do {
            return try body()
        } catch let error as VerifyError where error.code == .rateLimited || error.code == .suspectedFraud {
            events.record(.refused(code: error.code.rawValue, scope: error.details["scope"]?.stringValue ?? "unknown"))
            throw error
        } catch let error as VerifyError where error.code == .challengeRequired {
            challenges.recordAsked(reasons: error.reasons)
            throw error
        }
    }

    /// Counts a check's outcome.
    private func record(_ outcome: Result<ApprovedCheck, VerifyError>, region: String?) {
        switch outcome {
        case .success(let checked):
            events.record(.checkCompleted(outcome: "approved", region: checked.verification.region))
            events.record(.verificationEnded(reason: "approved", region: checked.verification.region))
        case .failure(let error):
            switch error.code {
            case .incorrectCode:
                events.record(.checkCompleted(outcome: "incorrect", region: region))
                if error.details["attempts_remaining"] == .int(0), let region {
                    events.record(.verificationEnded(reason: "max_attempts", region: region))
                }
            case .expired: events.record(.checkCompleted(outcome: "expired", region: region))
            case .maxAttemptsReached: events.record(.checkCompleted(outcome: "max_attempts", region: region))
            case .alreadyUsed: events.record(.checkCompleted(outcome: "already_used", region: region))
            case .notFound: events.record(.checkCompleted(outcome: "not_found", region: nil))
            default: events.record(.checkCompleted(outcome: "invalid", region: region))
            }
        }
    }

    /// Approves a checked verification and issues its first-factor credential.
    public func checkAndIssue(id: String, code: String, clientIP: String = "") throws -> ApprovedCheck {
        try issuer.requireSigner()
        // Sign-in verifications only: never a delegated one (its code may be the caller's choice).
        let checked = try check(id: id, code: code, clientIP: clientIP, purposes: [.signIn])
        return ApprovedCheck(
            verification: checked.verification, credential: try issuer.firstFactor(for: checked.verification, at: clock.now()),
            rateLimit: checked.rateLimit)
    }

    /// Cancels a verification: its code stops working. Approved verifications cannot be canceled.
    public func cancel(id: String, purposes: Set<Purpose> = [.signIn]) throws -> Verification {
        let now = clock.now()
        let recorder = eventRecorder
        let (canceled, changed) = try store.write(reading: ReadSet(verifications: [id])) { tx -> (Verification, Bool) in
            guard var v = try tx.verification(id: id), purposes.contains(v.purpose) else {
                throw VerifyError.notFound(id)
            }
            if v.storedStatus == .approved {
                throw VerifyError(.alreadyUsed, "the verification was already approved")
            }
            guard v.storedStatus != .canceled else { return (v, false) }
            // One terminal event per verification: one that already ended (max attempts,
            // expired) is marked canceled without a second one.
            let ended = v.status(at: now) != .pending
            v.storedStatus = .canceled
            try tx.update(v)
            if !ended { try recorder?.canceled(v, at: now, in: tx) }
            try tx.supersedeQueuedMessages(verificationID: v.id, reason: "verification canceled", now: now)
            return (v, true)
        }
        if changed { notifier.messagesSuperseded(verificationID: canceled.id) }
        return canceled
    }
}
