/// A failed PostgreSQL operation: a server error with its SQLSTATE, a lost or
/// refused connection, or a pool that could not hand out a connection.
///
/// Callers branch on the `is…` properties (retry serialization failures and
/// deadlocks, map unique violations to "already exists", replace connections
/// after connection failures) instead of parsing messages.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the error came from.
    public enum Kind: Sendable, Equatable {
        /// The server reported it; ``PostgresError/sqlState`` is set.
        case server
        /// Connecting failed, or the connection broke (no SQLSTATE when the socket died).
        case connection
        /// ``PostgresPool/withConnection(_:)`` waited too long for a free connection.
        case poolTimeout
        /// The pool was closed.
        case poolClosed
        /// The wrapper refused the call (closed connection, invalid URL, a value PostgreSQL cannot hold).
        case usage
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The five-character SQLSTATE (`23505`, `40001`, …) when the server sent one.
    public let sqlState: String?
    /// The primary message (the server's, or libpq's for connection failures).
    public let message: String
    /// The server's DETAIL line, e.g. which key violated a unique constraint.
    public let detail: String?
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The constraint a violation names (`PG_DIAG_CONSTRAINT_NAME`), e.g. `users_pkey`, so callers can
    /// tell which unique key clashed without parsing the (localised) message.
    public let constraint: String?

    /// Builds an error; also useful for fakes in tests.
    public init(
        kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, sql: String? = nil,
        constraint: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
        self.constraint = constraint
    }

    /// `40001`: a serializable or repeatable-read transaction conflicted; retry it.
    public var isSerializationFailure: Bool { sqlState == "40001" }

    /// `23505`: a unique or primary-key constraint was violated.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// `40P01`: the server broke a deadlock by aborting this transaction; retry it.
    public var isDeadlock: Bool { sqlState == "40P01" }

    /// The connection is unusable: connecting failed, the socket broke, the
    /// server sent a class `08` error, or it is shutting down or terminated
    /// this backend (`57P01`…`57P03`), or ended the session for idling in a
    /// transaction (`25P03`) or idling (`57P05`). Pools discard such connections.
    /// `08P01` (protocol violation, e.g. a wrong parameter count) is excluded:
    /// the server reports it and keeps the session.
    public var isConnectionFailure: Bool {
        if kind == .connection { return true }
        guard let sqlState, sqlState != "08P01" else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "57P05", "25P03"].contains(sqlState)
    }

    /// The pool had no free connection within its acquire timeout.
    public var isPoolTimeout: Bool { kind == .poolTimeout }

    /// `PostgreSQL error 23505: duplicate key … (Key (id)=(1) already exists.) [SQL: INSERT …]`.
    public var description: String {
        var text: String
        switch kind {
        case .server: text = "PostgreSQL error \(sqlState ?? "?????"): \(message)"
        case .connection: text = "PostgreSQL connection failure\(sqlState.map { " \($0)" } ?? ""): \(message)"
        case .poolTimeout: text = "PostgreSQL pool timeout: \(message)"
        case .poolClosed: text = "PostgreSQL pool closed: \(message)"
        case .usage: text = "PostgreSQL usage error: \(message)"
        }
        if let detail { text += " (\(detail))" }
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// The error thrown by calls on a closed connection.
    static let closed = PostgresError(kind: .usage, message: "connection is closed")
}
