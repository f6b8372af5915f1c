import API
import Foundation
import VerifyCore

/// `GET /v1/admin/delivery`'s body: what an operator needs in an outage, at a glance.
/// - `gateways.hour|day`: per gateway and channel, the messages it took (sent, delivered,
///   undelivered, failed, as `auto` fallbacks) from the store, its calls and errors and the
///   failovers it took from this replica's tally, its circuit state, and `failing`;
/// - `hour|day`: the messages per gateway, channel and country by status (as before);
/// - `outbox`: messages due and the oldest (an `auto` fallback waiting its turn is not late),
///   `events`: the events outbox;
/// - `conversion`: approved / started per hour over the last day, per country and channel.
struct ConsoleDeliveryReport {
    static let maxGroups = 2_000
    static let maxSeries = 8
    /// How long the day's counts and the conversion chart are reused.
    static let dayTTL: TimeInterval = 60
    let operations: ConsoleOperations
    let now: Date
    let cache: ConsoleCache

    /// A gateway is failing when its circuit is not closed, or when at least 3 of its calls in
    /// the window failed and they are at least half of them.
    static func failing(circuit: String?, calls: Int, errors: Int) -> Bool {
        (circuit != nil && circuit != "closed") || (errors >= 3 && errors * 2 >= calls)
    }

    func json() throws -> JSONValue {
        let hourCounts = try counts(3_600)
        let backlog = try operations.stats?.outboxBacklog(now: now)
        let queue = backlog == nil ? try operations.queue() : (backlog!.due, backlog!.oldestDue)
        let events = try operations.stats?.eventBacklog(failedSince: now.addingTimeInterval(-86_400))
        return [
            "circuits": .array(operations.circuits().map {
                ["gateway": .string($0.gateway), "channel": .string(operations.gatewayChannels[$0.gateway] ?? "sms"), "state": .string($0.state)]
            }),
            "outbox": [
                "depth": .int(Int64(queue.0)), "oldest_age_seconds": .int(Int64(queue.1.map { max(0, now.timeIntervalSince($0)) } ?? 0)),
                "scheduled_fallbacks": .int(Int64(backlog?.scheduledFallbacks ?? 0)),
            ],
            "events": events.map { e in
                [
                    "pending": .int(Int64(e.pending)), "oldest_age_seconds": .int(Int64(e.oldestPending.map { max(0, now.timeIntervalSince($0)) } ?? 0)),
                    "failed_day": .int(Int64(e.failed)),
                ]
            } ?? .null,
            "gateways": ["hour": gateways(hourCounts, seconds: 3_600), "day": try cache.value("gateways-day", ttl: Self.dayTTL, now: now) {
                gateways(try counts(86_400), seconds: 86_400)
            }],
            "hour": countries(hourCounts),
            "day": try cache.value("countries-day", ttl: Self.dayTTL, now: now) { countries(try counts(86_400)) },
            "conversion": try cache.value("conversion", ttl: Self.dayTTL, now: now) { try conversion() },
        ]
    }

    func counts(_ seconds: TimeInterval) throws -> [DeliveryCount] {
        try operations.deliveryCounts?.deliveryCounts(since: now.addingTimeInterval(-seconds), limit: Self.maxGroups) ?? []
    }

    struct Key: Hashable, Comparable {
        let gateway: String
        let channel: String
        static func < (a: Key, b: Key) -> Bool { (a.gateway, a.channel) < (b.gateway, b.channel) }
    }

