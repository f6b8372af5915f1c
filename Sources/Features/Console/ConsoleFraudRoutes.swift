import API
import Foundation
import HTTPMessages
import VerifyCore

/// `GET /v1/admin/fraud-history` (scope `fraud` or `read`, or a console session): the fraud
/// guard's counters per hour over the last day for the ``maxKeys`` busiest countries and blocks
/// (sent and approved per hour: volume and conversion), and the challenges this replica asked
/// and saw passed or failed since it started (`phoneverify_challenges_total`). The guard's
/// current decisions and why are `GET /v1/admin/fraud`.
struct ConsoleFraudRoutes: RouteCollection {
    static let maxKeys = 12
    static let hours = 24
    let operations: ConsoleOperations
    let clock: any Clock

    func register(in router: inout Router) {
        let route = self
        router.add("GET", "/v1/admin/fraud-history") { _, _ in
            JSONResponse.make(200, try route.history(), headers: ["Cache-Control": "no-store"])
        }
    }

    func history() throws -> JSONValue {
        let now = clock.now().timeIntervalSince1970
        let first = (now / 3600).rounded(.down) * 3600 - Double(Self.hours - 1) * 3600
        let starts = (0..<Self.hours).map { Date(timeIntervalSince1970: first + Double($0) * 3600) }
        let points = try operations.fraudHistory?.fraudHistory(since: starts[0], period: 3600, keys: Self.maxKeys) ?? []
        var series: [String: (sent: [Int], approved: [Int])] = [:]
        // The guard's internal counters (`anomalous_blocks:NG`) are not destinations: not shown.
        for p in points where FraudAdmin.isValidKey(p.key) {
            let index = Int(((p.start.timeIntervalSince1970 - first) / 3600).rounded(.down))
            guard starts.indices.contains(index) else { continue }
            var s = series[p.key] ?? (Array(repeating: 0, count: Self.hours), Array(repeating: 0, count: Self.hours))
            s.sent[index] += p.sent
            s.approved[index] += p.approved
            series[p.key] = s
        }
        let ordered = series.sorted { ($0.value.sent.reduce(0, +), $1.key) > ($1.value.sent.reduce(0, +), $0.key) }
        return [
            "period_seconds": 3600,
            "hours": .array(starts.map { .string(RFC3339.format($0)) }),
            "keys": .array(ordered.map { key, s in
                ["key": .string(key), "sent": .array(s.sent.map { .int(Int64($0)) }), "approved": .array(s.approved.map { .int(Int64($0)) })]
            }),
            "challenges": .array(operations.challenges().map {
                ["provider": .string($0.provider), "outcome": .string($0.outcome), "count": .int(Int64($0.count))]
            }),
        ]
    }
}
