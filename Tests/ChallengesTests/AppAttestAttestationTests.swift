import CBOR
import Foundation
import LibCrypto
import Testing
import VerifyCore
@testable import Challenges

/// Apple's attestation steps against a real attestation object (`AppAttestFixture`), verified at
/// its own date, and the same object mutated.
@Suite struct AppAttestAttestationTests {
    static func checker(
        appIDs: [String] = [AppAttestFixture.appID], environment: AppAttestEnvironment = .development, root: X509Certificate? = nil
    ) throws -> AppAttestAttestation {
        AppAttestAttestation(appIDs: appIDs, environment: environment, root: try root ?? X509Certificate(pem: AppleAppAttestRoot.pem))
    }

    static let clientDataHash = Digest.sha256(Array(AppAttestFixture.challenge.utf8))

    static func verify(
        _ checker: AppAttestAttestation, object: [UInt8] = AppAttestFixture.attestation, keyID: [UInt8] = AppAttestFixture.keyIDBytes,
        clientDataHash: [UInt8] = clientDataHash, at time: Date = AppAttestFixture.verifiedAt
    ) -> Result<AppAttestAttestation.Verified, VerifyError> {
        do {
            return .success(try checker.verify(object, keyID: keyID, clientDataHash: clientDataHash, at: time))
        } catch let error as VerifyError {
            return .failure(error)
        } catch {
            return .failure(VerifyError(.internalError, "\(error)"))
        }
    }

    static func refusal(_ result: Result<AppAttestAttestation.Verified, VerifyError>) -> VerifyError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The fixture's certificates: [credCert, intermediate].
    static func x5c() throws -> [[UInt8]] {
        try AppAttestAttestation.parse(AppAttestFixture.attestation).x5c
    }

    static func withX5C(_ x5c: [[UInt8]]) throws -> [UInt8] {
        let object = try CBORDecoder().decode(AppAttestFixture.attestation)
        let statement = object["attStmt"]?.setting("x5c", .array(x5c.map { .bytes($0) })) ?? .null
        return CBOREncoding.encode(object.setting("attStmt", statement))
    }

    @Test func theRootIsApplesAppAttestationRootCA() throws {
        let root = try X509Certificate(pem: AppleAppAttestRoot.pem)
        #expect(Hex.encode(Digest.sha256(root.der)) == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
    }

    @Test func aRealAttestationVerifiesAtItsDate() throws {
        let result = Self.verify(try Self.checker())
        let verified = try result.get()
        #expect(verified.appID == AppAttestFixture.appID)
        #expect(verified.publicKey == (try VerifyingKey(pem: AppAttestFixture.publicKeyPEM).subjectPublicKeyInfo()))
        // The key id is SHA-256 of the credential key's point.
        let point = try VerifyingKey(subjectPublicKeyInfo: verified.publicKey).uncompressedPoint()
        #expect(Digest.sha256(point) == AppAttestFixture.keyIDBytes)
    }

    @Test func theAppIDIsOneOfTheConfiguredOnes() throws {
        let checker = try Self.checker(appIDs: ["ABCDE12345.com.example.app", AppAttestFixture.appID])
        #expect(try Self.verify(checker).get().appID == AppAttestFixture.appID)
        let refused = Self.refusal(Self.verify(try Self.checker(appIDs: ["6MURL8TA57.de.vincent-haupert.other-app"])))
        #expect(refused?.code == .challengeFailed)
        #expect(refused?.message.contains("another app") == true)
    }

    @Test func aDevelopmentKeyIsRefusedInProduction() throws {
        let refused = Self.refusal(Self.verify(try Self.checker(environment: .production)))
        #expect(refused?.code == .challengeFailed)
        #expect(refused?.message.contains("production environment") == true)
    }

    @Test func anotherNonceIsRefused() throws {
        let refused = Self.refusal(Self.verify(try Self.checker(), clientDataHash: Digest.sha256(Array("wurzelpfropf2".utf8))))
        #expect(refused?.code == .challengeFailed)
        #expect(refused?.message.contains("not for this challenge") == true)
    }

    @Test func anotherKeyIDIsRefused() throws {
        var keyID = AppAttestFixture.keyIDBytes
        keyID[0] ^= 1
        let refused = Self.refusal(Self.verify(try Self.checker(), keyID: keyID))
        #expect(refused?.code == .challengeFailed)
        #expect(refused?.message.contains("another key") == true)
    }

    @Test func theChainMustVerifyToApplesRootAtTheTime() throws {
        // After the credential certificate expired.
        let expired = Self.refusal(Self.verify(try Self.checker(), at: AppAttestFixture.verifiedAt.addingTimeInterval(3 * 86_400)))
        #expect(expired?.message.contains("certificate chain") == true)
        // Before it was issued.
        let early = Self.refusal(Self.verify(try Self.checker(), at: AppAttestFixture.verifiedAt.addingTimeInterval(-86_400)))
        #expect(early?.message.contains("certificate chain") == true)
    }

    @Test func aBrokenChainIsRefused() throws {
        let x5c = try Self.x5c()
        var tampered = x5c[0]
        tampered[tampered.count - 3] ^= 0x01  // inside the leaf's signature
        for object in [try Self.withX5C([tampered, x5c[1]]), try Self.withX5C([x5c[1], x5c[0]]), try Self.withX5C([x5c[0], x5c[0]])] {
            #expect(Self.refusal(Self.verify(try Self.checker(), object: object))?.code == .challengeFailed)
        }
        // A single certificate is not a chain.
        #expect(Self.refusal(Self.verify(try Self.checker(), object: try Self.withX5C([x5c[0]])))?.code == .invalidRequest)
        // The intermediate is no trust anchor (no partial chains), and another root is not Apple's.
        let intermediate = try X509Certificate(der: x5c[1])
        #expect(Self.refusal(Self.verify(try Self.checker(root: intermediate)))?.message.contains("certificate chain") == true)
    }

    @Test func theFormatMustBeAppleAppAttest() throws {
        let object = try CBORDecoder().decode(AppAttestFixture.attestation).setting("fmt", .text("packed"))
        #expect(Self.refusal(Self.verify(try Self.checker(), object: CBOREncoding.encode(object)))?.code == .challengeFailed)
    }

    @Test func changedAuthenticatorDataBreaksTheNonce() throws {
        let object = try CBORDecoder().decode(AppAttestFixture.attestation)
        guard var authData = object["authData"]?.bytesValue else { Issue.record("no authData"); return }
        authData[36] = 1  // counter 1
        let refused = Self.refusal(Self.verify(try Self.checker(), object: CBOREncoding.encode(object.setting("authData", .bytes(authData)))))
        #expect(refused?.message.contains("not for this challenge") == true)
    }

    @Test func bombsAndGarbageAreInvalidRequests() throws {
        let bombs: [[UInt8]] = [
            [0xa3, 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [UInt8](repeating: 0x81, count: 5000), [0xbf, 0xff],
            [], [0x00], Array(AppAttestFixture.attestation.dropLast()),
        ]
        for bomb in bombs {
            #expect(Self.refusal(Self.verify(try Self.checker(), object: bomb))?.code == .invalidRequest)
        }
    }
}
