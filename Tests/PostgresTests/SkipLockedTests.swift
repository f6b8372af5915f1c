import Postgres
import Testing
import ThreadTesting

/// Work-queue claiming with `FOR UPDATE SKIP LOCKED` across connections.
@Suite("SKIP LOCKED")
struct SkipLockedTests {
    static func claim(_ connection: PostgresConnection, _ table: String, limit: Int) throws -> [Int64] {
        try connection.query("""
            SELECT id FROM \(table) WHERE claimed_by IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
            """, [.int(Int64(limit))]).compactMap { $0.int("id") }
    }

    @Test func twoTransactionsClaimDisjointRows() throws {
        let first = try TestServer.connect()
        let second = try TestServer.connect()
        try withTable(first, "id int8 PRIMARY KEY, claimed_by text") { table throws in
            try first.run("INSERT INTO \(table) (id) SELECT generate_series(1, 10)")
            let (a, b) = try first.transaction { tx -> ([Int64], [Int64]) in
                let a = try Self.claim(tx, table, limit: 4)
                let b = try second.transaction { other -> [Int64] in
                    let b = try Self.claim(other, table, limit: 4)
                    for id in b { try other.run("UPDATE \(table) SET claimed_by = 'b' WHERE id = $1", [.int(id)]) }
                    return b
                }
                for id in a { try tx.run("UPDATE \(table) SET claimed_by = 'a' WHERE id = $1", [.int(id)]) }
                return (a, b)
            }
            #expect(a == [1, 2, 3, 4])
            #expect(b == [5, 6, 7, 8])
            #expect(Set(a).isDisjoint(with: b))
            let remaining = try first.query("SELECT id FROM \(table) WHERE claimed_by IS NULL ORDER BY id")
            #expect(remaining.compactMap { $0.int("id") } == [9, 10])
        }
    }

    @Test func concurrentWorkersClaimEveryRowOnce() throws {
        let setup = try TestServer.connect()
        try withTable(setup, "id int8 PRIMARY KEY, claimed_by text") { table throws in
            try setup.run("INSERT INTO \(table) (id) SELECT generate_series(1, 200)")
            let pool = try TestServer.pool(size: 4, acquireTimeoutSeconds: 30)
            let claimed = Collector<Int64>()
            let errors = Collector<String>()
            onThreads(4) { worker in
                while true {
                    do {
                        let batch = try pool.withConnection { connection in
                            try connection.transaction { tx in
                                let ids = try Self.claim(tx, table, limit: 5)
                                for id in ids {
                                    try tx.run("UPDATE \(table) SET claimed_by = $1 WHERE id = $2", [.text("w\(worker)"), .int(id)])
                                }
                                return ids
                            }
                        }
                        if batch.isEmpty { break }
                        for id in batch { claimed.append(id) }
                    } catch {
                        errors.append("\(error)")
                        break
                    }
                }
            }
            #expect(errors.values.isEmpty, "\(errors.values)")
            #expect(claimed.values.count == 200)
            #expect(Set(claimed.values).count == 200)
        }
    }
}
