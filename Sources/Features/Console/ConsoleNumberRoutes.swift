import API
import Encoding
import HTTPMessages
import VerifyCore

/// `GET /v1/admin/numbers/{phone}?limit=&cursor=`: everything the console's lookup page shows
/// about one number, for a key (or console session) with `read`: the parse (valid, region, line
/// type, whether an operator-declared range made it valid), its recent verifications (status,
/// channel, attempts, times, delivery state and vendor error; never a code), its failed-check
/// lockouts, its send quota (`phone_send`) and the MFA factors enrolled with it. Verifications are paged: `limit` (1–100,
/// default 20) newest first, `next_cursor` to pass as `cursor` for older ones, at most the
/// newest ``maxScanned`` in all.
struct ConsoleNumberRoutes: RouteCollection {
    static let maxScanned = VerificationAdmin.maxLimit
    let keys: APIKeyring
    let parser: DeclaredRangesParser
    let defaultRegion: String?
    let verifications: VerificationAdmin?
    let lockouts: LockoutAdmin?
    let factors: (any FactorAdminStore)?
    let quota: ConsoleSendQuota?

    func register(in router: inout Router) {
        let route = self
        router.add("GET", "/v1/admin/numbers/{phone}") { request, context in
            // Pending ids (which anyone may cancel with) only for keys trusted to lift locks.
            try route.lookup(context.parameters["phone"] ?? "", query: request.query, pendingIDs: route.keys.allows(request, .lockouts))
        }
    }

    func lookup(_ typed: String, query: [String: String], pendingIDs: Bool = false) throws -> HTTPResponse {
        let explained = try explain(typed)
        let (limit, cursor) = try Self.paging(query)
        let number = explained.number
        var list = try verifications?.list(phone: number.e164, limit: Self.maxScanned) ?? []
        if let cursor { list = list.filter { $0.verification.id < cursor } }
        let page = Array(list.prefix(limit))
        // The cursor keeps the id's time and 16 random bits only: a pending id is never shown.
        let next: JSONValue = list.count > limit ? .string(String(page.last!.verification.id.prefix(20))) : .null
        let locks = try lockouts?.list(phone: number.e164) ?? []
        let enrolled = try factors?.factors(phoneNumber: number.e164, limit: Self.maxScanned) ?? []
        let sends = try quota?.status(of: number.e164) ?? []
        let body: JSONValue = [
            "phone_number": .string(number.e164),
            "parse": [
                "valid": true, "region": .string(number.region), "country_code": .int(Int64(number.countryCode)),
                "line_type": .string(number.lineType.rawValue), "international": .string(number.international),
                "source": .string(explained.range == nil ? "libphonenumber" : "declared_range"),
                "range": explained.range.map { r in
                    ["region": .string(r.region), "prefix": .string(r.prefix), "length": .int(Int64(r.length)), "type": .string(r.lineType.rawValue)]
                } ?? .null,
            ],
            "verifications": .array(page.map { Self.verificationJSON($0, pendingIDs: pendingIDs) }),
            "next_cursor": next,
            "lockouts": .array(locks.map { l in
                [
                    "requester": .string(l.requester), "failures": .int(Int64(l.failures)),
                    "locked_until": l.lockedUntil.map { .string(RFC3339.format($0)) } ?? .null,
                ]
            }),
            "send_quota": .array(sends.map { q in
                [
                    "window_seconds": .int(Int64(q.rule.window)), "quota": .int(Int64(q.rule.quota)),
                    "remaining": .int(Int64(q.remaining)), "reset_seconds": .int(Int64(q.resetSeconds)),
                ]
            }),
            "factors": .array(enrolled.map { f in
                [
                    "id": .string(f.id), "subject": .string(f.subject), "created_at": .string(RFC3339.format(f.createdAt)),
                    "last_used_at": f.lastUsedAt.map { .string(RFC3339.format($0)) } ?? .null,
                ]
            }),
        ]
        return JSONResponse.make(200, body, headers: ["Cache-Control": "no-store"])
    }

    /// The typed number, parsed (or matched to a declared range); throws why it is not one.
    private func explain(_ typed: String) throws -> DeclaredRangesParser.Explained {
        let text = typed.hasPrefix(" ") ? "+" + typed.dropFirst() : typed
        guard text.utf8.count <= 32, case .success(let explained) = parser.explain(text, defaultRegion: defaultRegion) else {
            let reason: String
            if text.utf8.count > 32 { reason = PhoneNumberProblem.tooLong.rawValue }
            else if case .failure(let problem) = parser.explain(text, defaultRegion: defaultRegion) { reason = problem.rawValue }
            else { reason = "not_a_number" }
            throw VerifyError(
                .invalidPhoneNumber, "not a valid phone number (\(reason)): write it with + and the country code, e.g. +14155552671",
                details: ["reason": .string(reason), "field": "phone"])
        }
        return explained
    }

    /// `limit` (1–``maxScanned``, default 20) and `cursor` (an id prefix this route gave).
    private static func paging(_ query: [String: String]) throws -> (limit: Int, cursor: String?) {
        var limit = 20
        if let text = query["limit"] {
            guard text.count <= 4, let value = Int(text), (1...maxScanned).contains(value) else {
                throw VerifyError(.invalidRequest, "limit must be 1–\(maxScanned)", details: ["field": "limit"])
            }
            limit = value
        }
        let cursor = query["cursor"]
        if let cursor, cursor.utf8.count > 64 || !cursor.utf8.allSatisfy({ $0 == 0x5F || ASCII.isAlphanumeric($0) }) {
            throw VerifyError(.invalidRequest, "cursor is not one this route gave", details: ["field": "cursor"])
        }
        return (limit, cursor)
    }

    static func verificationJSON(_ view: VerificationView, pendingIDs: Bool = false) -> JSONValue {
        let v = view.verification
        return [
            "id": view.status == .pending && !pendingIDs ? .null : .string(v.id), "status": .string(view.status.rawValue), "channel": .string(v.channel.isEmpty ? "sms" : v.channel),
            "channel_used": view.delivery.map { .string($0.channel.rawValue) } ?? .null,
            "purpose": .string(v.purpose.rawValue), "attempts": .int(Int64(v.attempts)), "max_attempts": .int(Int64(v.maxAttempts)),
            "sends": .int(Int64(v.sends)), "created_at": .string(RFC3339.format(v.createdAt)),
            "expires_at": .string(RFC3339.format(v.expiresAt)), "approved_at": v.approvedAt.map { .string(RFC3339.format($0)) } ?? .null,
            "delivery": view.delivery.map(VerificationJSON.delivery) ?? .null,
        ]
    }
}

