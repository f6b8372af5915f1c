import Foundation

extension VerificationService {
    /// Approves a pending verification without a code (the Twilio-compatible API's
    /// `Status=approved`, for codes checked elsewhere, e.g. custom codes). The same refusals as
    /// a check: not found, already used, max attempts, expired. No credential is issued.
    public func approve(id: String, purposes: Set<Purpose> = [.signIn]) throws -> Verification {
        let now = clock.now()
        let protection = self.protection
        let approved = try store.write(reading: ReadSet(verifications: [id])) { tx -> Verification in
            guard var v = try tx.verification(id: id), purposes.contains(v.purpose) else {
                throw VerifyError.notFound(id)
            }
            try Self.requireUsable(v, now: now)
            let isTestNumber = try protection.testNumbers.code(for: v.phoneNumber, now: now) != nil
            v.storedStatus = .approved
            v.approvedAt = now
            try tx.update(v)
            try tx.supersedeQueuedMessages(verificationID: v.id, reason: "verification approved", now: now)
            if !isTestNumber {  // nothing was sent: no conversion for the fraud guard
                try protection.fraud.recordApproval(keys: protection.fraudKeys(phone: v.phoneNumber, region: v.region), now: now, in: tx)
            }
            return v
        }
        notifier.messagesSuperseded(verificationID: approved.id)
        events.record(.verificationEnded(reason: "approved", region: approved.region))
        return approved
    }
}
