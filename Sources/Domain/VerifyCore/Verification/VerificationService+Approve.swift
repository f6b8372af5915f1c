import Foundation

extension VerificationService {
    /// Approves a pending verification without a code (the Twilio-compatible API's
    /// `Status=approved`, for codes checked elsewhere, e.g. custom codes). The same refusals as
    /// a check: not found, already used, max attempts, expired. No credential is issued, and no
    /// conversion is counted for the fraud guard: an approval the caller declares proves nothing
    /// about the destination, and counting it would let any tenant lift a pause for free.
    public func approve(id: String, purposes: Set<Purpose> = [.signIn]) throws -> Verification {
        let now = clock.now()
        let protection = self.protection
        let recorder = eventRecorder
        let approved = try store.write(reading: ReadSet(verifications: [id])) { tx -> Verification in
            guard var v = try tx.verification(id: id), purposes.contains(v.purpose) else {
                throw VerifyError.notFound(id)
            }
            try Self.requireUsable(v, now: now)
            _ = try protection.testNumbers.code(for: v.phoneNumber, now: now)  // an expired test number is refused
            v.storedStatus = .approved
            v.approvedAt = now
            try tx.update(v)
            try recorder?.approved(v, at: now, in: tx)
            try tx.supersedeQueuedMessages(verificationID: v.id, reason: "verification approved", now: now)
            return v
        }
        notifier.messagesSuperseded(verificationID: approved.id)
        events.record(.verificationEnded(reason: "approved", region: approved.region))
        return approved
    }
}
