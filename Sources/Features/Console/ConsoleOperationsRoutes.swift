import API
import Foundation
import HTTPMessages
import VerifyCore

/// The console's operations JSON, scope `read` (or a console session):
/// - `GET /v1/admin/delivery`: circuit-breaker states, outbox depth and oldest age, and messages
///   created in the last hour and day per gateway and country by status;
/// - `GET /v1/admin/settings`: the signing keys (`kid`, algorithm, status, as `phone-verify keys
///   list`) and the effective settings with secrets masked (as `phone-verify config check`).
struct ConsoleOperationsRoutes: RouteGroup {
    /// Groups per window at most (gateways × countries × statuses).
    static let maxGroups = 2_000
    let keys: APIKeyring
    let operations: ConsoleOperations
    let clock: any Clock

    func register(in router: inout Router) {
        let route = self
        router.add("GET", "/v1/admin/delivery") { request, _ in
            try route.keys.require(request, .read)
            return JSONResponse.make(200, try route.delivery(), headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/v1/admin/settings") { request, _ in
            try route.keys.require(request, .read)
            return JSONResponse.make(200, try route.settings(), headers: ["Cache-Control": "no-store"])
        }
    }

    /// One row of a window's table.
    struct Row: Hashable {
        let gateway: String
        let country: String
    }

    func delivery() throws -> JSONValue {
        let now = clock.now()
        let queue = try operations.queue()
        func window(_ seconds: TimeInterval) throws -> JSONValue {
            let counts = try operations.deliveryCounts?.deliveryCounts(since: now.addingTimeInterval(-seconds), limit: Self.maxGroups) ?? []
            var rows: [Row: [DeliveryStatus: Int]] = [:]
            for c in counts { rows[Row(gateway: c.gateway, country: c.region), default: [:]][c.status, default: 0] += c.count }
            return .array(rows.keys.sorted { ($0.gateway, $0.country) < ($1.gateway, $1.country) }.map { row in
                let by = rows[row] ?? [:]
                return [
                    "gateway": .string(row.gateway.isEmpty ? "(none yet)" : row.gateway), "country": .string(row.country),
                    "queued": .int(Int64(by[.queued] ?? 0)), "sent": .int(Int64(by[.sent] ?? 0)),
                    "delivered": .int(Int64(by[.delivered] ?? 0)), "undelivered": .int(Int64(by[.undelivered] ?? 0)),
                    "failed": .int(Int64(by[.failed] ?? 0)),
                ]
            })
        }
        return [
            "circuits": .array(operations.circuits().map { ["gateway": .string($0.gateway), "state": .string($0.state)] }),
            "outbox": [
                "depth": .int(Int64(queue.count)),
                "oldest_age_seconds": .int(Int64(queue.oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)),
            ],
            "hour": try window(3_600),
            "day": try window(86_400),
        ]
    }

    func settings() throws -> JSONValue {
        let keys = try operations.signingKeys?.signingKeys() ?? []
        return [
            "signing_keys": .array(keys.map { k in
                [
                    "kid": .string(k.kid), "algorithm": .string(k.algorithm), "status": .string(k.status.rawValue),
                    "created_at": .string(RFC3339.format(k.createdAt)),
                    "retire_after": k.retireAfter.map { .string(RFC3339.format($0)) } ?? .null,
                    "published": .bool(k.isPublished(at: clock.now())),
                ]
            }),
            "settings": .array(operations.settings.map { ["name": .string($0.name), "value": .string($0.value)] }),
        ]
    }
}
