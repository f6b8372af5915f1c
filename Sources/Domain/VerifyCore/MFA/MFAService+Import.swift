import Foundation

extension MFAService {
    /// Stores an already verified phone factor for `subject` without sending a code: a migration
    /// from another provider (Firebase users with SMS MFA) whose users proved the phone there.
    /// For support's server (the `factors` API scope), never for a user's session.
    ///
    /// The number passes the same checks as an enrolment (valid, an allowed region and line
    /// type), since a factor the service refuses to send to could never be used. The user's
    /// factor limit holds; the same phone twice is `factor_exists` (so a re-run migration is
    /// safe). Writes `mfa.factor.enrolled` with `"imported": true` when events are on.
    public func importFactor(subject: String, phoneNumber: String, displayName: String?) throws -> Factor {
        guard !subject.isEmpty, subject.utf8.count <= 255 else {
            throw VerifyError(.invalidRequest, "the user id must be 1 to 255 bytes", details: ["field": "subject"])
        }
        let name = try Self.validDisplayName(displayName)
        let number = try verifications.vet(phoneNumber, defaultRegion: nil)
        let factor = Factor(
            id: random.identifier(prefix: "fac_"), subject: subject, phoneNumber: number.e164, countryCode: number.countryCode,
            createdAt: clock.now(), displayName: name)
        let max = policy.maxFactors
        let recorder = verifications.eventRecorder
        return try store.write(reading: ReadSet(factorSubjects: [subject])) { tx in
            try Self.requireRoom(try tx.factors(subject: subject), for: factor.phoneNumber, max: max)
            try tx.insertFactor(factor)
            try recorder?.factorEnrolled(factor, at: factor.createdAt, in: tx, imported: true)
            return factor
        }
    }

    /// A display name trimmed of surrounding spaces, nil when absent or empty; refused when longer
    /// than `Factor.maxDisplayNameLength` characters or holding control characters (it is shown
    /// to the user and to support).
    static func validDisplayName(_ text: String?) throws -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= Factor.maxDisplayNameLength,
              !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw VerifyError(
                .invalidRequest, "display_name must be at most \(Factor.maxDisplayNameLength) characters without control characters",
                details: ["field": "display_name"])
        }
        return trimmed
    }
}
