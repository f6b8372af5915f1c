import Foundation
import Postgres
import VerifyCore

/// Reads answered from what the transaction fetched, falling back to one statement on a miss.
extension CachedTransaction {
    // MARK: StoreReader

    func verification(id: String) throws -> Verification? {
        if let change = changes.verifications[id] {
            if change.inserted { return change.value }
            if let known = fetched.verifications[id] { return known == nil ? nil : change.value }
            changes.misses.verifications.insert(id)
            return change.value
        }
        if let known = fetched.verifications[id] { return known }
        changes.misses.verifications.insert(id)
        return nil
    }

    func latestMessage(verificationID: String) throws -> OutboxMessage? {
        var latest: OutboxMessage?
        if let known = fetched.latestMessages[verificationID] {
            latest = known
        } else {
            changes.misses.latestMessages.insert(verificationID)
        }
        for change in changes.outbox[verificationID] ?? [] {
            switch change {
            case .enqueue(let message):
                // A fallback waiting for its time is not the delivery (`PostgresRows.isDelivery`).
                if message.fallbackOf != nil && message.attempts == 0 { continue }
                // Newest created first; among equals the later insert (SQLite: rowid, here: seq).
                if latest.map({ Self.ms(message.createdAt) >= Self.ms($0.createdAt) }) ?? true { latest = message }
            case .supersede(let reason, let at):
                if var message = latest, message.status == .queued {
                    message.status = .failed
                    message.lastError = reason
                    message.sealedPayload = []
                    message.updatedAt = at
                    latest = message
                }
            }
        }
        return latest
    }

    func idempotencyRecord(key: String, notBefore: Date) throws -> IdempotencyRecord? {
        let record: IdempotencyRecord?
        if let saved = changes.idempotency[key] {
            record = saved
        } else if let known = fetched.idempotency[key] {
            record = known
        } else {
            changes.misses.idempotencyKeys.insert(key)
            record = nil
        }
        guard let record, Self.ms(record.createdAt) >= Self.ms(notBefore) else { return nil }
        return record
    }

    func ping() throws {
        // A write transaction reaches the server anyway; a read asks it.
        guard mode == .read, !fetched.pinged else { return }
        changes.misses.ping = true
    }

    func limitEvents(key: String) throws -> [Int64] {
        if let events = changes.limitLogs[key] { return events }
        if let events = fetched.limitLogs[key] { return events }
        changes.misses.limitKeys.insert(key)
        return []
    }

    func fraudCounts(key: String, since: Date) throws -> (sent: Int, approved: Int) {
        let from = Self.ms(since)
        var sent = 0
        var approved = 0
        if let known = fetched.fraudCounts[key], known.from <= from {
            for (bucket, counts) in known.buckets where bucket >= from {
                sent += counts.sent
                approved += counts.approved
            }
        } else {
            changes.misses.fraudKeys[key] = min(changes.misses.fraudKeys[key] ?? from, from)
        }
        for (bucket, delta) in changes.fraudDeltas[key] ?? [:] where bucket >= from {
            sent += delta.sent
            approved += delta.approved
        }
        return (sent, approved)
    }

    func fraudHistory(key: String, since: Date) throws -> (sent: Int, approved: Int) {
        let counts = try fraudCounts(key: key, since: since)
        if changes.misses.fraudKeys[key] != nil { changes.misses.fraudHistoryKeys.insert(key) }
        return counts
    }

    func fraudOverride(key: String) throws -> FraudAction? {
        if let action = changes.fraudOverrides[key] { return action }
        if let action = fetched.fraudOverrides[key] { return action }
        changes.misses.fraudKeys[key] = min(changes.misses.fraudKeys[key] ?? fraudFrom, fraudFrom)
        return nil
    }

    func fraudStats(since: Date) throws -> [FraudStat] {
        let from = Self.ms(since)
        var stats: [String: FraudStatRow]
        if let known = fetched.fraudStats[from] {
            stats = known
        } else {
            changes.misses.fraudStats.insert(from)
            stats = [:]
        }
        for (key, deltas) in changes.fraudDeltas {
            for (bucket, delta) in deltas where bucket >= from {
                var row = stats[key] ?? FraudStatRow(sent: 0, approved: 0, action: nil, hasCounts: false)
                row.sent += delta.sent
                row.approved += delta.approved
                row.hasCounts = true
                stats[key] = row
            }
        }
        for (key, action) in changes.fraudOverrides {
            var row = stats[key] ?? FraudStatRow(sent: 0, approved: 0, action: nil, hasCounts: false)
            row.action = action
            stats[key] = (action == nil && !row.hasCounts) ? nil : row
        }
        return stats.keys.sorted().map { key in
            let row = stats[key]!
            return FraudStat(key: key, sent: row.sent, approved: row.approved, action: row.action)
        }
    }

    func factors(subject: String) throws -> [Factor] {
        var list: [Factor]
        if let known = fetched.factorsBySubject[subject] {
            list = known
        } else {
            changes.misses.factorSubjects.insert(subject)
            list = []
        }
        for change in changes.factors {
            switch change {
            case .insert(let factor) where factor.subject == subject: list.append(factor)
            case .insert: break
            case .delete(let id): list.removeAll { $0.id == id }
            case .touch(let id, let at):
                if let index = list.firstIndex(where: { $0.id == id }) { list[index].lastUsedAt = at }
            }
        }
        return list.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func factor(id: String) throws -> Factor? {
        // nil: not known yet; .some(nil): known absent.
        var state: Factor??
        if let known = fetched.factorsByID[id] {
            state = .some(known)
        } else if let found = fetched.factorsBySubject.values.lazy.flatMap({ $0 }).first(where: { $0.id == id }) {
            state = .some(found)
        }
        for change in changes.factors {
            switch change {
            case .insert(let factor) where factor.id == id: state = .some(factor)
            case .delete(let deleted) where deleted == id: state = .some(nil)
            case .touch(let touched, let at) where touched == id:
                if case .some(.some(var factor)) = state {
                    factor.lastUsedAt = at
                    state = .some(factor)
                }
            default: break
            }
        }
        guard let state else {
            changes.misses.factorIDs.insert(id)
            return nil
        }
        return state
    }
}
