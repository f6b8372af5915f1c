import API
import Encoding
import Foundation
import VerifyCore

/// The verification log's query string (`status`, `channel`, `country`, `number`, `since`,
/// `until`, `cursor`, `limit`) read into a ``VerificationLogQuery``; anything malformed is a 400
/// naming the field, and changes nothing.
struct ConsoleLogQuery {
    static let maxLimit = 100
    let parser: DeclaredRangesParser
    let defaultRegion: String?

    func read(_ query: [String: String], now: Date, defaultLimit: Int = 50) throws -> VerificationLogQuery {
        var q = VerificationLogQuery(limit: defaultLimit, now: now)
        if let text = query["limit"], !text.isEmpty {
            guard text.count <= 4, let value = Int(text), (1...Self.maxLimit).contains(value) else { throw Self.bad("limit", "limit must be 1–\(Self.maxLimit)") }
            q.limit = value
        }
        if let text = query["status"], !text.isEmpty {
            guard let status = VerificationStatus(rawValue: text) else {
                throw Self.bad("status", "status must be one of pending, approved, canceled, expired, max_attempts_reached")
            }
            q.status = status
        }
        if let text = query["channel"], !text.isEmpty {
            guard let channel = Channel(rawValue: text) else { throw Self.bad("channel", "channel must be sms, whatsapp or call") }
            q.channel = channel
        }
        if let text = query["country"], !text.isEmpty {
            let upper = text.uppercased()
            guard upper.utf8.count == 2, upper.utf8.allSatisfy(ASCII.isLetter) else { throw Self.bad("country", "country must be an ISO 3166 code such as NG") }
            q.region = upper
        }
        if let text = query["number"], !text.isEmpty {
            let typed = text.hasPrefix(" ") ? "+" + text.dropFirst() : text
            guard typed.utf8.count <= 32, case .success(let number) = parser.explain(typed, defaultRegion: defaultRegion) else {
                throw VerifyError(
                    .invalidPhoneNumber, "number is not a phone number" + (defaultRegion == nil ? " in international form (+ and country code)" : ""),
                    details: ["field": "number", "reason": "not_a_number"])
            }
            q.phoneNumber = number.number.e164
        }
        q.since = try instant(query["since"], "since")
        q.until = try instant(query["until"], "until")
        if let text = query["cursor"], !text.isEmpty {
            guard let cursor = VerificationLogCursor(token: text) else { throw Self.bad("cursor", "cursor is not one this route gave") }
            q.after = cursor
        }
        return q
    }

    func instant(_ text: String?, _ field: String) throws -> Date? {
        guard let text, !text.isEmpty else { return nil }
        let formatter = ISO8601DateFormatter()
        guard text.utf8.count <= 40, let date = formatter.date(from: text.replacingOccurrences(of: " ", with: "+")) else {
            throw Self.bad(field, "\(field) must be an RFC 3339 instant such as 2026-12-04T10:00:00Z")
        }
        return date
    }

    static func bad(_ field: String, _ message: String) -> VerifyError {
        VerifyError(.invalidRequest, message, details: ["field": .string(field)])
    }
}
