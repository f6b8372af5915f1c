import Foundation
import Postgres
import VerifyCore

/// Operators' access to rate-limit logs by key prefix (failed-check lockouts), shared by every replica.
extension PostgresStore: LimitLogAdminStore {
    public func limitLogs(prefix: String) throws -> [LimitLogRow] {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.query("SELECT key, events FROM limit_logs WHERE starts_with(key, $1) ORDER BY key", [.text(prefix)])
                }
                .map { row in LimitLogRow(key: try PostgresRows.string(row, "key"), events: EventCoding.decode(row.bytes("events") ?? [])) }
            }
        }
    }

    public func deleteLimitLogs(prefix: String) throws -> Int {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip { try connection.run("DELETE FROM limit_logs WHERE starts_with(key, $1)", [.text(prefix)]) }
            }
        }
    }

    public func deleteLimitLogs(scopes: [String], value: String) throws -> Int {
        try retrying(connectionFailures: true) {
            try pool.withConnection { connection in
                try trip {
                    try connection.run(
                        """
                        DELETE FROM limit_logs WHERE split_part(key, '|', 1) = ANY(string_to_array($1, '|'))
                        AND split_part(key, '|', 2) ~ '^[0-9]+$'
                        AND (substr(key, length(split_part(key, '|', 1)) + length(split_part(key, '|', 2)) + 3) = $2
                             OR starts_with(substr(key, length(split_part(key, '|', 1)) + length(split_part(key, '|', 2)) + 3), $2 || '|'))
                        """, [.text(scopes.joined(separator: "|")), .text(value)])
                }
            }
        }
    }
}
