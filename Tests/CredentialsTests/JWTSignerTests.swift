import Credentials
import LibCrypto
import Testing
import VerifyCore

@Suite struct JWTSignerTests {
    @Test func jwtSignerPublishesAUsableJWK() throws {
        let signer = try JWTSigner(key: try SigningKey.generate(.ed25519))
        let jwk = try signer.publicJWK()
        #expect(jwk["kid"] == .string(signer.keyID))
        #expect(jwk["alg"] == "EdDSA")
        #expect(jwk["use"] == "sig")
        var fields: [String: String] = [:]
        if case .object(let members) = jwk { for m in members { fields[m.key] = m.value.stringValue } }
        let verifier = try VerifyingKey(jwk: fields)
        let message = Array("header.payload".utf8)
        #expect(verifier.verify(signature: try signer.sign(message), message: message))
    }
}
