import Foundation
import VerifyCore

/// What the console's delivery and settings pages read besides the stores, passed in by the
/// application: the gateways' circuit-breaker states, the outbox queue, the signing keys and
/// the effective settings with secrets masked (as `phone-verify config check` prints them).
public struct ConsoleOperations: Sendable {
    /// Circuit breaker per gateway: `closed`, `half_open` or `open`.
    public var circuits: @Sendable () -> [(gateway: String, state: String)]
    /// Queued messages and the oldest one's creation time.
    public var queue: @Sendable () throws -> (count: Int, oldest: Date?)
    public var deliveryCounts: (any DeliveryStatsStore)?
    public var signingKeys: (any SigningKeyStore)?
    /// Setting name → value as shown (secrets masked, defaults marked).
    public var settings: [(name: String, value: String)]
    public var fraudHistory: (any FraudHistoryStore)?
    /// The rate limiter's logs and rules, for a number's send quota on the lookup page.
    public var limitLogs: (any LimitLogAdminStore)?
    public var limits: RateLimits
    /// `phoneverify_challenges_total` of this replica since it started.
    public var challenges: @Sendable () -> [(provider: String, outcome: String, count: Int)]
    /// Gateway calls of this replica in the last N seconds by gateway and outcome (`sent`,
    /// `retryable`, `permanent`, and `failover` for failovers taken by that gateway).
    public var calls: @Sendable (_ seconds: Int) -> [(gateway: String, outcome: String, count: Int)]
    /// The channel each gateway serves (`sms`, `whatsapp`, `call`), by name.
    public var gatewayChannels: [String: String] = [:]
    /// The verification log, one verification and its messages (the log page).
    public var log: (any VerificationLogStore)?
    public var verification: @Sendable (String) throws -> Verification?
    /// The conversion chart and the outboxes (the delivery page).
    public var stats: (any ConsoleStatsStore)?
    /// `PHONE_VERIFY_DEFAULT_REGION`: how a national number typed in the console is read.
    public var defaultRegion: String?

    public init(
        circuits: @escaping @Sendable () -> [(gateway: String, state: String)] = { [] },
        queue: @escaping @Sendable () throws -> (count: Int, oldest: Date?) = { (0, nil) },
        deliveryCounts: (any DeliveryStatsStore)? = nil, signingKeys: (any SigningKeyStore)? = nil,
        settings: [(name: String, value: String)] = [], fraudHistory: (any FraudHistoryStore)? = nil,
        challenges: @escaping @Sendable () -> [(provider: String, outcome: String, count: Int)] = { [] },
        limitLogs: (any LimitLogAdminStore)? = nil, limits: RateLimits = .defaults, log: (any VerificationLogStore)? = nil,
        stats: (any ConsoleStatsStore)? = nil, defaultRegion: String? = nil,
        verification: @escaping @Sendable (String) throws -> Verification? = { _ in nil },
        calls: @escaping @Sendable (_ seconds: Int) -> [(gateway: String, outcome: String, count: Int)] = { _ in [] }
    ) {
        self.log = log
        self.stats = stats
        self.defaultRegion = defaultRegion
        self.verification = verification
        self.calls = calls
        self.limitLogs = limitLogs
        self.limits = limits
        self.fraudHistory = fraudHistory
        self.challenges = challenges
        self.circuits = circuits
        self.queue = queue
        self.deliveryCounts = deliveryCounts
        self.signingKeys = signingKeys
        self.settings = settings
    }
}
