import Foundation
import Testing
import VerifyCore

/// The console's delivery page: messages since a time, grouped in the store by gateway, region of
/// their verification and status.
@Suite struct DeliveryCountsTests {
    @Test(arguments: StoreKind.allCases)
    func messagesAreCountedPerGatewayRegionAndStatus(kind: StoreKind) throws {
        let store = try kind.make()
        let stats = try #require(store as? any DeliveryStatsStore)
        try store.write { tx in
            try tx.insert(sample("ver_us"))
            var gb = sample("ver_gb", phone: "+447700900123")
            gb.region = "GB"
            try tx.insert(gb)
            func add(_ id: String, _ verification: String, _ status: DeliveryStatus, _ gateway: String?, at: Date = t0.addingTimeInterval(10)) throws {
                var m = message(id, for: verification, at: at)
                m.status = status
                m.gateway = gateway
                try tx.enqueue(m, lease: nil)
            }
            try add("msg_1", "ver_us", .sent, "twilio")
            try add("msg_2", "ver_us", .sent, "twilio")
            try add("msg_3", "ver_us", .delivered, "twilio")
            try add("msg_4", "ver_gb", .failed, "vonage")
            try add("msg_5", "ver_us", .queued, nil)
            try add("msg_old", "ver_us", .sent, "twilio", at: t0.addingTimeInterval(-3600))
        }
        let counts = try stats.deliveryCounts(since: t0, limit: 100)
        #expect(Set(counts.map { "\($0.gateway)/\($0.region)/\($0.status.rawValue)=\($0.count)" }) == [
            "twilio/US/sent=2", "twilio/US/delivered=1", "vonage/GB/failed=1", "/US/queued=1",
        ])
        #expect(try stats.deliveryCounts(since: t0, limit: 2).count == 2)
        #expect(try stats.deliveryCounts(since: t0.addingTimeInterval(60), limit: 100).isEmpty)
    }
}
