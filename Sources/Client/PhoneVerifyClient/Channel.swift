/// How the code is sent. A channel a newer server adds decodes as `.unknown` with its name
/// instead of failing the call.
public enum Channel: RawRepresentable, Codable, Sendable, Hashable {
    case sms
    case whatsapp
    /// A voice call that says the code.
    case call
    /// The server's configured order (by default WhatsApp, then SMS) with fallback: only in
    /// requests; answers name the channel actually used.
    case auto
    /// A channel this version of the client does not know (the server's name for it).
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "sms": self = .sms
        case "whatsapp": self = .whatsapp
        case "call": self = .call
        case "auto": self = .auto
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .sms: return "sms"
        case .whatsapp: return "whatsapp"
        case .call: return "call"
        case .auto: return "auto"
        case .unknown(let name): return name
        }
    }

    /// Values compare and hash by their text, so `.unknown("sms")` (built by hand) equals `.sms`.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
