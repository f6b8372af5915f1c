import Foundation

/// Tunable rules of MFA.
public struct MFAPolicy: Sendable, Equatable {
    /// Factors one user may enrol.
    public var maxFactors = 10
    /// Seconds a step-up (or an `mfa` primary authentication) counts as recent for sensitive
    /// operations such as deleting a factor.
    public var stepUpMaxAge = 600

    public init() {}
}

/// The phone second factor: enrol, confirm, list, delete, challenge, verify. Every call acts for
/// the `Principal` of a verified session token; a user never sees another user's factors or
/// challenges (they are simply not found).
public struct MFAService: Sendable {
    let verifications: VerificationService
    let store: any VerificationStore
    let clock: any Clock
    let random: any RandomSource
    let issuer: CredentialIssuer
    public let policy: MFAPolicy

    public init(
        verifications: VerificationService, store: any VerificationStore, clock: any Clock, random: any RandomSource,
        issuer: CredentialIssuer, policy: MFAPolicy = MFAPolicy()
    ) {
        self.verifications = verifications
        self.store = store
        self.clock = clock
        self.random = random
        self.issuer = issuer
        self.policy = policy
    }

    /// Sends a code to a new phone (all limits and policies of first-factor verifications apply).
    /// A user who already has a factor needs a recent step-up to add another: otherwise whoever
    /// holds a password-only session could enrol their own phone and, stepping up with it,
    /// delete the user's real factors.
    public func enroll(
        _ principal: Principal, phoneNumber: String, defaultRegion: String?, locale: String?, clientIP: String,
        idempotencyKey: String? = nil
    ) throws -> StartOutcome {
        let number = try verifications.vet(phoneNumber, defaultRegion: defaultRegion)
        let existing = try store.read { try $0.factors(subject: principal.subject) }
        try Self.requireRoom(existing, for: number.e164, max: policy.maxFactors)
        if !existing.isEmpty { try requireRecentStepUp(principal) }
        return try verifications.start(StartRequest(
            phoneNumber: number.e164, channel: "sms", locale: locale, purpose: .mfaEnroll, subject: principal.subject,
            sessionID: principal.sessionID, clientIP: clientIP, idempotencyKey: idempotencyKey))
    }

    /// Confirms an enrolment with its code and stores the factor, in the approving transaction
    /// (which also requires a recent step-up if the user has gained a factor since enrolling).
    /// `displayName` is the name the user gives the phone ("Work phone"), checked before the code.
    public func confirm(
        _ principal: Principal, enrollmentID: String, code: String, clientIP: String, displayName: String? = nil
    ) throws -> Factor {
        let name = try Self.validDisplayName(displayName)
        let factorID = random.identifier(prefix: "fac_")
        let now = clock.now()
        let max = policy.maxFactors
        let stepUp = Result { try requireRecentStepUp(principal) }
        let recorder = verifications.eventRecorder
        let checked = try verifications.check(
            id: enrollmentID, code: code, clientIP: clientIP, purposes: [.mfaEnroll], owner: principal
        ) { v, tx in
            let existing = try tx.factors(subject: principal.subject)
            try Self.requireRoom(existing, for: v.phoneNumber, max: max)
            if !existing.isEmpty { try stepUp.get() }
            let factor = Factor(
                id: factorID, subject: principal.subject, phoneNumber: v.phoneNumber, countryCode: v.countryCode, createdAt: now,
                displayName: name)
            try tx.insertFactor(factor)
            try recorder?.factorEnrolled(factor, at: now, in: tx)
        }
        return Factor(
            id: factorID, subject: principal.subject, phoneNumber: checked.verification.phoneNumber,
            countryCode: checked.verification.countryCode, createdAt: now, displayName: name)
    }

    public func factors(_ principal: Principal) throws -> [Factor] {
        try store.read { try $0.factors(subject: principal.subject) }
    }

    /// Deletes a factor; needs a recent step-up (see `requireRecentStepUp`).
    public func deleteFactor(_ principal: Principal, id: String) throws -> Factor {
        try requireRecentStepUp(principal)
        return try deleteFactor(subject: principal.subject, id: id)
    }

    /// Sends a code to an enrolled phone.
    public func challenge(_ principal: Principal, factorID: String, locale: String?, clientIP: String) throws -> (StartOutcome, Factor) {
        guard let factor = try store.read({ try $0.factor(id: factorID) }), factor.subject == principal.subject else {
            throw VerifyError(.notFound, "no factor with this id")
        }
        let outcome = try verifications.start(StartRequest(
            phoneNumber: factor.phoneNumber, channel: "sms", locale: locale, purpose: .mfaStepUp, subject: principal.subject,
            sessionID: principal.sessionID, clientIP: clientIP))
        return (outcome, factor)
    }

    /// Verifies a challenge started by the same user in the same session and issues the step-up
    /// credential. A challenge whose factor was deleted meanwhile (a lost phone removed) is not
    /// found: its approval is undone.
    public func verify(_ principal: Principal, challengeID: String, code: String, clientIP: String) throws -> ApprovedCheck {
        let now = clock.now()
        try issuer.requireSigner()
        let checked = try verifications.check(
            id: challengeID, code: code, clientIP: clientIP, purposes: [.mfaStepUp], owner: principal
        ) { v, tx in
            guard let factor = try tx.factors(subject: principal.subject).first(where: { $0.phoneNumber == v.phoneNumber }) else {
                throw VerifyError(.notFound, "the factor of this challenge was removed")
            }
            try tx.touchFactor(id: factor.id, at: now)
        }
        let credential = try issuer.stepUp(for: principal, verification: checked.verification, at: now)
        return ApprovedCheck(verification: checked.verification, credential: credential, rateLimit: checked.rateLimit)
    }

    /// Passes for PhoneVerify's own step-up credential, or a primary token whose `amr` includes
    /// "mfa", when its `auth_time` is within `stepUpMaxAge`; otherwise `step_up_required`.
    public func requireRecentStepUp(_ principal: Principal) throws {
        let stepped = principal.isStepUpCredential ? principal.acr == "aal2" : principal.authenticationMethods.contains("mfa")
        // An `auth_time` in the future (beyond a minute of clock skew) would count as recent for ever.
        let recent = principal.authTime.map { (-60...Double(policy.stepUpMaxAge)).contains(clock.now().timeIntervalSince($0)) } ?? false
        guard stepped && recent else {
            throw VerifyError(
                .stepUpRequired, "this operation needs a recent step-up authentication (a PhoneVerify step-up credential)",
                details: ["max_age": .int(Int64(policy.stepUpMaxAge)), "acr_values": "aal2"])
        }
    }

    // MARK: Administration (support staff, behind the admin API key)

    public func factors(subject: String) throws -> [Factor] {
        try store.read { try $0.factors(subject: subject) }
    }

    public func deleteFactor(subject: String, id: String) throws -> Factor {
        let recorder = verifications.eventRecorder
        let now = clock.now()
        return try store.write { tx -> Factor in
            guard let factor = try tx.factor(id: id), factor.subject == subject else {
                throw VerifyError(.notFound, "no factor with this id")
            }
            try tx.deleteFactor(id: id)
            try recorder?.factorDeleted(factor, at: now, in: tx)
            return factor
        }
    }

    static func requireRoom(_ existing: [Factor], for phone: String, max: Int) throws {
        if existing.contains(where: { $0.phoneNumber == phone }) {
            throw VerifyError(.factorExists, "this phone number is already enrolled")
        }
        if existing.count >= max {
            throw VerifyError(.factorLimitReached, "at most \(max) phone factors per user", details: ["max_factors": .int(Int64(max))])
        }
    }
}
