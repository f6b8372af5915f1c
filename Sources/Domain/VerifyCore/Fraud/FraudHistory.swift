import Foundation

/// One fraud key's counts in one period (an hour on the console's fraud page).
public struct FraudHistoryPoint: Sendable, Equatable {
    /// `country:XX` or `prefix:+DIGITS` (FraudGuard's keys).
    public let key: String
    /// The period's start.
    public let start: Date
    public let sent: Int
    public let approved: Int

    public init(key: String, start: Date, sent: Int, approved: Int) {
        self.key = key
        self.start = start
        self.sent = sent
        self.approved = approved
    }
}

/// The fraud guard's counters over time, grouped by the store: the `keys` busiest keys since
/// `since` (most sent first), each summed per `period` seconds. At most keys × periods rows.
public protocol FraudHistoryStore: Sendable {
    func fraudHistory(since: Date, period: Int, keys: Int) throws -> [FraudHistoryPoint]
}
