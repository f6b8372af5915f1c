import Foundation
import LibCrypto
import Testing
import VerifyCore
@testable import Challenges

@Suite struct GoogleServiceAccountTests {
    @Test func aKeyFileIsReadFromDisk() throws {
        let path = NSTemporaryDirectory() + "pv-sa-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(PlayIntegrityFixture.serviceAccountJSON(tokenURI: "https://oauth2.googleapis.com/token")).write(to: URL(fileURLWithPath: path))
        let account = try GoogleServiceAccount(file: path)
        #expect(account.clientEmail == FakeGoogle.clientEmail)
        #expect(account.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(account.keyID == "0123456789abcdef")
    }

    @Test func unusableFilesAreConfigurationErrors() throws {
        #expect(throws: ChallengeConfigurationError("cannot be read")) { try GoogleServiceAccount(file: "/nonexistent/sa.json") }
        #expect(throws: ChallengeConfigurationError.self) { try GoogleServiceAccount(json: Array("not json".utf8)) }
        #expect(throws: ChallengeConfigurationError("has no client_email")) {
            try GoogleServiceAccount(json: PlayIntegrityFixture.serviceAccountJSON(tokenURI: "https://t.example", email: ""))
        }
        let ecKey = try SigningKey.generate(.es256).privateKeyPEM()
        #expect(throws: ChallengeConfigurationError.self) {
            try GoogleServiceAccount(json: PlayIntegrityFixture.serviceAccountJSON(tokenURI: "https://t.example", pem: ecKey))
        }
        #expect(throws: ChallengeConfigurationError.self) {
            try GoogleServiceAccount(json: PlayIntegrityFixture.serviceAccountJSON(tokenURI: "ftp://t.example"))
        }
    }

    @Test func theAssertionIsAnRS256JWTForTheTokenEndpoint() throws {
        let account = try GoogleServiceAccount(json: PlayIntegrityFixture.serviceAccountJSON(tokenURI: "https://oauth2.googleapis.com/token"))
        let source = GoogleAccessTokenSource(account: account, scope: GoogleAccessTokenSource.playIntegrityScope, http: .init(), clock: SystemClock())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let parts = try source.signedAssertion(at: now).split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try JSONValue.parse(#require(Base64URL.decode(parts[0])))
        let claims = try JSONValue.parse(#require(Base64URL.decode(parts[1])))
        #expect(header["alg"] == "RS256" && header["kid"] == "0123456789abcdef")
        #expect(claims["iss"] == .string(FakeGoogle.clientEmail))
        #expect(claims["scope"] == "https://www.googleapis.com/auth/playintegrity")
        #expect(claims["aud"] == "https://oauth2.googleapis.com/token")
        #expect(claims["iat"] == 1_800_000_000 && claims["exp"] == 1_800_003_600)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(try PlayIntegrityFixture.key.verifyingKey().verify(signature: signature, message: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func certificateDigestsAreReadAsHexOrBase64URL() {
        let digest = Digest.sha256(Array("cert".utf8))
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        let colons = digest.map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(PlayIntegrityPolicy.certificateDigest(hex) == digest)
        #expect(PlayIntegrityPolicy.certificateDigest(colons) == digest)
        #expect(PlayIntegrityPolicy.certificateDigest(Base64URL.encode(digest)) == digest)
        #expect(PlayIntegrityPolicy.certificateDigest("abcd") == nil)
        #expect(PlayIntegrityPolicy.isPackageName("com.example.app_1"))
        #expect(!PlayIntegrityPolicy.isPackageName("com.example/x") && !PlayIntegrityPolicy.isPackageName("nodots"))
    }
}
