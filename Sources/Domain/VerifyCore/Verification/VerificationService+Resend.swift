import Foundation

/// A resend's request, settled before its transaction.
struct ResendRequest: Sendable {
    let id: String
    let clientIP: String
    let purposes: Set<Purpose>
    let options: SendOptions
    let ignoringCooldown: Bool
    let requester: String?
    /// The channel plan a switch of channel asked for (checked against the number's line type).
    let switched: ChannelPlan?
    /// The submitted challenge's verdict (read before the transaction: it is bound to the number).
    let proof: ChallengeOutcome
    /// The new code unless a test number's or the verification's own length decides otherwise.
    let fresh: String
    let now: Date
}

extension VerificationService {
    /// Sends a new code; the previous code stops working, the attempt counter is kept, and
    /// the cooldown doubles after each send. Counts against the same limits as a start.
    /// `options` shape the new code and its text (a generated code keeps the verification's
    /// length unless `options.codeLength` says otherwise); `ignoringCooldown` skips the resend
    /// cooldown (a delegated verification's API, where a repeat request sends at once).
    public func resend(
        id: String, clientIP: String = "", purposes: Set<Purpose> = [.signIn], options: SendOptions = SendOptions(),
        ignoringCooldown: Bool = false, requester: String? = nil, challenge: ChallengeSubmission? = nil, channel: String? = nil
    ) throws -> StartOutcome {
        let now = clock.now()
        try options.validate()
        // A resend may switch channel: the new plan is checked against the number's line type.
        let switched = try channel.flatMap { try resendPlan($0, id: id, purposes: purposes, now: now) }
        let proof = try resendProof(challenge, id: id, purposes: purposes, clientIP: clientIP, now: now)
        let fresh = options.customCode ?? CodeGenerator(length: options.codeLength ?? policy.codeLength, random: random).next()
        let request = ResendRequest(
            id: id, clientIP: clientIP, purposes: purposes, options: options, ignoringCooldown: ignoringCooldown,
            requester: requester, switched: switched, proof: proof, fresh: fresh, now: now)
        let outcome = try countingRefusals { try store.write(reading: ReadSet(verifications: [id])) { tx -> StartOutcome in
            try writeResend(request, in: tx)
        } }
        if outcome.steered { events.record(.steered) }
        notifier.messagesSuperseded(verificationID: id)
        notifier.messagesQueued()
        return outcome
    }

    /// A submitted challenge is bound to the number: the verification is read first (only then).
    private func resendProof(
        _ challenge: ChallengeSubmission?, id: String, purposes: Set<Purpose>, clientIP: String, now: Date
    ) throws -> ChallengeOutcome {
        guard let challenge, purposes.contains(.signIn), challenges.isActive,
            let v = try store.read({ try $0.verification(id: id) }), v.purpose == .signIn
        else { return .none }
        return try checkChallenge(challenge, purpose: .signIn, action: "resend", phone: v.phoneNumber, verificationID: id, client: clientIP, now: now)
    }

