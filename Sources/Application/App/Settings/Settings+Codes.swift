import SettingsTable
import VerifyCore
import Encoding

/// The codes section of the settings table (read by `Configuration.readCodes`).
extension Settings {
    public static let codeSecret = Setting<String>(
        "PHONE_VERIFY_CODE_SECRET", .codes, .secret(minimumLength: 32, problem: "must be at least 32 characters (e.g. openssl rand -hex 32)"), default: "generated in dev (<data dir>/code-secret)",
        "server secret (≥ 32 characters) for code HMACs and outbox encryption; required in production, the same on every replica",
        secret: true, production: .required())

    public static let codeLength = Setting<Int>(
        "PHONE_VERIFY_CODE_LENGTH", .codes, .int(CodeGenerator.allowedLengths), defaultsTo: 6,
        "digits per code, 4–10")

    public static let codeTTL = Setting<Int>(
        "PHONE_VERIFY_CODE_TTL", .codes, .int(30...600), defaultsTo: 300,
        "seconds a code stays valid (NIST SP 800-63B caps at 600)")

    public static let maxAttempts = Setting<Int>(
        "PHONE_VERIFY_MAX_ATTEMPTS", .codes, .int(1...100), defaultsTo: 5,
        "checks per verification")

    public static let maxSends = Setting<Int>(
        "PHONE_VERIFY_MAX_SENDS", .codes, .int(1...20), defaultsTo: 5,
        "sends (first + resends) per verification")

    public static let resendCooldown = Setting<Int>(
        "PHONE_VERIFY_RESEND_COOLDOWN", .codes, .int(0...3600), defaultsTo: 30,
        "seconds before the first resend; doubles after each send")

    public static let allowedLineTypes = Setting<Set<LineType>>(
        "PHONE_VERIFY_ALLOWED_LINE_TYPES", .codes, .lineTypes, defaultsTo: [.mobile, .fixedLineOrMobile], shown: "mobile,fixed_line_or_mobile",
        "line types that may receive codes")

    public static let regionAllowList = Setting<[String]>(
        "PHONE_VERIFY_REGION_ALLOW_LIST", .codes, .regions, defaultsTo: [], shown: "(none)",
        "ISO 3166 regions allowed, comma-separated; empty allows all")

    public static let regionDenyList = Setting<[String]>(
        "PHONE_VERIFY_REGION_DENY_LIST", .codes, .regions, defaultsTo: [], shown: "(none)",
        "ISO 3166 regions refused, comma-separated")

    static let codesSection: [any SettingEntry] = [codeSecret, codeLength, codeTTL, maxAttempts, maxSends, resendCooldown, allowedLineTypes, regionAllowList, regionDenyList]
}

extension SettingType where Value == Set<LineType> {
    static var lineTypes: Self {
        checked("line types", problem: "must list line types from: " + LineType.allCases.map(\.rawValue).joined(separator: ", ")) { text in
            let types = SettingType<[String]>.items(text)
            let parsed = types.compactMap(LineType.init(rawValue:))
            return parsed.count != types.count || parsed.isEmpty ? nil : Set(parsed)
        }
    }
}

extension SettingType where Value == [String] {
    /// ISO 3166-1 alpha-2 codes, upper-cased; every bad one is reported.
    static var regions: Self {
        Self("ISO 3166-1 alpha-2 regions") { text in
            let items = items(text).map { $0.uppercased() }
            let bad = items.filter { !($0.count == 2 && $0.allSatisfy(ASCII.isLetter)) }
            return (items, bad.map { "\"\($0)\" is not an ISO 3166-1 alpha-2 region code" })
        }
    }
}
