import Foundation

/// A phone enrolled as a second factor for a user of the main auth server.
public struct Factor: Sendable, Equatable {
    public let id: String
    public let subject: String
    public let phoneNumber: String
    public let countryCode: Int
    public let createdAt: Date
    public var lastUsedAt: Date?
    /// A name the user knows the phone by ("Work phone"), when one was given (an imported
    /// Firebase factor's `displayName`); shown beside the masked number.
    public var displayName: String?

    public init(
        id: String, subject: String, phoneNumber: String, countryCode: Int, createdAt: Date, lastUsedAt: Date? = nil,
        displayName: String? = nil
    ) {
        self.id = id
        self.subject = subject
        self.phoneNumber = phoneNumber
        self.countryCode = countryCode
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.displayName = displayName
    }

    /// The longest display name, in characters.
    public static let maxDisplayNameLength = 64

    /// "+1*******2671": the only form of the number ever shown for a factor.
    public var phoneNumberHint: String { PhoneMask.mask(phoneNumber, countryCode: countryCode) }
}
