import Foundation
import Testing
import VerifyCore

/// The console's fraud charts: the busiest fraud keys' counters summed per hour, by the store.
@Suite struct FraudHistoryTests {
    @Test(arguments: StoreKind.allCases)
    func theBusiestKeysPerHour(kind: StoreKind) throws {
        let store = try kind.make()
        let history = try #require(store as? any FraudHistoryStore)
        let hour = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 3600))
        try store.write { tx in
            try tx.addFraudCounts(key: "country:US", bucket: hour, sent: 3, approved: 2)
            try tx.addFraudCounts(key: "country:US", bucket: hour.addingTimeInterval(300), sent: 1, approved: 1)
            try tx.addFraudCounts(key: "country:US", bucket: hour.addingTimeInterval(3600), sent: 2, approved: 0)
            try tx.addFraudCounts(key: "prefix:+1415555", bucket: hour.addingTimeInterval(600), sent: 5, approved: 1)
            try tx.addFraudCounts(key: "country:GB", bucket: hour, sent: 1, approved: 1)
            try tx.addFraudCounts(key: "country:FR", bucket: hour.addingTimeInterval(-7200), sent: 50, approved: 0)
        }
        let points = try history.fraudHistory(since: hour, period: 3600, keys: 2)
        #expect(points == [
            FraudHistoryPoint(key: "country:US", start: hour, sent: 4, approved: 3),
            FraudHistoryPoint(key: "country:US", start: hour.addingTimeInterval(3600), sent: 2, approved: 0),
            FraudHistoryPoint(key: "prefix:+1415555", start: hour, sent: 5, approved: 1),
        ])
        #expect(try history.fraudHistory(since: hour, period: 3600, keys: 10).map(\.key).contains("country:GB"))
    }
}
