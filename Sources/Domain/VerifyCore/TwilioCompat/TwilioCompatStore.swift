import Foundation

/// The settings of a Twilio-compatible Verify service (`VA…`), as its API names them.
/// Stored as one JSON document, so settings can be added without a schema migration.
public struct TwilioCompatServiceSettings: Sendable, Equatable, Codable {
    public var friendlyName: String
    public var codeLength: Int
    public var lookupEnabled = false
    public var skipSmsToLandlines = false
    public var doNotShareWarningEnabled = false
    public var customCodeEnabled = false
    public var psd2Enabled = false
    public var dtmfInputRequired = false
    public var ttsName: String?
    public var defaultTemplateSid: String?
    public var verifyEventSubscriptionEnabled = false

    public init(friendlyName: String, codeLength: Int) {
        self.friendlyName = friendlyName
        self.codeLength = codeLength
    }
}

/// A Twilio-compatible Verify service: settings that drive its verifications, owned by one account.
public struct TwilioCompatServiceRecord: Sendable, Equatable {
    public let sid: String
    public let accountSID: String
    public var settings: TwilioCompatServiceSettings
    public let createdAt: Date
    public var updatedAt: Date

    public init(sid: String, accountSID: String, settings: TwilioCompatServiceSettings, createdAt: Date, updatedAt: Date) {
        self.sid = sid
        self.accountSID = accountSID
        self.settings = settings
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Which service (and account) a verification started through the Twilio-compatible API belongs to.
public struct TwilioCompatVerificationLink: Sendable, Equatable {
    public let verificationID: String
    public let serviceSID: String
    public let accountSID: String
    /// The E.164 number, as the verification has it.
    public let to: String
    public let createdAt: Date

    public init(verificationID: String, serviceSID: String, accountSID: String, to: String, createdAt: Date) {
        self.verificationID = verificationID
        self.serviceSID = serviceSID
        self.accountSID = accountSID
        self.to = to
        self.createdAt = createdAt
    }
}

/// Reads of the Twilio-compatible records, available in and out of write transactions of a
/// `TwilioCompatStore` (its `StoreReader`s and `StoreTransaction`s conform).
public protocol TwilioCompatReader {
    func twilioCompatService(sid: String) throws -> TwilioCompatServiceRecord?
    /// An account's services, oldest first (then by sid): `limit` of them after skipping `offset`.
    func twilioCompatServices(accountSID: String, offset: Int, limit: Int) throws -> [TwilioCompatServiceRecord]
    func twilioCompatLink(verificationID: String) throws -> TwilioCompatVerificationLink?
    /// The id of the newest verification linked to `serviceSID` for `to`, whatever its status.
    func twilioCompatLatestVerificationID(serviceSID: String, to: String) throws -> String?
    /// Ids of the service's linked verifications whose stored status is still pending.
    func twilioCompatPendingVerificationIDs(serviceSID: String) throws -> [String]
    /// Every outbox message of a verification, oldest first (one per send).
    func twilioCompatMessages(verificationID: String) throws -> [OutboxMessage]
}

/// Writes of the Twilio-compatible records, inside `VerificationStore.write`.
public protocol TwilioCompatTransaction: TwilioCompatReader {
    /// Inserts or replaces a service.
    func saveTwilioCompatService(_ service: TwilioCompatServiceRecord) throws
    func deleteTwilioCompatService(sid: String) throws
    func linkTwilioCompatVerification(_ link: TwilioCompatVerificationLink) throws
}

/// A store that keeps the Twilio-compatible API's services and links: its readers and write
/// transactions also conform to `TwilioCompatReader` / `TwilioCompatTransaction`. A separate
/// protocol, so stores without it (test doubles, say) still build; the application enables the
/// `/v2/…` endpoints only for a store that conforms (SQLite and PostgreSQL do).
public protocol TwilioCompatStore: VerificationStore {}

extension TwilioCompatStore {
    /// A write whose body sees the compat records.
    public func twilioCompatWrite<T: Sendable>(
        reading: ReadSet = ReadSet(), _ body: @escaping @Sendable (any StoreTransaction & TwilioCompatTransaction) throws -> T
    ) throws -> T {
        try write(reading: reading) { tx in try body(try Self.compat(tx)) }
    }

    /// A read that sees the compat records.
    public func twilioCompatRead<T: Sendable>(_ body: @escaping @Sendable (any StoreReader & TwilioCompatReader) throws -> T) throws -> T {
        try read { reader in
            guard let compat = reader as? any StoreReader & TwilioCompatReader else { throw Self.unsupported }
            return try body(compat)
        }
    }

    static func compat(_ tx: any StoreTransaction) throws -> any StoreTransaction & TwilioCompatTransaction {
        guard let compat = tx as? any StoreTransaction & TwilioCompatTransaction else { throw unsupported }
        return compat
    }

    static var unsupported: VerifyError {
        VerifyError(.unavailable, "this store does not keep the Twilio-compatible API's records")
    }
}
