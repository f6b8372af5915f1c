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
}
