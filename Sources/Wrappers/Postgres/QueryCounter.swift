import Synchronization

/// Counts the statements and round trips of the connections that share it, for tests that hold a
/// request to a budget (docs/BENCHMARKS.md, "Statement budget"). Passed in through
/// ``PostgresPool/init(url:size:connectTimeoutSeconds:acquireTimeoutSeconds:counter:)``; without
/// one nothing is counted.
public final class QueryCounter: Sendable {
    private let statementCount = Atomic<Int>(0)
    private let tripCount = Atomic<Int>(0)

    public init() {}

    /// Statements sent: each of a pipeline, each query, each script.
    public var statements: Int { statementCount.load(ordering: .relaxed) }
    /// Exchanges that waited for the server: a pipeline, a query (a first-use prepare adds one), a script.
    public var roundTrips: Int { tripCount.load(ordering: .relaxed) }

    func count(statements: Int, roundTrips: Int) {
        statementCount.add(statements, ordering: .relaxed)
        tripCount.add(roundTrips, ordering: .relaxed)
    }
}
