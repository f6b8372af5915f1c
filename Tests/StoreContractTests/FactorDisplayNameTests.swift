import Foundation
import Testing
import VerifyCore

/// A factor's display name (imported factors, docs/MFA.md) is kept by every store and read back
/// by every read of factors.
@Suite struct FactorDisplayNameTests {
    @Test(arguments: StoreKind.allCases)
    func displayNamesRoundTrip(kind: StoreKind) throws {
        let store = try kind.make()
        try store.write { tx in
            try tx.insertFactor(Factor(
                id: "fac_named", subject: "user-1", phoneNumber: "+15555550123", countryCode: 1, createdAt: t0,
                displayName: "Téléphone pro ☎"))
            try tx.insertFactor(Factor(id: "fac_plain", subject: "user-1", phoneNumber: "+15555550124", countryCode: 1, createdAt: t0))
        }
        let listed = try store.read { try $0.factors(subject: "user-1") }
        #expect(listed.map(\.displayName) == ["Téléphone pro ☎", nil])
        #expect(try store.read { try $0.factor(id: "fac_named") }?.displayName == "Téléphone pro ☎")
        // Inside a write (PostgreSQL reads through its cached, planned fetch there).
        let inWrite = try store.write(reading: ReadSet(factorSubjects: ["user-1"])) { tx in try tx.factors(subject: "user-1").map(\.displayName) }
        #expect(inWrite == ["Téléphone pro ☎", nil])
        let admin = try #require(store as? any FactorAdminStore)
        #expect(try admin.factors(phoneNumber: "+15555550123", limit: 5).first?.displayName == "Téléphone pro ☎")
    }
}
