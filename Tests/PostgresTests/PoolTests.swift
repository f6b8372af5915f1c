import Foundation
import Postgres
import Testing
import ThreadTesting

/// The connection pool: concurrency, limits, recovery.
@Suite("Pool")
struct PoolTests {
    @Test func eightThreadsShareFourConnections() throws {
        let name = uniqueName("pool")
        let pool = try TestServer.pool(size: 4, acquireTimeoutSeconds: 30, applicationName: name)
        let errors = Collector<String>()
        let backends = Collector<Int32>()
        onThreads(8) { thread in
            for i in 0..<100 {
                do {
                    let row = try pool.withConnection { connection in
                        backends.append(connection.processID)
                        return try connection.queryFirst("SELECT $1::int8 * 1000 + $2::int8 AS n",
                                                         [.int(Int64(thread)), .int(Int64(i))])
                    }
                    if row?.int("n") != Int64(thread * 1000 + i) { errors.append("wrong row \(String(describing: row))") }
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values.count) errors, first: \(errors.values.first ?? "")")
        #expect(backends.values.count == 800)
        #expect(Set(backends.values).count <= 4)
        #expect(pool.openConnections <= 4)
        let admin = try TestServer.connect()
        let open = try admin.queryFirst("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1", [.text(name)])
        #expect((open?.int("n") ?? 99) <= 4)
    }

    @Test func opensLazily() throws {
        let pool = try TestServer.pool(size: 3)
        #expect(pool.openConnections == 1)
        #expect(pool.idleConnections == 1)
        try pool.withConnection { _ in try pool.withConnection { _ in } }
        #expect(pool.openConnections == 2)
    }

    @Test func recoversAfterTheServerKillsAPooledConnection() throws {
        let pool = try TestServer.pool(size: 1)
        let killed = try pool.withConnection { $0.processID }
        let admin = try TestServer.connect()
        #expect(try admin.queryFirst("SELECT pg_terminate_backend($1::int4, 5000) AS ok",
                                     [.int(Int64(killed))])?.bool("ok") == true)
        let (pid, one) = try pool.withConnection { connection in
            (connection.processID, try connection.queryFirst("SELECT 1 AS one")?.int("one"))
        }
        #expect(one == 1)
        #expect(pid != killed)
    }

    @Test func replacesAConnectionThatDiedDuringUse() throws {
        let pool = try TestServer.pool(size: 1)
        let admin = try TestServer.connect()
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { connection in
                _ = try admin.query("SELECT pg_terminate_backend($1::int4, 5000)", [.int(Int64(connection.processID))])
                _ = try connection.query("SELECT 1")
            }
        }
        #expect(error?.isConnectionFailure == true)
        #expect(try pool.withConnection { try $0.queryFirst("SELECT 2 AS two")?.int("two") } == 2)
        #expect(pool.openConnections == 1)
    }

    @Test func timesOutWhenAllConnectionsAreBusy() throws {
        let pool = try TestServer.pool(size: 1, acquireTimeoutSeconds: 0.2)
        let error = try pool.withConnection { _ in
            let started = Date()
            let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
            #expect(Date().timeIntervalSince(started) >= 0.15)
            return error
        }
        #expect(error?.isPoolTimeout == true)
        try pool.withConnection { _ in }
    }

    @Test func waitersGetTheConnectionWhenItIsReturned() throws {
        let pool = try TestServer.pool(size: 1, acquireTimeoutSeconds: 10)
        let errors = Collector<String>()
        onThreads(4) { _ in
            do {
                _ = try pool.withConnection { try $0.run("SELECT pg_sleep(0.05)") }
            } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.values.isEmpty, "\(errors.values)")
    }

    @Test func rollsBackATransactionLeftOpen() throws {
        let pool = try TestServer.pool(size: 1)
        let admin = try TestServer.connect()
        try withTable(admin, "id int") { table throws in
            try pool.withConnection { connection in
                try connection.execute("BEGIN")
                try connection.run("INSERT INTO \(table) VALUES (1)")
            }
            try pool.withConnection { connection throws in
                #expect(!connection.isInTransaction)
                #expect(try connection.queryFirst("SELECT count(*) AS n FROM \(table)")?.int("n") == 0)
            }
        }
    }

    @Test func closeRefusesFurtherUse() throws {
        let pool = try TestServer.pool(size: 2)
        pool.close()
        let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        #expect(error?.kind == .poolClosed)
        #expect(pool.openConnections == 0)
    }

    @Test func unreachableServerFailsFast() throws {
        let pool = try PostgresPool(url: "postgres://postgres@127.0.0.1:1/x", size: 2, connectTimeoutSeconds: 2)
        let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        #expect(error?.isConnectionFailure == true)
        #expect(pool.openConnections == 0)
    }
}
