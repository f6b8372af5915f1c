import Foundation
import Testing
import VerifyCore

/// The console's lookup page: the factors enrolled with one number, whoever's, oldest first.
@Suite struct FactorsByPhoneTests {
    @Test(arguments: StoreKind.allCases)
    func aNumbersFactorsOldestFirstBounded(kind: StoreKind) throws {
        let store = try kind.make()
        let admin = try #require(store as? any FactorAdminStore)
        try store.write { tx in
            try tx.insertFactor(Factor(id: "fac_b", subject: "user-2", phoneNumber: "+15555550123", countryCode: 1, createdAt: t0.addingTimeInterval(2)))
            try tx.insertFactor(Factor(id: "fac_a", subject: "user-1", phoneNumber: "+15555550123", countryCode: 1, createdAt: t0.addingTimeInterval(1)))
            try tx.insertFactor(Factor(id: "fac_c", subject: "user-3", phoneNumber: "+15555550123", countryCode: 1, createdAt: t0.addingTimeInterval(3)))
            try tx.insertFactor(Factor(id: "fac_x", subject: "user-1", phoneNumber: "+15555550199", countryCode: 1, createdAt: t0))
        }
        let listed = try admin.factors(phoneNumber: "+15555550123", limit: 2)
        #expect(listed.map(\.id) == ["fac_a", "fac_b"])
        #expect(listed.map(\.subject) == ["user-1", "user-2"])
        #expect(try admin.factors(phoneNumber: "+15555550123", limit: 10).count == 3)
        #expect(try admin.factors(phoneNumber: "+15555550100", limit: 5).isEmpty)
    }
}
