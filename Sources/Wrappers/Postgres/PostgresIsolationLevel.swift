/// A transaction isolation level for ``PostgresConnection/transaction(isolation:_:)``.
///
/// Under `repeatableRead` and `serializable`, be ready to retry on
/// ``PostgresError/isSerializationFailure``.
public enum PostgresIsolationLevel: String, Sendable, CaseIterable {
    /// The server default: each statement sees what was committed before it began.
    case readCommitted = "READ COMMITTED"
    /// One snapshot for the whole transaction.
    case repeatableRead = "REPEATABLE READ"
    /// As if the transactions ran one after another.
    case serializable = "SERIALIZABLE"
}
