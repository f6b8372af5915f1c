import Foundation

/// Judges destinations block first (docs/ABUSE.md, "Fraud guard"). Reads the window's counters
/// of a block and its country (prefetched with the transaction); baselines and distinct counts
/// are read only when a key already looks anomalous, so a healthy start pays nothing more.
public struct FraudGuard: Sendable {
    public let policy: FraudPolicy

    public init(policy: FraudPolicy) {
        self.policy = policy
    }

    /// The keys a number is judged by: its destination block and its country. A tenant's (a
    /// Twilio-compatible account's) keys end in `~ACCOUNT`: its traffic pauses only its own sends
    /// (docs/ABUSE.md, "A tenant is one client").
    public static func keys(prefix: String, region: String, channel: Channel = .sms, tenant: String? = nil) -> [String] {
        let suffix = (channel == .sms ? "" : "@" + channel.rawValue) + (tenant.map { "~" + $0 } ?? "")
        return ["prefix:" + prefix + suffix, "country:" + region + suffix]
    }

    /// The destination a tenant's key judges (`prefix:+…~AC…` → `prefix:+…`), whose operator
    /// decisions apply to every tenant; nil for a key of no tenant.
    static func destination(of key: String) -> String? {
        key.firstIndex(of: "~").map { String(key[..<$0]) }
    }

    /// Where the counters `assess` reads begin (`nil` when the guard is off).
    public func countsSince(_ now: Date) -> Date? {
        policy.enabled ? now.addingTimeInterval(-TimeInterval(policy.window)) : nil
    }

    /// The verdicts of a destination: its block (`keys[0]`) and its country (`keys[1]`).
    /// With several channels' pairs (`AbuseProtection.fraudKeys`), the verdicts of each pair in turn.
    public func assess(keys: [String], now: Date, in tx: any StoreReader) throws -> [FraudVerdict] {
        guard policy.enabled, keys.count >= 2, keys.count % 2 == 0 else { return [] }
        return try keys.map { try verdict(key: $0, now: now, in: tx) }
    }

    /// One key's verdict.
    public func verdict(key: String, now: Date, in tx: any StoreReader) throws -> FraudVerdict {
        let since = now.addingTimeInterval(-TimeInterval(policy.window))
        let counts = try tx.fraudCounts(key: key, since: since)
        func make(_ state: FraudVerdict.State, _ reason: String) -> FraudVerdict {
            FraudVerdict(key: key, state: state, reason: reason, sent: counts.sent, approved: counts.approved)
        }
        // A tenant's own key's decision first; of the destination's, a block holds for every
        // tenant too (an allow never switches off the judging of a tenant's traffic).
        var override = try tx.fraudOverride(key: key)
        if override == nil, let destination = Self.destination(of: key), try tx.fraudOverride(key: destination) == .block { override = .block }
        switch override {
        case .allow: return make(.allowed, "allowed by an operator")
        case .block: return make(.blocked, "blocked by an operator")
        case nil: break
        }
        let percent = counts.sent == 0 ? 0 : Int((100 * Double(counts.approved) / Double(counts.sent)).rounded())
        let isCountry = key.hasPrefix("country:")
        let lowConversion = counts.sent >= policy.minSends && isLow(counts, policy.minConversion)
        if isCountry {
            guard lowConversion else { return make(.normal, "") }
            // A country's usual traffic with a low conversion (slow users, poor delivery) is not
            // an attack: only a surge over its baseline is watched.
            let surge = try surgeFactor(key: key, counts: counts, now: now, in: tx)
            guard surge >= policy.surge else { return make(.normal, "") }
            let region = String(key.dropFirst("country:".count))
            let blocks = try distinctCount(Self.anomalousBlocksKey(region), since: since, in: tx)
            let networks = try distinctCount(Self.clientsKey(region), since: since, in: tx)
            // Sends to anomalous blocks are those blocks' to answer for (each is held to its
            // usual volume): the country pauses only for a surge they cannot explain.
            let unexplained = max(0, counts.sent - (try distinctCount(Self.anomalousSendsKey(region), since: since, in: tx)))
            let facts = "\(counts.sent) sends in the last \(policy.window / 60) min, \(percent) % confirmed, "
                + "volume \(Self.describe(surge)) its baseline; \(blocks) anomalous blocks, \(counts.sent - unexplained) sends to them, "
                + "\(networks) client networks"
            if unexplained >= policy.countryMinSends, blocks >= policy.countryBlocks, networks >= policy.countryClients {
                return make(.paused, "too few codes to this country are confirmed: " + facts)
            }
            return make(.watched, "conversion in this country is low: " + facts)
        }
        if lowConversion {
            let surge = try surgeFactor(key: key, counts: counts, now: now, in: tx)
            let facts = "\(counts.sent) sends in the last \(policy.window / 60) min, \(percent) % confirmed, volume \(Self.describe(surge)) its baseline"
            if surge >= policy.surge { return make(.paused, "too few codes to this block are confirmed: " + facts) }
            return make(.watched, "conversion in this block is low, at its usual volume: " + facts)
        }
        // Unconfirmed codes beyond the block's usual number: an attacker's sends never confirm, so
        // legitimate confirmations in the same block cannot hide them (a conversion ratio would).
        let unconfirmed = counts.sent - counts.approved
        if unconfirmed >= policy.watchSends {
            let usual = try baselinePerWindow(key: key, counts: counts, now: now, in: tx)
            let usualUnconfirmed = usual.sent - usual.approved
            if Double(unconfirmed) >= policy.surge * usualUnconfirmed {
                return make(.watched, "\(unconfirmed) of \(counts.sent) codes in the last \(policy.window / 60) min unconfirmed, "
                    + (usualUnconfirmed == 0 ? "none usually" : String(format: "%.1f usually", usualUnconfirmed)))
            }
        }
        return make(.normal, "")
    }

