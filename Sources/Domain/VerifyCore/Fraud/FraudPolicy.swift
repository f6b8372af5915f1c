import Foundation

/// Adaptive SMS-pumping protection (docs/ABUSE.md, "Fraud guard"): each destination block is
/// judged against its own recent baseline of volume and its conversion (approved ÷ sent) over a
/// sliding window; a country is paused only when many of its blocks are anomalous, its volume is
/// far above its own baseline and the traffic comes from many clients.
public struct FraudPolicy: Sendable, Equatable {
    public var enabled = true
    /// Sends in the window before a block's or country's conversion can pause it.
    public var minSends = 50
    /// Below this approved ÷ sent ratio (with `minSends`), a block or country is paused.
    public var minConversion = 0.2
    /// Seconds of history that count.
    public var window = 3600
    /// Counters are kept in buckets of this many seconds (the window slides by a bucket).
    public var bucket = 300
    /// A block with this many unconfirmed codes in the window — and at least `surge` times its
    /// usual number — is watched: with a challenge provider, its starts need a challenge.
    public var watchSends = 3
    /// "Far above its baseline": at least this many times the key's average per window over the
    /// `baseline` seconds before the current window.
    public var surge = 3.0
    public var baseline = 82_800
    /// A country pauses only with at least this many sends, anomalous blocks and distinct client
    /// networks (IPv4 /24, IPv6 /48) in the window.
    public var countryMinSends = 200
    public var countryBlocks = 5
    public var countryClients = 10
    /// While a block is watched or paused (or a country paused), it admits at most its usual
    /// volume of unconfirmed codes: those that made it watched plus its baseline sends per window,
    /// at least this many, so a quiet destination still serves a user (docs/ABUSE.md). A captcha
    /// only decides who gets them; confirmed codes free them again.
    public var floor = 3
    /// Sends per key and window admitted above that volume with device-bound proof (App Attest,
    /// Play Integrity) or a grant from the customer's backend bound to the number: each costs a
    /// real device or the customer's own vouching.
    public var proofRate = 10
    /// A start whose SMS destination the guard refuses goes out over WhatsApp only, when that
    /// channel is enabled (`auto` always; a plain SMS start when this is on).
    public var steerToWhatsApp = true

    public init() {}
}

/// An operator's decision about a prefix or country key.
public enum FraudAction: String, Sendable, Codable, CaseIterable {
    case allow
    case block
}

/// Counters and override of one key, for operators.
public struct FraudStat: Sendable, Equatable {
    public let key: String
    public let sent: Int
    public let approved: Int
    public let action: FraudAction?

    public init(key: String, sent: Int, approved: Int, action: FraudAction?) {
        self.key = key
        self.sent = sent
        self.approved = approved
        self.action = action
    }

    public var conversion: Double? { sent == 0 ? nil : Double(approved) / Double(sent) }
}

/// The guard's judgement of one key, with the reason in words (shown in `fraud list`, the admin
/// API and a refusal's details).
public struct FraudVerdict: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Nothing unusual.
        case normal
        /// Unusual: with a challenge provider (suspicious mode), starts need a challenge.
        case watched
        /// Anomalous: refused (`suspected_fraud`), or with a challenge provider, a challenge.
        case paused
        /// An operator blocked the key: refused.
        case blocked
        /// An operator allowed the key: never judged.
        case allowed
    }

    public let key: String
    public let state: State
    public let reason: String
    public let sent: Int
    public let approved: Int

    public init(key: String, state: State, reason: String, sent: Int, approved: Int) {
        self.key = key
        self.state = state
        self.reason = reason
        self.sent = sent
        self.approved = approved
    }

    /// Starts to it need a challenge (or, without one, are refused when paused).
    public var isRisky: Bool { state == .watched || state == .paused }
}
