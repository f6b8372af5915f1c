import Foundation

/// A phone enrolled as a second factor for a user of the main auth server.
public struct Factor: Sendable, Equatable {
    public let id: String
    public let subject: String
    public let phoneNumber: String
    public let countryCode: Int
    public let createdAt: Date
    public var lastUsedAt: Date?

    public init(id: String, subject: String, phoneNumber: String, countryCode: Int, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.subject = subject
        self.phoneNumber = phoneNumber
        self.countryCode = countryCode
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// "+1*******2671": the only form of the number ever shown for a factor.
    public var phoneNumberHint: String { PhoneMask.mask(phoneNumber, countryCode: countryCode) }
}
