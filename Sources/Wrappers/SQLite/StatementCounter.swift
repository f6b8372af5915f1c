import Synchronization

/// Counts what the connections of a ``Database`` execute, for tests that hold a request to a
/// statement budget (docs/BENCHMARKS.md, "Statement budget"). Passed in through
/// ``DatabaseConfiguration/statementCounter``; without one nothing is counted (one `nil` check
/// per statement).
public final class StatementCounter: Sendable {
    private let counts = Atomic<Int>(0)
    private let rowCounts = Atomic<Int>(0)
    private let scriptCounts = Atomic<Int>(0)

    public init() {}

    /// Prepared statements run (`run`, `query`, `queryOne`) other than transaction control: the
    /// SQL a store issues.
    public var statements: Int { counts.load(ordering: .relaxed) }
    /// Rows those statements yielded (`SQLITE_ROW` steps).
    public var rows: Int { rowCounts.load(ordering: .relaxed) }
    /// Transaction control (BEGIN, SAVEPOINT, RELEASE, COMMIT…) and scripts run through `execute`.
    public var transactionControl: Int { scriptCounts.load(ordering: .relaxed) }

    func count(_ statement: Statement) {
        if statement.isTransactionControl { scriptCounts.add(1, ordering: .relaxed) } else { counts.add(1, ordering: .relaxed) }
    }
    func countRow() { rowCounts.add(1, ordering: .relaxed) }
    func countScript() { scriptCounts.add(1, ordering: .relaxed) }
}

extension StatementCounter: Equatable {
    /// The same counter (identity): configurations compare equal only when they count together.
    public static func == (a: StatementCounter, b: StatementCounter) -> Bool { a === b }
}