    /// The resend's transaction: refuses a verification that may not send again, screens the
    /// plan, then writes the new code and queues its messages.
    private func writeResend(_ r: ResendRequest, in tx: any StoreTransaction) throws -> StartOutcome {
        let now = r.now
        guard var v = try tx.verification(id: r.id), r.purposes.contains(v.purpose) else {
            throw VerifyError.notFound(r.id)
        }
        if r.options.customCode != nil { try Self.requireCustomCodeAllowed(v.purpose) }
        try Self.requireUsable(v, now: now)
        try Self.requireResendable(v, ignoringCooldown: r.ignoringCooldown, now: now)
        let protection = self.protection
        let testCode = try protection.testNumbers.code(for: v.phoneNumber, now: now)
        // A generated code has the verification's length (it may differ from the policy's).
        let generated = r.options.customCode == nil && r.options.codeLength == nil && r.fresh.count != v.codeLength
            && CodeGenerator.allowedLengths.contains(v.codeLength)
            ? CodeGenerator(length: v.codeLength, random: random).next() : r.fresh
        let code = testCode ?? generated
        // Once a caller chose a code, the verification's approval is never a conversion.
        if r.options.customCode != nil && testCode == nil { v.purpose = .delegatedCustomCode }
        v.codeLength = code.count
        let plan = (r.switched ?? ChannelPlan(requested: v.channel, channels: [Channel(rawValue: v.channel) ?? .sms]))
            .limited(to: v.maxSends - v.sends)
        // A requester waiting out its failed-check backoff gets no new codes for the number
        // either, not even on a verification started before.
        let user = v.purpose == .signIn ? nil : v.subject
        let stepUp = v.purpose == .mfaStepUp
        let base = v
        let screeningFor = { (channels: [Channel]) -> SendScreening in
            SendScreening(
                subjects: protection.sendSubjects(
                    phone: base.phoneNumber, client: r.clientIP, user: user, stepUp: stepUp, testNumber: testCode != nil,
                    channels: channels, shareOf: r.proof.passed ? r.requester ?? AbuseProtection.requester(client: r.clientIP, user: user) : nil),
                lockoutKey: protection.lockoutKey(phone: base.phoneNumber, client: r.clientIP, user: user, requester: r.requester),
                fraudKeys: testCode == nil
                    ? protection.fraudKeys(phone: base.phoneNumber, region: base.region, channels: channels, requester: r.requester) : [],
                judged: testCode == nil && !stepUp,
                challengeable: testCode == nil && base.purpose == .signIn && challenges.isActive && r.purposes.contains(.signIn),
                outcome: r.proof, client: r.clientIP, heldToVolume: base.purpose != .mfaEnroll)
        }
        // As on start: an `auto` plan refused by one channel's own quota goes by the others.
        let steer = testCode == nil && canSteer(plan, purpose: v.purpose)
        let screenedPlan = try screenCutting(plan, screeningFor, steer: steer, now: now, in: tx)
        let sent = screenedPlan.plan
        renew(&v, code: code, plan: sent, testNumber: testCode != nil, now: now)
        let report = try record(screenedPlan.screened, screenedPlan.screening, now: now, in: tx)
        if testCode == nil { try queueResent(v, code: code, plan: sent, options: r.options, now: now, in: tx) }
        try tx.update(v)
        var outcome = StartOutcome(verification: v, replayed: false, rateLimit: report)
        outcome.steered = plan.channels.contains(.sms) && !sent.channels.contains(.sms)
        return outcome
    }

    /// Throws unless the verification may send again: sends left, and its cooldown over (unless
    /// the caller's API ignores it).
    static func requireResendable(_ v: Verification, ignoringCooldown: Bool, now: Date) throws {
        guard v.sends < v.maxSends else {
            let rest = remainingLifetime(v, now: now)
            throw VerifyError(
                .maxSendsReached, "no more codes can be sent for this verification; start a new one",
                details: ["max_sends": .int(Int64(v.maxSends))], retryAfter: rest,
                rateLimit: exhausted("verification_sends", quota: v.maxSends, window: codeLifetime(v), reset: rest))
        }
        guard ignoringCooldown || now >= v.resendAvailableAt else {
            let wait = Int(v.resendAvailableAt.timeIntervalSince(now).rounded(.up))
            let cooldown = max(1, Int(v.resendAvailableAt.timeIntervalSince(v.lastSentAt).rounded(.up)))
            throw VerifyError(
                .resendTooSoon, "a new code can be sent in \(wait) s",
                details: ["resend_available_at": .string(RFC3339.format(v.resendAvailableAt))], retryAfter: wait,
                rateLimit: exhausted("resend_cooldown", quota: 1, window: cooldown, reset: wait))
        }
    }

    /// The verification after a resend over `plan`: its sends, channel, code, lifetime and cooldown.
    private func renew(_ v: inout Verification, code: String, plan: ChannelPlan, testNumber: Bool, now: Date) {
        v.sends += testNumber ? 1 : plan.channels.count
        v.channel = plan.first.rawValue
        v.codeHash = hasher.hash(code: code, verificationID: v.id)
        v.lastSentAt = now
        v.expiresAt = now.addingTimeInterval(TimeInterval(policy.codeTTL))
        v.resendAvailableAt = now.addingTimeInterval(TimeInterval(policy.cooldown(afterSends: v.sends)))
    }

    /// Supersedes the messages still queued with the old code and queues the new one and its fallbacks.
    private func queueResent(
        _ v: Verification, code: String, plan: ChannelPlan, options: SendOptions, now: Date, in tx: any StoreTransaction
    ) throws {
        try tx.supersedeQueuedMessages(verificationID: v.id, reason: "superseded by a resend", now: now)
        let first = try outboxMessage(for: v, code: code, now: now, options: options, channel: plan.first)
        try tx.enqueue(first)
        for fallback in fallbackMessages(after: first, plan: plan, now: now) { try tx.enqueue(fallback) }
    }
}
