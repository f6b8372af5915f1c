import Foundation
import SQLite
@testable import SQLiteStore
import Testing
import VerifyCore

/// Schema version 10 relabels verifications started through the Twilio-compatible API (those with
/// a compat link), and their outbox rows, from `sign_in` to `twilio_compat`; native ones keep
/// theirs. PostgreSQL: `TwilioCompatPurposeMigrationTests` in PostgresStoreTests.
@Suite struct TwilioCompatPurposeMigrationTests {
    @Test func linkedSignInRowsBecomeTwilioCompat() throws {
        let file = NSTemporaryDirectory() + "pv-purpose-\(UUID().uuidString)/test.db"
        let store = try SQLiteStore(path: file)
        try Self.writeRowsAsBeforeTheUpgrade(store)
        // Back to version 9 with those rows: the next open applies migration 10 (and the later,
        // idempotent ones) to them.
        try store.database.write { db in
            try db.run("DELETE FROM schema_migrations WHERE version >= 10")
            // SQLite cannot add a column only if it is missing: undo migration 14 by hand.
            try db.execute("DROP INDEX outbox_fallbacks; ALTER TABLE outbox DROP COLUMN channel; ALTER TABLE outbox DROP COLUMN fallback_of; ALTER TABLE factors DROP COLUMN display_name")
        }
        store.close()
        let upgraded = try SQLiteStore(path: file)
        defer { upgraded.close() }
        try Self.expectRelabelled(upgraded)
    }

    /// A compat verification and a native one, both `sign_in`, as version 9 wrote them.
    static func writeRowsAsBeforeTheUpgrade(_ store: any TwilioCompatStore & OutboxStore) throws {
        try store.twilioCompatWrite { tx in
            try tx.insert(sample("ver_compat", phone: "+15555550123"))
            try tx.enqueue(message("msg_compat", for: "ver_compat"))
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: "ver_compat", serviceSID: "VA1", accountSID: "AC1", to: "+15555550123", createdAt: t0))
            try tx.insert(sample("ver_native", phone: "+15555550124"))
            try tx.enqueue(message("msg_native", for: "ver_native"))
        }
    }

    static func expectRelabelled(_ store: any TwilioCompatStore & OutboxStore) throws {
        #expect(try store.read { try $0.verification(id: "ver_compat") }?.purpose == .delegated)
        #expect(try store.read { try $0.verification(id: "ver_native") }?.purpose == .signIn)
        #expect(try store.twilioCompatRead { try $0.twilioCompatMessages(verificationID: "ver_compat") }.map(\.purpose) == [.delegated])
        #expect(try store.twilioCompatRead { try $0.twilioCompatMessages(verificationID: "ver_native") }.map(\.purpose) == [.signIn])
    }
}
