import Foundation
import VerifyCore

/// A vendor's answer about one token, in the terms `SiteVerifyRules` checks.
struct VendorVerdict: Sendable, Equatable {
    /// Whether the vendor called the token valid.
    var valid: Bool
    /// Why not (siteverify's `error-codes`, Enterprise's `invalidReason`), sanitised.
    var reasons: [String] = []
    var hostname: String?
    var action: String?
    var score: Double?
    /// When the challenge was solved (`challenge_ts`, `createTime`).
    var challengeTime: Date?

    /// A siteverify answer (`{"success": …, "error-codes": […], "hostname", "action",
    /// "challenge_ts", "score"}`): Turnstile, hCaptcha and reCAPTCHA v2/v3 share the shape.
    /// Throws `unavailable` when the body is not such an object.
    static func siteVerify(_ body: JSONValue, provider: String) throws -> VendorVerdict {
        guard let success = body["success"]?.boolValue else { throw ChallengeVendorError.unavailable(provider) }
        return VendorVerdict(
            valid: success,
            reasons: codes(body["error-codes"]),
            hostname: body["hostname"]?.stringValue,
            action: body["action"]?.stringValue,
            score: body["score"]?.numberValue,
            challengeTime: try time(body["challenge_ts"], provider: provider))
    }

    /// A vendor timestamp (RFC 3339, any fraction of a second); a present but unreadable one
    /// makes the whole answer unreadable.
    static func time(_ value: JSONValue?, provider: String) throws -> Date? {
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        guard let date = VendorTimestamp.parse(text) else { throw ChallengeVendorError.unavailable(provider) }
        return date
    }

    /// Error codes as short, printable words: they are quoted to the client, so a vendor (or a
    /// fake one) cannot put arbitrary text in an error message.
    static func codes(_ value: JSONValue?) -> [String] {
        (value?.arrayValue ?? []).compactMap(\.stringValue).prefix(5).map(sanitised)
    }

    static func sanitised(_ code: String) -> String {
        String(code.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
            .prefix(64).map(Character.init))
    }

    /// The refusal of an invalid token, naming the vendor's reasons.
    func refusal(provider: String) -> VerifyError {
        ChallengeVendorError.failed(provider, reasons.isEmpty ? "the vendor rejected the token" : reasons.joined(separator: ", "))
    }
}

extension JSONValue {
    /// A JSON number as a Double (integers included).
    var numberValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}
