import CurlClient
import Foundation
import LibCrypto
import Testing
import VerifyCore
import VerifyTesting
@testable import Challenges

/// A Play Integrity verifier wired to a fake Google, and verdicts built the way Google shapes them.
struct PlayIntegrityFixture {
    /// The service account's key, generated once (RSA generation is slow).
    static let key = try! SigningKey.generate(.rs256)
    static let package = "com.example.verify"
    /// SHA-256 of the app's signing certificate.
    static let certificate = Digest.sha256(Array("test signing certificate".utf8))
    static let phone = "+14155552671"

    let google: FakeGoogle
    let clock = ManualClock()
    let verifier: PlayIntegrityVerifier

    init(packages: [String] = [Self.package], deviceVerdict: String = "MEETS_DEVICE_INTEGRITY", cloudProjectNumber: String? = nil) throws {
        google = try FakeGoogle(publicKey: Self.key.verifyingKey())
        let account = try GoogleServiceAccount(json: Self.serviceAccountJSON(tokenURI: google.tokenURI))
        let http = HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: 2, totalTimeout: 3, allowedSchemes: ["http", "https"]))
        // Digests configured as the Play Console shows them: hex with colons.
        let hex = Self.certificate.map { String(format: "%02X", $0) }.joined(separator: ":")
        let policy = PlayIntegrityPolicy(
            packageNames: packages, certificateDigests: [try #require(PlayIntegrityPolicy.certificateDigest(hex))],
            deviceVerdict: deviceVerdict)
        verifier = PlayIntegrityVerifier(
            policy: policy, tokens: GoogleAccessTokenSource(account: account, scope: GoogleAccessTokenSource.playIntegrityScope, http: http, clock: clock),
            http: http, baseURL: google.base, cloudProjectNumber: cloudProjectNumber)
    }

    static func serviceAccountJSON(tokenURI: String, email: String = FakeGoogle.clientEmail, pem: String? = nil) throws -> [UInt8] {
        JSONValue.object([
            JSONMember("type", "service_account"), JSONMember("project_id", "phone-verify-test"),
            JSONMember("private_key_id", "0123456789abcdef"),
            JSONMember("private_key", .string(try pem ?? key.privateKeyPEM())), JSONMember("client_email", .string(email)),
            JSONMember("token_uri", .string(tokenURI)),
        ]).encoded()
    }

    func context(action: String = "start", phone: String = Self.phone) -> ChallengeContext {
        ChallengeContext(action: action, phoneNumber: phone, clientIP: "203.0.113.7", now: clock.now())
    }

    /// A verdict as Google returns it for a genuine app on a genuine device, bound to `binding`.
    func verdict(
        binding: String? = nil, hashMember: String = "requestHash", package: String = Self.package, age: TimeInterval = 5,
        appVerdict: String = "PLAY_RECOGNIZED", certificate: [UInt8] = Self.certificate, device: [String] = ["MEETS_DEVICE_INTEGRITY"]
    ) -> JSONValue {
        let millis = Int64((clock.now().timeIntervalSince1970 - age) * 1000)
        let hash = PlayIntegrityPolicy.requestHash(for: binding ?? context().binding)
        return .object([
            JSONMember("requestDetails", .object([
                JSONMember("requestPackageName", .string(package)), JSONMember(hashMember, .string(hashMember == "nonce" ? hash + "=" : hash)),
                JSONMember("timestampMillis", .string(String(millis))),
            ])),
            JSONMember("appIntegrity", .object([
                JSONMember("appRecognitionVerdict", .string(appVerdict)), JSONMember("packageName", .string(package)),
                JSONMember("certificateSha256Digest", [.string(Base64URL.encode(certificate))]), JSONMember("versionCode", "42"),
            ])),
            JSONMember("deviceIntegrity", .object([JSONMember("deviceRecognitionVerdict", .array(device.map { .string($0) }))])),
            JSONMember("accountDetails", .object([JSONMember("appLicensingVerdict", "UNEVALUATED")])),
        ])
    }

    /// An opaque integrity token (what the app would get from Google Play).
    static func token(_ seed: String = UUID().uuidString) -> String {
        "eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0." + Base64URL.encode(Array(seed.utf8)) + ".c2lnbmF0dXJl"
    }

    func submission(_ token: String = Self.token(), fields: [String: String] = [:]) -> ChallengeSubmission {
        ChallengeSubmission(provider: "play_integrity", token: token, fields: fields)
    }
}
