import Foundation
import VerifyCore

// The console's verification log and delivery aggregates, by the rules the SQL stores follow.
extension InMemoryStore: VerificationLogStore {
    public func verificationLog(_ q: VerificationLogQuery) throws -> VerificationLogPage {
        try read { reader in
            let tx = reader as! Transaction
            var ordered = tx.state.verifications.values.filter { v in
                (q.since.map { v.createdAt >= $0 } ?? true) && (q.until.map { v.createdAt < $0 } ?? true)
                    && (q.after.map { (v.createdAt, v.id) < ($0.createdAt, $0.id) } ?? true)
            }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
            var bound: VerificationLogCursor?
            if let phone = q.phoneNumber {
                ordered = ordered.filter { $0.phoneNumber == phone }
            } else if ordered.count >= VerificationLogQuery.scanLimit {
                ordered = Array(ordered.prefix(VerificationLogQuery.scanLimit))
                bound = ordered.last.map { VerificationLogCursor(createdAt: $0.createdAt, id: $0.id) }
            }
            let matched = ordered.filter { v in
                let channels = Set(tx.state.messages.filter { $0.verificationID == v.id && ($0.fallbackOf == nil || $0.attempts > 0) }.map(\.channel))
                return q.matches(v, channels: channels)
            }
            let entries = try matched.prefix(q.limit).map { VerificationLogEntry(verification: $0, message: try tx.latestMessage(verificationID: $0.id)) }
            let next = matched.count > q.limit ? entries.last.map { VerificationLogCursor(createdAt: $0.verification.createdAt, id: $0.verification.id) } : bound
            return VerificationLogPage(entries: entries, next: next)
        }
    }

    public func messages(verificationID: String, limit: Int) throws -> [OutboxMessage] {
        try read { reader in Array((reader as! Transaction).state.messages.filter { $0.verificationID == verificationID }.prefix(limit)) }
    }
}

extension InMemoryStore: ConsoleStatsStore {
    public func conversion(since: Date, period: Int, limit: Int) throws -> [ConversionPoint] {
        try read { reader in
            let tx = reader as! Transaction
            var groups: [String: (Date, String, String, Int, Int)] = [:]
            for v in tx.state.verifications.values where v.createdAt >= since {
                let start = Date(timeIntervalSince1970: (v.createdAt.timeIntervalSince1970 / Double(period)).rounded(.down) * Double(period))
                let key = "\(start.timeIntervalSince1970)|\(v.region)|\(v.channel)"
                let before = groups[key] ?? (start, v.region, v.channel, 0, 0)
                groups[key] = (start, v.region, v.channel, before.3 + 1, before.4 + (v.approvedAt == nil ? 0 : 1))
            }
            return groups.values.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.prefix(limit)
                .map { ConversionPoint(start: $0.0, region: $0.1, channel: $0.2, started: $0.3, approved: $0.4) }
        }
    }

    public func outboxBacklog(now: Date) throws -> OutboxBacklog {
        try read { reader in
            let queued = (reader as! Transaction).state.messages.filter { $0.status == .queued }
            let scheduled = { (m: OutboxMessage) in m.fallbackOf != nil && m.attempts == 0 && m.nextAttemptAt > now }
            let due = queued.filter { !scheduled($0) }
            return OutboxBacklog(due: due.count, oldestDue: due.map(\.createdAt).min(), scheduledFallbacks: queued.count - due.count)
        }
    }

    public func events(mentioning id: String, from: Date, to: Date, limit: Int) throws -> [EventRecord] {
        withState { state in
            state.events.filter { e in
                e.event.body.contains("\"" + id + "\"") && (e.status == .queued || (e.updatedAt >= from && e.updatedAt <= to))
            }
            .sorted { ($0.event.createdAt, $0.event.id) < ($1.event.createdAt, $1.event.id) }.prefix(limit)
            .map {
                EventRecord(
                    id: $0.event.id, type: $0.event.type.rawValue, status: $0.status.rawValue, attempts: $0.attempts, lastError: $0.lastError,
                    createdAt: $0.event.createdAt)
            }
        }
    }

    public func eventBacklog(failedSince: Date) throws -> EventBacklog {
        withState { state in
            let pending = state.events.filter { $0.status == .queued }
            return EventBacklog(
                pending: pending.count, oldestPending: pending.map(\.event.createdAt).min(),
                failed: state.events.filter { $0.status == .failed && $0.updatedAt >= failedSince }.count)
        }
    }
}
