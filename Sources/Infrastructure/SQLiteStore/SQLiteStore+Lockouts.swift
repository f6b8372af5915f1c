import Foundation
import SQLite
import VerifyCore

/// Operators' access to rate-limit logs by key prefix (failed-check lockouts).
extension SQLiteStore: LimitLogAdminStore {
    public func limitLogs(prefix: String) throws -> [LimitLogRow] {
        try database.read { db in
            try db.query(
                "SELECT key, events FROM limit_logs WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key", [.text(prefix)]
            ).map { row in LimitLogRow(key: row.text("key") ?? "", events: EventCoding.decode(row.blob("events") ?? [])) }
        }
    }

    public func deleteLimitLogs(prefix: String) throws -> Int {
        try database.write { db in
            try db.run("DELETE FROM limit_logs WHERE substr(key, 1, length(?1)) = ?1", [.text(prefix)])
        }
    }

    public func deleteLimitLogs(scopes: [String], value: String) throws -> Int {
        try database.write { db in
            var deleted = 0
            for scope in scopes {
                // Candidates by the scope's prefix and the value's text; the exact rule in Swift.
                let keys = try db.query(
                    "SELECT key FROM limit_logs WHERE substr(key, 1, length(?1)) = ?1 AND instr(key, ?2) > 0",
                    [.text(scope + "|"), .text("|" + value)]
                ).compactMap { $0.text("key") }.filter { LimitsAdmin.matches($0, scopes: [scope], value: value) }
                for key in keys { deleted += try db.run("DELETE FROM limit_logs WHERE key = ?", [.text(key)]) }
            }
            return deleted
        }
    }
}
