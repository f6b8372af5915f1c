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
                let approved = try approveChecked(v, isTestNumber: isTestNumber, requester: requester, onApproved: onApproved, now: now, in: tx)
                return (.success(ApprovedCheck(verification: approved, credential: nil, rateLimit: report)), v.region)
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

    /// Approves a checked verification in the check's transaction: its event, the caller's
    /// `onApproved`, and the conversion the fraud guard counts (a test number's or a
    /// caller-chosen code's approval proves nothing about the phone, so it counts none).
    private func approveChecked(
        _ checked: Verification, isTestNumber: Bool, requester: String?,
        onApproved: (@Sendable (Verification, any StoreTransaction) throws -> Void)?, now: Date, in tx: any StoreTransaction
    ) throws -> Verification {
        var v = checked
        v.storedStatus = .approved
        v.approvedAt = now
        try tx.update(v)
        try eventRecorder?.approved(v, at: now, in: tx)
        try onApproved?(v, tx)
        if !isTestNumber && v.purpose != .delegatedCustomCode {
            try protection.fraud.recordApproval(
                keys: protection.fraudKeys(
                    phone: v.phoneNumber, region: v.region, channels: [Channel(rawValue: v.channel) ?? .sms], requester: requester),
                now: now, in: tx)
        }
        return v
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
