import Foundation
import Testing
import VerifyCore

/// Support's view of a number: its newest verifications first, each with its latest message.
@Suite struct RecentVerificationsTests {
    @Test(arguments: StoreKind.allCases)
    func aNumbersVerificationsNewestFirstWithTheirLatestMessage(kind: StoreKind) throws {
        let store = try kind.make()
        let admin = try #require(store as? any VerificationAdminStore)
        try store.write { tx in
            for (i, id) in ["ver_a", "ver_b", "ver_c"].enumerated() {
                var v = sample(id, phone: "+15555550123")
                v.createdAt = t0.addingTimeInterval(Double(i))
                try tx.insert(v)
            }
            try tx.insert(sample("ver_other", phone: "+15555550199"))
            try tx.enqueue(message("msg_1", for: "ver_b"), lease: nil)
        }
        let listed = try admin.recentVerifications(phoneNumber: "+15555550123", limit: 2)
        #expect(listed.map(\.0.id) == ["ver_c", "ver_b"])
        #expect(listed[0].1 == nil)
        #expect(listed[1].1?.id == "msg_1")
        #expect(try admin.recentVerifications(phoneNumber: "+15555550100", limit: 5).isEmpty)
    }
}
