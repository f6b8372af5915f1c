import CPostgres

/// What a cached prepared statement is keyed by: its SQL text and the
/// parameter types it was prepared with. The types take part because a
/// statement's parameter types are fixed at `PQprepare`: the same SQL called
/// once with `NULL` (type left to the server) and once with bytes (`bytea`,
/// binary) needs two statements.
struct StatementKey: Hashable {
    let sql: String
    let types: [Oid]
}
