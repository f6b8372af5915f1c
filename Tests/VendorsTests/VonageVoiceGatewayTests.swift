import VendorTesting
import Encoding
import Foundation
import Gateways
import HTTPMessages
import LibCrypto
import Testing
import Vendors
import VerifyCore
import VerifyTesting

@Suite struct VonageVoiceGatewayTests {
    static let key = try! SigningKey.generate(.rs256)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    func gateway(_ vendor: FakeVendor, event: String? = "https://verify.example.com/v1/webhooks/vonage/voice") throws -> VonageVoiceGateway {
        let token = try VonageApplicationToken(applicationID: "aaaaaaaa-bbbb-cccc-dddd-0123456789ab", key: Self.key)
        return VonageVoiceGateway(
            configuration: VonageVoiceConfiguration(token: token, from: "+15005550006", appName: "Acme \"Bank\"", baseURL: vendor.base, eventURL: event),
            http: http(), clock: clock)
    }

    /// Checks the RS256 signature with the public key and returns the header and claims.
    func verifiedJWT(_ authorization: String?) throws -> (header: JSONValue, claims: JSONValue) {
        let jwt = try #require(authorization?.hasPrefix("Bearer ") == true ? authorization.map { String($0.dropFirst(7)) } : nil)
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        let verifier = try VerifyingKey(pem: Self.key.publicKeyPEM())
        #expect(verifier.verify(signature: try #require(Base64URL.decode(parts[2])), message: Array((parts[0] + "." + parts[1]).utf8)))
        return (try JSONValue.parse(try #require(Base64URL.decode(parts[0]))), try JSONValue.parse(try #require(Base64URL.decode(parts[1]))))
    }

    @Test func requestFormatJWTAndInlineNCCO() throws {
        let vendor = try FakeVendor(.reply(201, #"{"uuid":"63f61863-4a51-4f6b-86e1-46edebcf9356","status":"started","direction":"outbound","conversation_uuid":"CON-f972836a"}"#, []))
        defer { vendor.stop() }
        let g = try gateway(vendor)
        #expect(g.send(voiceSMS(locale: "fr-CA", code: "4096")) == .sent(via: "vonage-voice", providerMessageID: "63f61863-4a51-4f6b-86e1-46edebcf9356", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/calls")
        #expect(request.query.isEmpty)
        #expect(request.headers["Content-Type"] == "application/json")
        let (header, claims) = try verifiedJWT(request.headers["Authorization"])
        #expect(header == .object([JSONMember("alg", "RS256"), JSONMember("typ", "JWT")]))
        #expect(claims["application_id"] == "aaaaaaaa-bbbb-cccc-dddd-0123456789ab")
        #expect(claims["iat"] == .int(1_800_000_000))
        #expect(claims["exp"] == .int(1_800_000_300))
        #expect((claims["jti"]?.stringValue?.count ?? 0) >= 16)

        let talk: (String) -> JSONValue = { text in
            .object([JSONMember("action", "talk"), JSONMember("text", .string(text)), JSONMember("language", "fr-CA"), JSONMember("style", 0)])
        }
        let expected: JSONValue = .object([
            JSONMember("to", .array([.object([JSONMember("type", "phone"), JSONMember("number", "14155552671")])])),
            JSONMember("from", .object([JSONMember("type", "phone"), JSONMember("number", "15005550006")])),
            JSONMember("ncco", .array([
                talk("Votre code de vérification Acme \"Bank\" est : 4, 0, 9, 6."),
                talk("Je répète, votre code est : 4, 0, 9, 6."),
                talk("Ne partagez ce code avec personne. Au revoir."),
            ])),
            JSONMember("event_url", .array(["https://verify.example.com/v1/webhooks/vonage/voice"])),
            JSONMember("event_method", "POST"),
        ])
        // The parser orders members by key: compare both parsed.
        #expect(try JSONValue.parse(request.body) == JSONValue.parse(expected.encoded()))
        #expect(!String(decoding: request.body, as: UTF8.self).contains("4096"))
    }

    @Test func everyCallHasItsOwnTokenId() throws {
        let vendor = try FakeVendor(.reply(201, #"{"uuid":"u1"}"#, []))
        defer { vendor.stop() }
        let g = try gateway(vendor, event: nil)
        _ = g.send(voiceSMS(locale: nil))
        _ = g.send(voiceSMS(locale: nil))
        let ids = try vendor.requests.map { try verifiedJWT($0.headers["Authorization"]).claims["jti"] }
        #expect(ids.count == 2 && ids[0] != ids[1])
        let body = try JSONValue.parse(try #require(vendor.requests.first).body)
        #expect(body["event_url"] == nil && body["ncco"]?.arrayValue?.first?["language"] == "en-US")
    }

    @Test func onlyRSAKeysAreAccepted() throws {
        #expect(throws: VonageKeyError.self) { try VonageApplicationToken(applicationID: "a", key: SigningKey.generate(.es256)) }
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = try gateway(vendor)
        vendor.script([
            .reply(400, #"{"type":"https://developer.nexmo.com/api-errors#bad-request","title":"Bad Request","detail":"The request failed due to validation errors","invalid_parameters":[{"name":"to[0].number","reason":"must be a valid phone number"}]}"#, []),
            .reply(400, #"{"title":"Bad Request","detail":"ncco invalid","invalid_parameters":[{"name":"ncco","reason":"bad"}]}"#, []),
            .reply(401, #"{"type":"https://developer.nexmo.com/api-errors#unauthorized","title":"Unauthorized","detail":"You did not provide correct credentials."}"#, []),
            .reply(403, #"{"title":"Forbidden","detail":"Account suspended"}"#, []),
            .reply(429, #"{"title":"Too Many Requests"}"#, [("Retry-After", "2")]),
            .reply(502, "bad gateway", []),
            .reply(201, #"{"status":"started"}"#, []),
        ])
        guard case .permanent(let invalid) = g.send(voiceSMS(locale: "en")) else { Issue.record("an invalid to must be permanent"); return }
        #expect(invalid.contains("Bad Request"))
        guard case .retryable(_, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("a bad ncco must fail over"); return }
        guard case .retryable(let auth, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("401 must fail over"); return }
        #expect(auth.contains("Unauthorized"))
        guard case .retryable(_, nil) = g.send(voiceSMS(locale: "en")) else { Issue.record("403 must fail over"); return }
        guard case .retryable(_, 2) = g.send(voiceSMS(locale: "en")) else { Issue.record("429 must be retryable"); return }
        guard case .retryable = g.send(voiceSMS(locale: "en")) else { Issue.record("502 must be retryable"); return }
        guard case .retryable = g.send(voiceSMS(locale: "en")) else { Issue.record("no uuid must be retryable"); return }
    }

    @Test func errorReasonsNeverCarryTheCode() throws {
        let vendor = try FakeVendor(.reply(400, #"{"title":"Bad Request","detail":"talk text 'code is: 1, 2, 3, 4, 5, 6' too long for 123456"}"#, []))
        defer { vendor.stop() }
        guard case .retryable(let reason, _) = try gateway(vendor).send(voiceSMS(locale: "en")) else { Issue.record("must fail over"); return }
        #expect(!reason.contains("123456") && !reason.contains("1, 2, 3"))
    }

    /// Vonage's `detail` may echo the NCCO: only the title and the names of bad parameters stay.
    @Test func onlyVonagesTitleAndParameterNamesAreKept() throws {
        let body = #"{"title":"Bad Request","detail":"ncco[0].text 'code 1%2C+2%2C+3%2C+4%2C+5%2C+6' invalid","invalid_parameters":[{"name":"ncco[0].text","reason":"Your code is 1, 2, 3, 4, 5, 6"}]}"#
        let vendor = try FakeVendor(.reply(400, body, []))
        defer { vendor.stop() }
        guard case .retryable(let reason, _) = try gateway(vendor).send(voiceSMS(locale: "en")) else { Issue.record("must fail over"); return }
        #expect(reason == "vonage-voice: HTTP 400 Bad Request (invalid: ncco[0].text)")
    }

    @Test func refusedConnectionsAreRetryable() throws {
        let token = try VonageApplicationToken(applicationID: "a", key: Self.key)
        let g = VonageVoiceGateway(
            configuration: VonageVoiceConfiguration(token: token, from: "1", appName: "A", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http(), clock: clock)
        guard case .retryable = g.send(voiceSMS(locale: "en")) else { Issue.record("refused connection must be retryable"); return }
    }
}