    func gateways(_ counts: [DeliveryCount], seconds: Int) -> JSONValue {
        var rows: [Key: [String: Int]] = [:]
        let circuits = Dictionary(operations.circuits().map { ($0.gateway, $0.state) }, uniquingKeysWith: { a, _ in a })
        for name in circuits.keys { rows[Key(gateway: name, channel: operations.gatewayChannels[name] ?? "sms"), default: [:]] = [:] }
        for c in counts where !c.gateway.isEmpty {
            let key = Key(gateway: c.gateway, channel: c.channel.rawValue)
            rows[key, default: [:]][c.status.rawValue, default: 0] += c.count
            rows[key, default: [:]]["fallbacks", default: 0] += c.fallbacks
        }
        for call in operations.calls(seconds) {
            rows[Key(gateway: call.gateway, channel: operations.gatewayChannels[call.gateway] ?? Channel.of(gateway: call.gateway).rawValue), default: [:]][
                "call_" + call.outcome, default: 0] += call.count
        }
        return .array(rows.keys.sorted().map { key in
            let r = rows[key] ?? [:]
            let errors = (r["call_retryable"] ?? 0) + (r["call_permanent"] ?? 0)
            let calls = errors + (r["call_sent"] ?? 0)
            let circuit = circuits[key.gateway]
            func n(_ name: String) -> JSONValue { .int(Int64(r[name] ?? 0)) }
            return [
                "gateway": .string(key.gateway), "channel": .string(key.channel), "circuit": circuit.map { .string($0) } ?? .null,
                "calls": .int(Int64(calls)), "errors": .int(Int64(errors)), "failovers": n("call_failover"),
                "sent": n("sent"), "delivered": n("delivered"), "undelivered": n("undelivered"), "failed": n("failed"), "queued": n("queued"),
                "fallbacks": n("fallbacks"), "failing": .bool(Self.failing(circuit: circuit, calls: calls, errors: errors)),
            ]
        })
    }

    struct Row: Hashable {
        let gateway: String
        let channel: String
        let country: String
    }

    func countries(_ counts: [DeliveryCount]) -> JSONValue {
        var rows: [Row: [DeliveryStatus: Int]] = [:]
        for c in counts { rows[Row(gateway: c.gateway, channel: c.channel.rawValue, country: c.region), default: [:]][c.status, default: 0] += c.count }
        return .array(rows.keys.sorted { ($0.gateway, $0.channel, $0.country) < ($1.gateway, $1.channel, $1.country) }.map { row in
            let by = rows[row] ?? [:]
            return [
                "gateway": .string(row.gateway.isEmpty ? "(none yet)" : row.gateway), "channel": .string(row.channel), "country": .string(row.country),
                "queued": .int(Int64(by[.queued] ?? 0)), "sent": .int(Int64(by[.sent] ?? 0)),
                "delivered": .int(Int64(by[.delivered] ?? 0)), "undelivered": .int(Int64(by[.undelivered] ?? 0)),
                "failed": .int(Int64(by[.failed] ?? 0)),
            ]
        })
    }

    func conversion() throws -> JSONValue {
        let hours = 24
        let first = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600 - Double(hours - 1) * 3600
        let points = try operations.stats?.conversion(since: Date(timeIntervalSince1970: first), period: 3600, limit: Self.maxGroups) ?? []
        var series: [String: (country: String, channel: String, started: [Int], approved: [Int])] = [:]
        for p in points {
            let index = Int((p.start.timeIntervalSince1970 - first) / 3600)
            guard (0..<hours).contains(index) else { continue }
            let key = p.region + "|" + p.channel
            var s = series[key] ?? (p.region, p.channel, Array(repeating: 0, count: hours), Array(repeating: 0, count: hours))
            s.started[index] += p.started
            s.approved[index] += p.approved
            series[key] = s
        }
        let top = series.values.sorted { ($0.started.reduce(0, +), $1.country, $1.channel) > ($1.started.reduce(0, +), $0.country, $0.channel) }
            .prefix(Self.maxSeries)
        return [
            "hours": .array((0..<hours).map { .string(RFC3339.format(Date(timeIntervalSince1970: first + Double($0) * 3600))) }),
            "series": .array(top.map { s in
                [
                    "country": .string(s.country), "channel": .string(s.channel),
                    "started": .array(s.started.map { .int(Int64($0)) }), "approved": .array(s.approved.map { .int(Int64($0)) }),
                ]
            }),
        ]
    }
}
