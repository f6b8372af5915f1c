@testable import App
import Foundation
import LibCrypto
import Testing
import VerifyCore

/// play_integrity and grant settings: an enabled provider with incomplete settings, or a
/// service-account file that cannot be used, stops the start with the variable's name.
@Suite struct ChallengeProviderSettingsTests {
    static let digest = String(repeating: "AB:", count: 31) + "AB"

    static func serviceAccountFile(_ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "pv-sa-\(UUID().uuidString).json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func playIntegrityNeedsItsPackagesDigestsAndServiceAccount() {
        let problems = problems(["PHONE_VERIFY_CHALLENGE_PROVIDERS": "play_integrity"])
        for name in ["PACKAGE_NAMES", "CERT_DIGESTS", "SERVICE_ACCOUNT_FILE"] {
            #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_PLAY_INTEGRITY_" + name + " is required") }, "\(problems)")
        }
    }

    @Test func anUnusableServiceAccountFileIsAStartUpProblem() throws {
        let base = [
            "PHONE_VERIFY_CHALLENGE_PROVIDERS": "play_integrity", "PHONE_VERIFY_PLAY_INTEGRITY_PACKAGE_NAMES": "com.example.app",
            "PHONE_VERIFY_PLAY_INTEGRITY_CERT_DIGESTS": Self.digest,
        ]
        let garbage = try Self.serviceAccountFile("{\"type\": \"service_account\", \"client_email\": \"a@b.test\", \"private_key\": \"nope\"}")
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        for file in ["/nonexistent/sa.json", garbage] {
            let problems = problems(base.merging(["PHONE_VERIFY_PLAY_INTEGRITY_SERVICE_ACCOUNT_FILE": file]) { $1 })
            #expect(problems.count == 1 && problems[0].hasPrefix("PHONE_VERIFY_PLAY_INTEGRITY_SERVICE_ACCOUNT_FILE"), "\(problems)")
        }
    }

    @Test func aCompletePlayIntegrityConfigurationLoads() throws {
        let key = try SigningKey.generate(.rs256)
        let document = JSONValue.object([
            JSONMember("type", "service_account"), JSONMember("client_email", "v@p.iam.gserviceaccount.com"),
            JSONMember("private_key", .string(try key.privateKeyPEM())), JSONMember("token_uri", "https://oauth2.googleapis.com/token"),
        ])
        let file = try Self.serviceAccountFile(document.encodedString())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_CHALLENGE_PROVIDERS": "play_integrity", "PHONE_VERIFY_PLAY_INTEGRITY_PACKAGE_NAMES": "com.example.app, com.example.lite",
            "PHONE_VERIFY_PLAY_INTEGRITY_CERT_DIGESTS": Self.digest, "PHONE_VERIFY_PLAY_INTEGRITY_SERVICE_ACCOUNT_FILE": file,
            "PHONE_VERIFY_PLAY_INTEGRITY_DEVICE_VERDICT": "meets_strong_integrity",
        ])
        let s = c.challenges.playIntegrity
        #expect(s.packageNames == ["com.example.app", "com.example.lite"])
        #expect(s.certificateDigests == [[UInt8](repeating: 0xAB, count: 32)])
        #expect(s.serviceAccount?.clientEmail == "v@p.iam.gserviceaccount.com")
        #expect(s.deviceVerdict == "MEETS_STRONG_INTEGRITY" && s.maxAge == 120 && s.appVerdicts == ["PLAY_RECOGNIZED"])
    }

    @Test(arguments: [
        ("PHONE_VERIFY_PLAY_INTEGRITY_PACKAGE_NAMES", "com.example/../x"), ("PHONE_VERIFY_PLAY_INTEGRITY_CERT_DIGESTS", "abcd"),
        ("PHONE_VERIFY_PLAY_INTEGRITY_DEVICE_VERDICT", "MEETS_NOTHING"), ("PHONE_VERIFY_PLAY_INTEGRITY_APP_VERDICTS", "UNEVALUATED"),
        ("PHONE_VERIFY_PLAY_INTEGRITY_MAX_AGE", "3600"), ("PHONE_VERIFY_PLAY_INTEGRITY_VERIFY_URL", "ftp://x"),
        ("PHONE_VERIFY_PLAY_INTEGRITY_CLOUD_PROJECT_NUMBER", "my-project"), ("PHONE_VERIFY_GRANT_JWKS_URL", "jwks.json"),
        ("PHONE_VERIFY_GRANT_MAX_LIFETIME", "86400"),
    ])
    func invalidValuesAreReportedByName(name: String, value: String) {
        #expect(problems([name: value]).contains { $0.hasPrefix(name) })
    }

    @Test func grantNeedsAnIssuerAndAKey() {
        let problems = problems(["PHONE_VERIFY_CHALLENGE_PROVIDERS": "grant"])
        #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_GRANT_ISSUER is required") })
        #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_GRANT_HS256_SECRET or PHONE_VERIFY_GRANT_JWKS_URL is required") })
        // Without PHONE_VERIFY_ISSUER, the audience has no default.
        #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_GRANT_AUDIENCE is required") })
    }

    @Test func grantsAudienceDefaultsToTheIssuer() throws {
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_CHALLENGE_PROVIDERS": "grant", "PHONE_VERIFY_ISSUER": "https://verify.example.test",
            "PHONE_VERIFY_GRANT_ISSUER": "https://backend.example.test", "PHONE_VERIFY_GRANT_JWKS_URL": "http://127.0.0.1:9/jwks.json",
        ])
        #expect(c.challenges.grant.audience == nil && c.issuer == "https://verify.example.test")
        #expect(c.challenges.grant.maxLifetime == 300)
    }

    @Test func productionWantsALongGrantSecretAndHTTPS() {
        let problems = problems([
            "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_CHALLENGE_PROVIDERS": "grant", "PHONE_VERIFY_GRANT_ISSUER": "https://b.example",
            "PHONE_VERIFY_GRANT_HS256_SECRET": "short", "PHONE_VERIFY_GRANT_JWKS_URL": "http://backend.example/jwks.json",
        ])
        #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_GRANT_HS256_SECRET must be at least 32 bytes") })
        #expect(problems.contains { $0.hasPrefix("PHONE_VERIFY_GRANT_JWKS_URL must be https") })
        #expect(!problems.joined().contains("short"))
        #expect(Settings.grantHS256Secret.mask == .secret)
    }
}
