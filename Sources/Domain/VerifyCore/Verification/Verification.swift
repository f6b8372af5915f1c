import Foundation

/// Why a verification exists.
public enum Purpose: String, Sendable, Codable, CaseIterable {
    case signIn = "sign_in"
    case mfaEnroll = "mfa_enroll"
    case mfaStepUp = "mfa_step_up"
    /// Started on behalf of an API that runs the flow for its own caller (a feature with a wire
    /// protocol of its own, such as a compatibility API): the caller may choose the code (custom
    /// codes) and the number, so it never yields a credential and the native routes never see it.
    /// The stored labels are the ones rows have carried since before the domain had this name.
    case delegated = "twilio_compat"
    /// A delegated verification that has carried a caller-chosen code (`SendOptions.customCode`):
    /// its approval proves nothing about who holds the phone, so it is never a conversion for the
    /// fraud guard (a tenant could otherwise lift a pause by checking its own codes).
    case delegatedCustomCode = "twilio_compat_custom_code"

    /// Started on behalf of another API, with or without a custom code.
    public var isDelegated: Bool { self == .delegated || self == .delegatedCustomCode }
}

/// Lifecycle of a verification. `expired` is never stored: it is derived from `expiresAt`.
public enum VerificationStatus: String, Sendable, Codable {
    case pending
    case approved
    case canceled
    case expired
    case maxAttemptsReached = "max_attempts_reached"
}

/// One phone verification: a code sent (possibly several times) and checked.
public struct Verification: Sendable, Equatable, Codable {
    public var id: String
    public var phoneNumber: String
    /// International format for people, e.g. "+1 415-555-2671".
    public var display: String
    public var region: String
    public var countryCode: Int
    public var channel: String
    public var locale: String?
    public var purpose: Purpose
    /// MFA only: the main auth server's user id and session id.
    public var subject: String?
    public var sessionID: String?
    /// Stored status (never `expired`; see `status(at:)`).
    public var storedStatus: VerificationStatus
    public var codeHash: [UInt8]
    public var codeLength: Int
    public var attempts: Int
    public var maxAttempts: Int
    public var sends: Int
    public var maxSends: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var lastSentAt: Date
    public var resendAvailableAt: Date
    public var approvedAt: Date?

    public init(
        id: String, phoneNumber: String, display: String, region: String, countryCode: Int, channel: String = "sms",
        locale: String?, purpose: Purpose, subject: String? = nil, sessionID: String? = nil,
        storedStatus: VerificationStatus = .pending, codeHash: [UInt8], codeLength: Int,
        attempts: Int = 0, maxAttempts: Int, sends: Int = 1, maxSends: Int,
        createdAt: Date, expiresAt: Date, lastSentAt: Date, resendAvailableAt: Date, approvedAt: Date? = nil
    ) {
        self.id = id
        self.phoneNumber = phoneNumber
        self.display = display
        self.region = region
        self.countryCode = countryCode
        self.channel = channel
        self.locale = locale
        self.purpose = purpose
        self.subject = subject
        self.sessionID = sessionID
        self.storedStatus = storedStatus
        self.codeHash = codeHash
        self.codeLength = codeLength
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.sends = sends
        self.maxSends = maxSends
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastSentAt = lastSentAt
        self.resendAvailableAt = resendAvailableAt
        self.approvedAt = approvedAt
    }

    /// The status a client sees at `now`: a pending verification past its expiry is `expired`.
    public func status(at now: Date) -> VerificationStatus {
        if storedStatus == .pending && now >= expiresAt { return .expired }
        return storedStatus
    }

    public var attemptsRemaining: Int { max(0, maxAttempts - attempts) }

    /// The masked number for logs and hints.
    public var maskedPhoneNumber: String { PhoneMask.mask(phoneNumber, countryCode: countryCode) }
}

/// What a client sees of a verification: the verification plus its latest delivery.
public struct VerificationView: Sendable, Equatable {
    public let verification: Verification
    public let status: VerificationStatus
    public let delivery: Delivery?

    public init(verification: Verification, status: VerificationStatus, delivery: Delivery?) {
        self.verification = verification
        self.status = status
        self.delivery = delivery
    }
}
