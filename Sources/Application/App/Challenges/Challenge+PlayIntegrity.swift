import Challenges
import CurlClient
import SettingsTable
import VerifyCore

/// The `play_integrity` provider's settings as read (docs/CHALLENGES.md, "play_integrity").
public struct PlayIntegritySettings: Sendable {
    public var packageNames: [String] = []
    /// SHA-256 digests of the accepted signing certificates.
    public var certificateDigests: [[UInt8]] = []
    /// The parsed key file (read at start-up, so a bad file stops the start).
    public var serviceAccount: GoogleServiceAccount?
    public var verifyURL = PlayIntegrityVerifier.defaultBaseURL
    public var appVerdicts = ["PLAY_RECOGNIZED"]
    public var deviceVerdict = "MEETS_DEVICE_INTEGRITY"
    public var maxAge = 120
    public var cloudProjectNumber: String?

    public init() {}
}

extension Settings {
    public static let playIntegrityPackageNames = Setting<[String]>(
        "PHONE_VERIFY_PLAY_INTEGRITY_PACKAGE_NAMES", .challenges,
        .list("comma-separated Android package names") {
            PlayIntegrityPolicy.isPackageName($0) ? nil : "has \"\($0.prefix(64))\", which is not an Android package name"
        },
        default: "(none)", "Android apps (package names) whose integrity tokens are accepted; required by play_integrity")

    public static let playIntegrityCertDigests = Setting<[String]>(
        "PHONE_VERIFY_PLAY_INTEGRITY_CERT_DIGESTS", .challenges,
        .list("comma-separated SHA-256 digests") {
            PlayIntegrityPolicy.certificateDigest($0) == nil ? "has an item that is not a SHA-256 digest (hex, or base64url)" : nil
        },
        default: "(none)",
        "SHA-256 digests of the accepted app signing certificates (hex as the Play Console shows it, or base64url); required by play_integrity")

    public static let playIntegrityServiceAccountFile = Setting<String>(
        "PHONE_VERIFY_PLAY_INTEGRITY_SERVICE_ACCOUNT_FILE", .challenges, .text, default: "(none)",
        "Google service-account JSON key file (client_email, private_key, token_uri) allowed to decode integrity tokens; required by play_integrity")

    public static let playIntegrityVerifyURL = Setting<String>(
        "PHONE_VERIFY_PLAY_INTEGRITY_VERIFY_URL", .challenges, .url, default: PlayIntegrityVerifier.defaultBaseURL,
        "base URL of the Play Integrity API (decodeIntegrityToken)",
        production: .httpsOrLoopback { $0.challenges.providers.contains("play_integrity") ? $0.challenges.playIntegrity.verifyURL : nil })

    public static let playIntegrityAppVerdicts = Setting<[String]>(
        "PHONE_VERIFY_PLAY_INTEGRITY_APP_VERDICTS", .challenges,
        .list("comma-separated verdicts") {
            PlayIntegrityPolicy.appVerdicts.contains($0) ? nil : "has \"\($0.prefix(32))\"; allowed: " + PlayIntegrityPolicy.appVerdicts.joined(separator: ", ")
        },
        default: "PLAY_RECOGNIZED", "accepted appIntegrity.appRecognitionVerdict values: PLAY_RECOGNIZED, UNRECOGNIZED_VERSION")

    public static let playIntegrityDeviceVerdict = Setting<String>(
        "PHONE_VERIFY_PLAY_INTEGRITY_DEVICE_VERDICT", .challenges,
        .oneOf(PlayIntegrityPolicy.deviceLabels + [PlayIntegrityPolicy.virtualLabel]) { $0.uppercased() },
        default: "MEETS_DEVICE_INTEGRITY",
        "device label the verdict must carry (a stronger one also passes; MEETS_VIRTUAL_INTEGRITY only by name)")

    public static let playIntegrityMaxAge = Setting<Int>(
        "PHONE_VERIFY_PLAY_INTEGRITY_MAX_AGE", .challenges, .int(10...600), default: "120",
        "seconds an integrity token stays acceptable after the app requested it")

