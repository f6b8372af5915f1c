import Foundation
import Encoding

/// Fixed-code test numbers for app-store review and CI: no SMS is sent and send limits do not
/// apply, but check attempts and lockouts do. In production they need an expiry.
public struct TestNumbers: Sendable, Equatable {
    public var codes: [String: String]
    /// After this instant test numbers are refused (`forbidden`).
    public var expiresAt: Date?

    public init(codes: [String: String] = [:], expiresAt: Date? = nil) {
        self.codes = codes
        self.expiresAt = expiresAt
    }

    public var isEmpty: Bool { codes.isEmpty }

    /// Parses `+15555550100:123456,+15555550101:654321` (E.164 syntax only, not validity).
    public static func parse(_ text: String) throws -> [String: String] {
        var codes: [String: String] = [:]
        for (index, item) in text.split(separator: ",").enumerated() {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: ":").map(String.init)
            guard parts.count == 2, let number = parts.first, number.hasPrefix("+"), (8...16).contains(number.count),
                number.dropFirst().allSatisfy(ASCII.isDigit),
                CodeGenerator.allowedLengths.contains(parts[1].count), parts[1].allSatisfy(ASCII.isDigit)
            else {
                // Nothing of the entry is quoted: error messages reach logs and `config check`, and
                // in a mistyped entry the code may stand anywhere.
                throw LimitSyntaxError(message: "entry \(index + 1): expected +E164:CODE with a 4–10 digit code")
            }
            if let earlier = codes[number], earlier != parts[1] {
                throw LimitSyntaxError(message: "entry \(index + 1): \(number) is listed twice with different codes")
            }
            codes[number] = parts[1]
        }
        return codes
    }

    /// The fixed code of `e164` when it is a test number, else nil. Throws `forbidden` for a test
    /// number once test numbers have expired: starts, resends, checks and approvals alike.
    public func code(for e164: String, now: Date) throws -> String? {
        guard let code = codes[e164] else { return nil }
        if let expiresAt, now >= expiresAt {
            throw VerifyError(.forbidden, "test numbers expired at \(RFC3339.format(expiresAt))")
        }
        return code
    }

    /// The normalised number when `text` names a test number ("+1 555-555-0100" matches).
    public func match(_ text: String) -> String? {
        guard !codes.isEmpty else { return nil }
        let compact = text.filter { !" -().".contains($0) }
        return codes[compact] == nil ? nil : compact
    }
}
