import Encoding
import Foundation
import LibCrypto
import Testing

/// Certificates, chains at a given time, DER keys and DER ECDSA signatures.
@Suite struct X509CertificateTests {
    /// Apple App Attestation Root CA (public; P-384, self-signed, 2020-03-18 to 2045-03-15).
    static let rootPEM = """
        -----BEGIN CERTIFICATE-----
        MIICITCCAaegAwIBAgIQC/O+DvHN0uD7jG5yH2IXmDAKBggqhkjOPQQDAzBSMSYw
        JAYDVQQDDB1BcHBsZSBBcHAgQXR0ZXN0YXRpb24gUm9vdCBDQTETMBEGA1UECgwK
        QXBwbGUgSW5jLjETMBEGA1UECAwKQ2FsaWZvcm5pYTAeFw0yMDAzMTgxODMyNTNa
        Fw00NTAzMTUwMDAwMDBaMFIxJjAkBgNVBAMMHUFwcGxlIEFwcCBBdHRlc3RhdGlv
        biBSb290IENBMRMwEQYDVQQKDApBcHBsZSBJbmMuMRMwEQYDVQQIDApDYWxpZm9y
        bmlhMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAERTHhmLW07ATaFQIEVwTtT4dyctdh
        NbJhFs/Ii2FdCgAHGbpphY3+d8qjuDngIN3WVhQUBHAoMeQ/cLiP1sOUtgjqK9au
        Yen1mMEvRq9Sk3Jm5X8U62H+xTD3FE9TgS41o0IwQDAPBgNVHRMBAf8EBTADAQH/
        MB0GA1UdDgQWBBSskRBTM72+aEH/pwyp5frq5eWKoTAOBgNVHQ8BAf8EBAMCAQYw
        CgYIKoZIzj0EAwMDaAAwZQIwQgFGnByvsiVbpTKwSga0kP0e8EeDS4+sQmTvb7vn
        53O5+FRXgeLhpJ06ysC5PrOyAjEAp5U4xDgEgllF7En3VcE3iexZZtKeYnpqtijV
        oyFraWVIyd/dganmrduC1bmTBGwD
        -----END CERTIFICATE-----
        """

    @Test func extensionsAreReadByOID() throws {
        let root = try X509Certificate(pem: Self.rootPEM)
        #expect(try root.extensionValue(oid: "2.5.29.19") == [0x30, 0x03, 0x01, 0x01, 0xff])  // basicConstraints CA:TRUE
        #expect(try root.extensionValue(oid: "2.5.29.15") == [0x03, 0x02, 0x01, 0x06])  // keyUsage
        #expect(try root.extensionValue(oid: "1.2.840.113635.100.8.2") == nil)
        #expect(throws: CryptoError.self) { try root.extensionValue(oid: "not an oid") }
    }

    @Test func aSelfSignedRootVerifiesOnlyWithinItsValidity() throws {
        let root = try X509Certificate(pem: Self.rootPEM)
        try X509Certificate.verifyChain(leaf: root, intermediates: [], root: root, at: Date(timeIntervalSince1970: 1_800_000_000))
        let before = Date(timeIntervalSince1970: 1_500_000_000), after = Date(timeIntervalSince1970: 2_400_000_000)
        for time in [before, after] {
            #expect(throws: CryptoError.self) { try X509Certificate.verifyChain(leaf: root, intermediates: [], root: root, at: time) }
        }
    }

    @Test func malformedCertificatesAreRefused() throws {
        let der = try X509Certificate(pem: Self.rootPEM).der
        for bad in [[], [0x30, 0x82, 0xff, 0xff], Array(der.dropLast()), der + [0], [UInt8](repeating: 0x30, count: 70_000)] {
            #expect(throws: CryptoError.self) { try X509Certificate(der: bad) }
        }
        #expect(throws: CryptoError.self) { try X509Certificate(pem: "-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----") }
        // A P-384 key is not one this module verifies with.
        #expect(throws: CryptoError.self) { try X509Certificate(pem: Self.rootPEM).publicKey() }
    }

    @Test func p256KeysRoundTripThroughDER() throws {
        let signing = try SigningKey.generate(.es256)
        let key = try signing.verifyingKey()
        let spki = try key.subjectPublicKeyInfo()
        let parsed = try VerifyingKey(subjectPublicKeyInfo: spki)
        #expect(try parsed.subjectPublicKeyInfo() == spki)
        let point = try parsed.uncompressedPoint()
        #expect(point.count == 65 && point[0] == 0x04)
        #expect(Array(spki.suffix(65)) == point)
        #expect(throws: CryptoError.self) { try VerifyingKey(subjectPublicKeyInfo: spki + [0]) }
        #expect(throws: CryptoError.self) { try VerifyingKey(subjectPublicKeyInfo: Array(spki.dropLast())) }
        #expect(throws: CryptoError.self) { try SigningKey.generate(.ed25519).verifyingKey().uncompressedPoint() }
    }

    @Test func derSignaturesVerifyOverSHA256OfTheMessage() throws {
        let signing = try SigningKey.generate(.es256)
        let key = try VerifyingKey(subjectPublicKeyInfo: try signing.verifyingKey().subjectPublicKeyInfo())
        let message = Array("nonce".utf8)
        let der = try #require(ECDSASignature.der(fromRaw: try signing.sign(message)))
        #expect(key.verify(derSignature: der, message: message))
        #expect(!key.verify(derSignature: der, message: message + [0]))
        #expect(!key.verify(derSignature: der + [0], message: message))
        #expect(!key.verify(derSignature: [], message: message))
        #expect(!key.verify(derSignature: try signing.sign(message), message: message))  // raw r‖s is not DER
        var tampered = der
        tampered[tampered.count - 1] ^= 1
        #expect(!key.verify(derSignature: tampered, message: message))
        let ed = try SigningKey.generate(.ed25519)
        #expect(!(try ed.verifyingKey()).verify(derSignature: der, message: message))
    }
}
