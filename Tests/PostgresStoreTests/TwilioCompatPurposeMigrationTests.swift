import Foundation
import Postgres
import PostgresStore
import Testing
import VerifyCore

/// Schema version 10 on PostgreSQL: verifications with a compat link (and their outbox rows) go
/// from `sign_in` to `twilio_compat`; native ones keep theirs (SQLite: StoreContractTests).
@Suite struct TwilioCompatPurposeMigrationTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func linkedSignInRowsBecomeTwilioCompat() throws {
        let schema = TestDatabase.freshSchema()
        let store = try TestDatabase.store(schema: schema, poolSize: 1)
        try store.twilioCompatWrite { tx in
            for (id, phone) in [("ver_compat", "+15555550123"), ("ver_native", "+15555550124")] {
                try tx.insert(Verification(
                    id: id, phoneNumber: phone, display: phone, region: "US", countryCode: 1, locale: nil, purpose: .signIn,
                    codeHash: [1], codeLength: 6, maxAttempts: 5, maxSends: 5, createdAt: Self.t0,
                    expiresAt: Self.t0.addingTimeInterval(300), lastSentAt: Self.t0, resendAvailableAt: Self.t0))
                try tx.enqueue(OutboxMessage(
                    id: "msg_" + id, verificationID: id, to: phone, purpose: .signIn, sealedPayload: [9], createdAt: Self.t0,
                    updatedAt: Self.t0, nextAttemptAt: Self.t0, expiresAt: Self.t0.addingTimeInterval(300)))
            }
            try tx.linkTwilioCompatVerification(TwilioCompatVerificationLink(
                verificationID: "ver_compat", serviceSID: "VA1", accountSID: "AC1", to: "+15555550123", createdAt: Self.t0))
        }
        store.close()
        // Back to version 9 with those rows: the next start applies migration 10 to them.
        try TestDatabase.connect(schema: schema).run("DELETE FROM schema_migrations WHERE version >= 10")
        let upgraded = try TestDatabase.store(schema: schema, poolSize: 1)
        defer { upgraded.close() }
        #expect(try upgraded.read { try $0.verification(id: "ver_compat") }?.purpose == .delegated)
        #expect(try upgraded.read { try $0.verification(id: "ver_native") }?.purpose == .signIn)
        #expect(try upgraded.twilioCompatRead { try $0.twilioCompatMessages(verificationID: "ver_compat") }.map(\.purpose) == [.delegated])
        #expect(try upgraded.twilioCompatRead { try $0.twilioCompatMessages(verificationID: "ver_native") }.map(\.purpose) == [.signIn])
    }
}
