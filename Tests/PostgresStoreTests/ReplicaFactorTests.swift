import Foundation
import Postgres
import PostgresStore
import Testing
import ThreadTesting
import VerifyCore

/// A factor read by id in a write is locked, as SQLite's single writer serialises: a deletion
/// racing another replica's deletion of the same factor finds it gone, instead of both succeeding.
@Suite struct ReplicaFactorTests {
    @Test func aFactorDeletedMeanwhileIsNotFound() throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema)
        try store.write { tx in
            try tx.insertFactor(Factor(id: "fac_1", subject: "user-1", phoneNumber: "+15555550105", countryCode: 1, createdAt: Date()))
        }
        // Another replica is deleting it: its transaction holds the row.
        let other = try TestDatabase.connect(schema: schema)
        try other.execute("BEGIN")
        try other.execute("DELETE FROM factors WHERE id = 'fac_1'")
        let outcome = Collector<Outcome>()
        let deletion = Thread {
            outcome.append(Outcome {
                try store.write { tx in
                    guard let factor = try tx.factor(id: "fac_1") else { throw VerifyError(.notFound, "no factor with this id") }
                    try tx.deleteFactor(id: factor.id)
                }
            })
        }
        deletion.start()
        Thread.sleep(forTimeInterval: 0.3)
        try other.execute("COMMIT")
        for _ in 0..<100 where outcome.values.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        #expect(outcome.values == [.refused(.notFound)])
    }
}