    public static let playIntegrityCloudProjectNumber = Setting<String>(
        "PHONE_VERIFY_PLAY_INTEGRITY_CLOUD_PROJECT_NUMBER", .challenges,
        .checked("digits", problem: "must be a Google Cloud project number (digits)") { text in
            text.count <= 20 && text.allSatisfy { $0.isASCII && $0.isNumber } ? text : nil
        },
        default: "(none)", "Google Cloud project number, offered to apps in challenge_required for standard requests")

    static var playIntegritySection: [any SettingEntry] {
        [
            playIntegrityPackageNames, playIntegrityCertDigests, playIntegrityServiceAccountFile, playIntegrityVerifyURL,
            playIntegrityAppVerdicts, playIntegrityDeviceVerdict, playIntegrityMaxAge, playIntegrityCloudProjectNumber,
        ]
    }
}

extension Configuration {
    /// Play Integrity's settings; when the provider is enabled, its packages, digests and a
    /// readable service-account file are required.
    mutating func readPlayIntegrity(_ reader: inout SettingReader) {
        var s = PlayIntegritySettings()
        let enabled = challenges.providers.contains("play_integrity")
        let user = "the play_integrity provider"
        s.packageNames = (enabled ? reader.required(Settings.playIntegrityPackageNames, for: user) : reader(Settings.playIntegrityPackageNames)) ?? []
        let digests = (enabled ? reader.required(Settings.playIntegrityCertDigests, for: user) : reader(Settings.playIntegrityCertDigests)) ?? []
        s.certificateDigests = digests.compactMap(PlayIntegrityPolicy.certificateDigest)
        let file = enabled ? reader.required(Settings.playIntegrityServiceAccountFile, for: user) : reader(Settings.playIntegrityServiceAccountFile)
        s.verifyURL = reader(Settings.playIntegrityVerifyURL) ?? s.verifyURL
        s.appVerdicts = reader(Settings.playIntegrityAppVerdicts).flatMap { $0.isEmpty ? nil : $0 } ?? s.appVerdicts
        s.deviceVerdict = reader(Settings.playIntegrityDeviceVerdict) ?? s.deviceVerdict
        s.maxAge = reader(Settings.playIntegrityMaxAge) ?? s.maxAge
        s.cloudProjectNumber = reader(Settings.playIntegrityCloudProjectNumber)
        if enabled, let file {
            do {
                let account = try GoogleServiceAccount(file: file)
                if mode == .production, !SettingReader.isHTTPSOrLoopback(account.tokenURI) {
                    reader.problem(Settings.playIntegrityServiceAccountFile, "has a token_uri that is not https (required in production mode)")
                }
                s.serviceAccount = account
            } catch let error as ChallengeConfigurationError {
                reader.problem(Settings.playIntegrityServiceAccountFile, error.description)
            } catch {
                reader.problem(Settings.playIntegrityServiceAccountFile, "cannot be read")
            }
        }
        challenges.playIntegrity = s
    }
}

extension ChallengeFactory {
    static func playIntegrityVerifiers(_ parts: Parts, http: HTTPClient) throws -> [any ChallengeVerifier] {
        let s = parts.configuration.challenges.playIntegrity
        guard let account = s.serviceAccount, !s.packageNames.isEmpty, !s.certificateDigests.isEmpty else {
            throw ConfigurationError(problems: ["the play_integrity provider is enabled without its packages, digests or service account"])
        }
        let policy = PlayIntegrityPolicy(
            packageNames: s.packageNames, certificateDigests: s.certificateDigests, appVerdicts: s.appVerdicts,
            deviceVerdict: s.deviceVerdict, maxAgeSeconds: s.maxAge)
        let tokens = GoogleAccessTokenSource(account: account, scope: GoogleAccessTokenSource.playIntegrityScope, http: http, clock: parts.clock)
        return [PlayIntegrityVerifier(policy: policy, tokens: tokens, http: http, baseURL: s.verifyURL, cloudProjectNumber: s.cloudProjectNumber)]
    }
}
