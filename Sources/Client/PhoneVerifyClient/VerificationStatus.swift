/// Where a verification stands (`status` in every verification the server returns). A status a
/// newer server adds decodes as `.unknown` with its text instead of failing the call.
public enum VerificationStatus: RawRepresentable, Codable, Sendable, Hashable {
    case pending
    case approved
    case expired
    case canceled
    case maxAttemptsReached
    /// A status this version of the client does not know (the server's text).
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "pending": self = .pending
        case "approved": self = .approved
        case "expired": self = .expired
        case "canceled": self = .canceled
        case "max_attempts_reached": self = .maxAttemptsReached
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .pending: return "pending"
        case .approved: return "approved"
        case .expired: return "expired"
        case .canceled: return "canceled"
        case .maxAttemptsReached: return "max_attempts_reached"
        case .unknown(let text): return text
        }
    }

    /// Values compare and hash by their text, so `.unknown("sms")` (built by hand) equals `.sms`.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
