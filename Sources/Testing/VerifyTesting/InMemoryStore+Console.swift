import Foundation
import VerifyCore

// The operator console's reads (FactorAdminStore, DeliveryStatsStore, FraudHistoryStore).
extension InMemoryStore: FactorAdminStore {
    public func factors(phoneNumber: String, limit: Int) throws -> [Factor] {
        try read { reader in
            let tx = reader as! Transaction
            return Array(tx.state.factors.filter { $0.phoneNumber == phoneNumber }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.prefix(limit))
        }
    }
}

extension InMemoryStore: DeliveryStatsStore {
    public func deliveryCounts(since: Date, limit: Int) throws -> [DeliveryCount] {
        try read { reader in
            let tx = reader as! Transaction
            var counts: [String: (DeliveryCount, Int)] = [:]
            for m in tx.state.messages where m.createdAt >= since && (m.fallbackOf == nil || m.attempts > 0) {
                let region = tx.state.verifications[m.verificationID]?.region ?? "ZZ"
                let key = [m.gateway ?? "", region, m.channel.rawValue, m.status.rawValue].joined(separator: "\u{0}")
                let count = (counts[key]?.1 ?? 0) + 1
                let fallbacks = (counts[key]?.0.fallbacks ?? 0) + (m.fallbackOf == nil ? 0 : 1)
                counts[key] = (
                    DeliveryCount(gateway: m.gateway ?? "", region: region, status: m.status, count: count, channel: m.channel, fallbacks: fallbacks),
                    count
                )
            }
            return counts.sorted { $0.key < $1.key }.prefix(limit).map(\.value.0)
        }
    }
}

extension InMemoryStore: FraudHistoryStore {
    public func fraudHistory(since: Date, period: Int, keys: Int) throws -> [FraudHistoryPoint] {
        try read { reader in
            let tx = reader as! Transaction
            let recent = tx.state.fraud.mapValues { $0.filter { $0.key >= since } }.filter { !$0.value.isEmpty }
            let busiest = recent.map { ($0.key, $0.value.values.reduce(0) { $0 + $1.sent }) }
                .sorted { ($0.1, $1.0) > ($1.1, $0.0) }.prefix(keys).map(\.0)
            var points: [FraudHistoryPoint] = []
            for key in busiest.sorted() {
                var sums: [Date: (Int, Int)] = [:]
                for (bucket, counts) in recent[key] ?? [:] {
                    let start = Date(timeIntervalSince1970: (bucket.timeIntervalSince1970 / Double(period)).rounded(.down) * Double(period))
                    let before = sums[start] ?? (0, 0)
                    sums[start] = (before.0 + counts.sent, before.1 + counts.approved)
                }
                points += sums.keys.sorted().map { FraudHistoryPoint(key: key, start: $0, sent: sums[$0]!.0, approved: sums[$0]!.1) }
            }
            return points
        }
    }
}
