import Foundation

/// How many messages created since some time are in `status`, per gateway and per region of
/// their verification: a row of the console's delivery page.
public struct DeliveryCount: Sendable, Equatable {
    /// The gateway that took the message; "" while none has.
    public let gateway: String
    /// ISO region of the verification's number ("ZZ" when unknown).
    public let region: String
    public let status: DeliveryStatus
    public let count: Int
    /// The channel the messages went by.
    public let channel: Channel
    /// How many of them were `auto` fallbacks (the first channel failed or stayed silent).
    public let fallbacks: Int

    public init(gateway: String, region: String, status: DeliveryStatus, count: Int, channel: Channel = .sms, fallbacks: Int = 0) {
        self.gateway = gateway
        self.region = region
        self.status = status
        self.count = count
        self.channel = channel
        self.fallbacks = fallbacks
    }
}

/// Delivery counts grouped by the store (one query, bounded by gateways × regions × statuses,
/// never one row per message).
public protocol DeliveryStatsStore: Sendable {
    /// Messages created at or after `since`, grouped by gateway, region, channel and status (a
    /// fallback never tried is not counted); at most `limit` groups.
    func deliveryCounts(since: Date, limit: Int) throws -> [DeliveryCount]
}
