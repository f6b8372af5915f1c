import API
import Foundation
import HTTPMessages
import VerifyCore

/// The verification log, scope `read` (or a console session; the group's ``ScopeMiddleware``):
/// - `GET /v1/admin/verification-log?status=&channel=&country=&number=&since=&until=&cursor=&limit=`:
///   newest first, `limit` (1–100, default 50) a page, `next_cursor` to continue; each page reads
///   at most ``VerificationLogQuery/scanLimit`` rows, so a filter that matches little may give a
///   short page with a cursor;
/// - `GET /v1/admin/verification-log.csv?…` (the same filters): the log as CSV, at most
///   ``csvRows`` rows;
/// - `GET /v1/admin/verification-log/{id}`: one verification with every message (first tries,
///   resends, fallbacks: channel, gateway, vendor id, vendor error, receipt state) and the events
///   it emitted.
struct ConsoleLogRoutes: RouteCollection {
    static let csvRows = 10_000
    static let csvPages = 40
    let keys: APIKeyring
    let operations: ConsoleOperations
    let parser: DeclaredRangesParser
    let clock: any Clock

    func register(in router: inout Router) {
        let route = self
        router.add("GET", "/v1/admin/verification-log") { request, _ in
            return JSONResponse.make(
                200, try route.page(request.query, pendingIDs: route.keys.allows(request, .lockouts)), headers: ["Cache-Control": "no-store"])
        }
        router.add("GET", "/v1/admin/verification-log.csv") { request, _ in
            return HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store",
                    "Content-Disposition": "attachment; filename=\"verifications.csv\"",
                ], body: Array(try route.csv(request.query, pendingIDs: route.keys.allows(request, .lockouts)).utf8))
        }
        router.add("GET", "/v1/admin/verification-log/{id}") { _, context in
            JSONResponse.make(200, try route.detail(context.parameters["id"] ?? ""), headers: ["Cache-Control": "no-store"])
        }
    }

    var reader: ConsoleLogQuery { ConsoleLogQuery(parser: parser, defaultRegion: operations.defaultRegion) }

    /// `pendingIDs`: show the ids of pending verifications (anyone may cancel with one), only to a
    /// key trusted to lift locks (`lockouts`; admin keys hold every scope).
    func page(_ query: [String: String], pendingIDs: Bool = false) throws -> JSONValue {
        let q = try reader.read(query, now: clock.now())
        let page = try operations.log?.verificationLog(q) ?? VerificationLogPage(entries: [], next: nil)
        return [
            "verifications": .array(page.entries.map { Self.entryJSON($0, now: q.now, pendingIDs: pendingIDs) }),
            "next_cursor": page.next.map { .string($0.token) } ?? .null,
            "scan_limit": .int(Int64(VerificationLogQuery.scanLimit)),
        ]
    }

    static let csvColumns = [
        "id", "created_at", "phone_number", "country", "status", "channel_requested", "channel", "gateway", "delivery_status",
        "vendor_error", "attempts", "sends", "approved_at", "purpose",
    ]

    func csv(_ query: [String: String], pendingIDs: Bool = false) throws -> String {
        var q = try reader.read(query, now: clock.now(), defaultLimit: Self.maxLimitForCSV)
        q.limit = Self.maxLimitForCSV
        var out = Self.csvColumns.joined(separator: ",") + "\r\n"
        var rows = 0
        for _ in 0..<Self.csvPages {
            guard let page = try operations.log?.verificationLog(q) else { break }
            for entry in page.entries where rows < Self.csvRows {
                let json = Self.entryJSON(entry, now: q.now, pendingIDs: pendingIDs)
                out += Self.csvColumns.map { Self.csvCell(json[$0]) }.joined(separator: ",") + "\r\n"
                rows += 1
            }
            guard rows < Self.csvRows, let next = page.next else { break }
            q.after = next
        }
        return out
    }

    static let maxLimitForCSV = 500

    /// A CSV field: quoted when it holds a comma, quote or line break; a leading `=`, `@`, `-`,
    /// `+` (unless the rest is digits: a phone number) or control character gets a `'` so a
    /// spreadsheet never runs it as a formula.
    static func csvCell(_ value: JSONValue?) -> String {
        var text: String
        switch value {
        case .string(let s)?: text = s
        case .int(let n)?: text = String(n)
        default: text = ""
        }
        if let first = text.unicodeScalars.first, "=@-\t\r".unicodeScalars.contains(first) || (first == "+" && !text.dropFirst().allSatisfy(\.isNumber)) {
            text = "'" + text
        }
        if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            text = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }

    static func entryJSON(_ entry: VerificationLogEntry, now: Date, pendingIDs: Bool = false) -> JSONValue {
        let v = entry.verification, m = entry.message
        let requested = v.channel.isEmpty ? "sms" : v.channel
        let status = v.status(at: now)
        return [
            "id": status == .pending && !pendingIDs ? .null : .string(v.id), "phone_number": .string(v.phoneNumber), "country": .string(v.region),
            "status": .string(status.rawValue), "channel_requested": .string(requested),
            "channel": .string(m?.channel.rawValue ?? requested), "gateway": .optional(m?.gateway),
            "delivery_status": .optional(m?.status.rawValue), "vendor_error": .optional(m?.lastError),
            "attempts": .int(Int64(v.attempts)), "sends": .int(Int64(v.sends)), "purpose": .string(v.purpose.rawValue),
            "created_at": .string(RFC3339.format(v.createdAt)), "approved_at": v.approvedAt.map { .string(RFC3339.format($0)) } ?? .null,
        ]
    }

    func detail(_ id: String) throws -> JSONValue {
        guard id.utf8.count <= 64, let v = try operations.verification(id) else {
            throw VerifyError(.notFound, "no verification with this id", details: ["field": "id"])
        }
        let now = clock.now()
        let messages = try operations.log?.messages(verificationID: v.id, limit: 50) ?? []
        let events = try operations.stats?.events(mentioning: v.id, from: v.createdAt, to: v.expiresAt.addingTimeInterval(600), limit: 50) ?? []
        guard case .object(var members) = Self.entryJSON(VerificationLogEntry(verification: v, message: messages.last { $0.fallbackOf == nil || $0.attempts > 0 }), now: now, pendingIDs: true) else {
            return .null
        }
        members += [
            JSONMember("max_attempts", .int(Int64(v.maxAttempts))), JSONMember("expires_at", .string(RFC3339.format(v.expiresAt))),
            JSONMember("messages", .array(messages.map { m in
                let scheduled = m.fallbackOf != nil && m.attempts == 0 && m.status == .queued
                return [
                    "id": .string(m.id), "channel": .string(m.channel.rawValue), "gateway": .optional(m.gateway),
                    "status": .string(scheduled ? "scheduled" : m.status.rawValue), "attempts": .int(Int64(m.attempts)),
                    "vendor_id": .optional(m.providerMessageID), "vendor_error": .optional(m.lastError),
                    "fallback_of": .optional(m.fallbackOf), "created_at": .string(RFC3339.format(m.createdAt)),
                    "updated_at": .string(RFC3339.format(m.updatedAt)),
                    "next_attempt_at": m.status == .queued ? .string(RFC3339.format(m.nextAttemptAt)) : .null,
                ]
            })),
            JSONMember("events", .array(events.map { e in
                [
                    "id": .string(e.id), "type": .string(e.type), "status": .string(e.status), "attempts": .int(Int64(e.attempts)),
                    "last_error": .optional(e.lastError), "created_at": .string(RFC3339.format(e.createdAt)),
                ]
            })),
        ]
        return .object(members)
    }
}
