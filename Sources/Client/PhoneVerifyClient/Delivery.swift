import Foundation

/// The delivery of a verification's latest message.
public struct Delivery: Codable, Sendable, Hashable {
    public var status: DeliveryStatus
    /// The channel this message went by. After a fallback it differs from the verification's
    /// `channel` (the one asked for): `whatsapp` asked, `sms` here means "we sent an SMS instead".
    public var channel: Channel
    /// The gateway that sent it (nil while queued).
    public var gateway: String?
    public var attempts: Int
    public var lastError: String?
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey, CaseIterable {
        case status, channel, gateway, attempts
        case lastError = "last_error"
        case updatedAt = "updated_at"
    }

    public init(
        status: DeliveryStatus, channel: Channel = .sms, gateway: String? = nil, attempts: Int = 0, lastError: String? = nil,
        updatedAt: Date
    ) {
        self.status = status
        self.channel = channel
        self.gateway = gateway
        self.attempts = attempts
        self.lastError = lastError
        self.updatedAt = updatedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(DeliveryStatus.self, forKey: .status)
        // Servers from before other channels existed sent SMS only and did not say so.
        channel = try container.decodeIfPresent(Channel.self, forKey: .channel) ?? .sms
        gateway = try container.decodeIfPresent(String.self, forKey: .gateway)
        attempts = try container.decode(Int.self, forKey: .attempts)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    }
}

/// Where a message stands. A state a newer server adds decodes as `.unknown` with its text.
public enum DeliveryStatus: RawRepresentable, Codable, Sendable, Hashable {
    case queued
    /// A gateway accepted it.
    case sent
    /// The vendor reported it delivered to the phone.
    case delivered
    /// Refused or given up; the app can offer another channel.
    case failed
    /// The vendor reported it could not be delivered.
    case undelivered
    /// A state this version of the client does not know (the server's text).
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "queued": self = .queued
        case "sent": self = .sent
        case "delivered": self = .delivered
        case "failed": self = .failed
        case "undelivered": self = .undelivered
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .queued: return "queued"
        case .sent: return "sent"
        case .delivered: return "delivered"
        case .failed: return "failed"
        case .undelivered: return "undelivered"
        case .unknown(let text): return text
        }
    }

    /// Values compare and hash by their text, so `.unknown("sms")` (built by hand) equals `.sms`.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension Verification {
    /// The channel the latest message actually went by when it is not the one asked for (a
    /// fallback: WhatsApp asked, SMS sent); nil otherwise, and before `status` reports a delivery.
    public var fallbackChannel: Channel? {
        guard let delivery, delivery.channel != channel, channel != .auto else { return nil }
        return delivery.channel
    }
}