    func isLow(_ counts: (sent: Int, approved: Int), _ ratio: Double) -> Bool {
        Double(counts.approved) < ratio * Double(counts.sent)
    }

    /// The window's volume ÷ the key's average volume per window over the baseline before it
    /// (infinite with no history: a destination nobody used is far above its baseline).
    func surgeFactor(key: String, counts: (sent: Int, approved: Int), now: Date, in tx: any StoreReader) throws -> Double {
        let perWindow = try baselinePerWindow(key: key, counts: counts, now: now, in: tx).sent
        return perWindow == 0 ? .infinity : Double(counts.sent) / perWindow
    }

    /// The key's average sends and approvals per window over the baseline before the window.
    func baselinePerWindow(key: String, counts: (sent: Int, approved: Int), now: Date, in tx: any StoreReader) throws
        -> (sent: Double, approved: Double)
    {
        let windowStart = now.addingTimeInterval(-TimeInterval(policy.window))
        let all = try tx.fraudHistory(key: key, since: windowStart.addingTimeInterval(-TimeInterval(policy.baseline)))
        let scale = Double(policy.window) / Double(policy.baseline)
        return (Double(max(0, all.sent - counts.sent)) * scale, Double(max(0, all.approved - counts.approved)) * scale)
    }

    static func describe(_ factor: Double) -> String {
        factor.isInfinite ? "far above (no history)" : String(format: "%.1f×", factor)
    }

    /// Counters of distinct members (anomalous blocks, clients) of a country: a member counts
    /// once per window (`noteDistinct`).
    static func anomalousBlocksKey(_ region: String) -> String { "anomalous_blocks:" + region }
    static func clientsKey(_ region: String) -> String { "clients:" + region }
    /// Sends in the window to the country's anomalous blocks (each block's earlier sends are
    /// added when it first turns anomalous).
    static func anomalousSendsKey(_ region: String) -> String { "anomalous_sends:" + region }

    /// The network a client counts as for "many clients": its IPv4 /24 or IPv6 /48 (one home
    /// connection commonly holds 256 IPv6 /64s, and one host a few neighbouring IPv4 addresses).
    static func network(of client: String) -> String {
        // A Twilio-compatible account is one client, whatever `DeviceIp` values it names
        // (`ACCOUNT/ip`, or the server caller `server-caller:ACCOUNT`).
        if let tenant = AbuseProtection.tenant(ofClient: client) { return "tenant:" + tenant }
        if client.hasSuffix("::/64") {
            let groups = client.dropLast("::/64".count).split(separator: ":", omittingEmptySubsequences: false)
            return groups.prefix(3).joined(separator: ":") + "::/48"
        }
        let octets = client.split(separator: ".")
        if octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            return octets.prefix(3).joined(separator: ".") + ".0/24"
        }
        return client.isEmpty ? "unknown" : client
    }

    func distinctCount(_ key: String, since: Date, in tx: any StoreReader) throws -> Int {
        try tx.fraudCounts(key: key, since: since).sent
    }

    /// Counts `member` in the distinct set `set` unless it was counted within the window; true
    /// when it is new.
    @discardableResult
    func noteDistinct(_ set: String, member: String, now: Date, in tx: any StoreTransaction) throws -> Bool {
        let seen = "seen:" + set + "|" + member
        let since = now.addingTimeInterval(-TimeInterval(policy.window))
        guard try tx.fraudCounts(key: seen, since: since).sent == 0 else { return false }
        try tx.addFraudCounts(key: seen, bucket: bucket(now), sent: 1, approved: 0)
        try tx.addFraudCounts(key: set, bucket: bucket(now), sent: 1, approved: 0)
        return true
    }

    /// Records one send to a destination judged `verdicts` from `client`: its counters, and, when
    /// the destination looks anomalous, the distinct blocks and clients its country's verdict needs.
    /// `rooms`: where each capped key stood (`room`), whose admitted sends are counted too.
    public func recordSend(
        keys: [String], verdicts: [FraudVerdict], rooms: [String: Room] = [:], client: String, now: Date, in tx: any StoreTransaction
    ) throws {
        guard policy.enabled else { return }
        // The first pair is the channel sent at once; a fallback's pair is judged, not counted.
        let keys = Array(keys.prefix(2))
        for key in keys {
            try tx.addFraudCounts(key: key, bucket: bucket(now), sent: 1, approved: 0)
            if let room = rooms[key] { try recordAdmitted(key, room: room, now: now, in: tx) }
        }
        guard keys.count == 2, keys[1].hasPrefix("country:") else { return }
        let region = String(keys[1].dropFirst("country:".count))
        if let block = verdicts.first, block.isRisky {
            // A block newly anomalous brings its window's earlier sends with it.
            let new = try noteDistinct(Self.anomalousBlocksKey(region), member: keys[0], now: now, in: tx)
            try tx.addFraudCounts(key: Self.anomalousSendsKey(region), bucket: bucket(now), sent: 1 + (new ? block.sent : 0), approved: 0)
        }
        if verdicts.contains(where: \.isRisky) {
            try noteDistinct(Self.clientsKey(region), member: Self.network(of: client), now: now, in: tx)
        }
    }

    public func recordApproval(keys: [String], now: Date, in tx: any StoreTransaction) throws {
        guard policy.enabled else { return }
        for key in keys { try tx.addFraudCounts(key: key, bucket: bucket(now), sent: 0, approved: 1) }
    }

    func bucket(_ now: Date) -> Date {
        let size = Double(policy.bucket)
        return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / size).rounded(.down) * size)
    }
}
