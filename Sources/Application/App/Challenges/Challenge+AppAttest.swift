import Challenges
import CurlClient
import Encoding
import SettingsTable
import VerifyCore

// The app_attest provider (Apple App Attest, docs/CHALLENGES.md): settings, reading and
// construction.

public struct AppAttestSettings: Sendable {
    /// `TEAMID.bundle.id` of each app whose keys are accepted.
    public var appIDs: [String] = []
    public var environment: AppAttestEnvironment = .production

    public init() {}

    /// A team id (10 upper-case letters or digits), a dot, and a bundle id (letters, digits,
    /// "-" and "." only); nil when `text` is one, else the problem.
    static func appIDProblem(_ text: String) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let team = Array(parts[0].utf8), bundle = parts.count == 2 ? Array(parts[1].utf8) : []
        let teamOK = team.count == 10 && team.allSatisfy { ASCII.isUppercase($0) || ASCII.isDigit($0) }
        let bundleOK = !bundle.isEmpty && bundle.count <= 155 && bundle.allSatisfy { ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        return teamOK && bundleOK ? nil : "\"\(text.prefix(64))\" is not TEAMID.bundle.id (a 10-character team id, a dot, a bundle id)"
    }
}

extension Settings {
    public static let appAttestAppIDs = Setting<[String]>(
        "PHONE_VERIFY_APP_ATTEST_APP_IDS", .challenges, .list("comma-separated TEAMID.bundle.id", problem: AppAttestSettings.appIDProblem),
        default: "(none)",
        "app_attest: the apps whose App Attest keys are accepted, as TEAMID.bundle.id (required when app_attest is enabled)")

    public static let appAttestEnvironment = Setting<AppAttestEnvironment>(
        "PHONE_VERIFY_APP_ATTEST_ENVIRONMENT", .challenges, .choice(AppAttestEnvironment.self), default: "production",
        "app_attest: production (App Store, TestFlight) or development (apps run from Xcode); keys of the other are refused")

    static var appAttestSection: [any SettingEntry] { [appAttestAppIDs, appAttestEnvironment] }
}

extension Configuration {
    mutating func readAppAttest(_ reader: inout SettingReader) {
        challenges.appAttest.appIDs = reader(Settings.appAttestAppIDs) ?? []
        if let environment = reader(Settings.appAttestEnvironment) { challenges.appAttest.environment = environment }
        if challenges.providers.contains("app_attest"), challenges.appAttest.appIDs.isEmpty {
            reader.problem(Settings.appAttestAppIDs, "is required when \(Settings.challengeProviders.name) names app_attest")
        }
    }
}

extension ChallengeFactory {
    static func appAttestVerifiers(_ parts: Parts) throws -> [any ChallengeVerifier] {
        let settings = parts.configuration.challenges.appAttest
        return [
            try AppAttestVerifier(
                appIDs: settings.appIDs, environment: settings.environment, ledger: parts.ledger, nonceKey: parts.nonceKey, random: parts.random)
        ]
    }

    /// The App Attest routes' registry: the enabled `app_attest` provider, nil when it is off.
    static func appAttestRegistry(_ gate: ChallengeGate) -> (any AppAttestRegistry)? {
        gate.verifiers.lazy.compactMap { $0 as? any AppAttestRegistry }.first
    }
}
