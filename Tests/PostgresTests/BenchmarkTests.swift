import Foundation
import Postgres
import Testing
import ThreadTesting

/// Round trips per second. Off by default (other tests running in parallel
/// would skew it); run with
/// `PV_PG_BENCH=1 swift test -c release --filter PostgresTests.Benchmark`.
@Suite("Benchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["PV_PG_BENCH"] != nil))
struct BenchmarkTests {
    static let iterations = 20_000

    @Test func selectOneOnOneConnection() throws {
        let connection = try TestServer.connect()
        for (label, sql) in [("prepared", "SELECT 1"), ("prepared+param", "SELECT $1::int8")] {
            let params: [PostgresValue] = sql.contains("$1") ? [1] : []
            _ = try connection.query(sql, params)
            let start = Date()
            for _ in 0..<Self.iterations { _ = try connection.query(sql, params) }
            let seconds = Date().timeIntervalSince(start)
            print(String(format: "BENCH one connection %-16@ %8.0f round trips/s (%.1f µs each)",
                         label as NSString, Double(Self.iterations) / seconds, seconds / Double(Self.iterations) * 1e6))
        }
        let start = Date()
        for _ in 0..<Self.iterations { try connection.execute("SELECT 1") }
        let seconds = Date().timeIntervalSince(start)
        print(String(format: "BENCH one connection %-16@ %8.0f round trips/s", "PQexec" as NSString,
                     Double(Self.iterations) / seconds))
    }

    @Test(arguments: [1, 2, 4, 8])
    func selectOneThroughThePool(threads: Int) throws {
        let pool = try TestServer.pool(size: 4, acquireTimeoutSeconds: 30)
        let perThread = Self.iterations / threads
        let errors = Collector<String>()
        let start = Date()
        onThreads(threads) { _ in
            for _ in 0..<perThread {
                do { _ = try pool.withConnection { try $0.query("SELECT 1") } } catch { errors.append("\(error)") }
            }
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(errors.values.isEmpty)
        print(String(format: "BENCH pool size 4, %d threads %8.0f round trips/s", threads,
                     Double(perThread * threads) / seconds))
    }
}
