@testable import App
import API
import Foundation
import LibCrypto
import Testing
import Vendors
import VerifyCore

/// The application's authenticators of WhatsApp and voice callbacks, with the vendors' real
/// signature schemes: Meta's X-Hub-Signature-256, Vonage's HS256 JWT with `payload_hash`, the
/// Vonage callback token, and the status mappings each route uses.
@Suite struct ChannelCallbackAuthTests {
    struct FixedClock: Clock { let at: Date; func now() -> Date { at } }
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The checks each vendor of the registry builds from the configuration.
    struct Auth {
        let twilio: TwilioCallbacks?
        let meta: MetaCallbacks?
        let vonageChannels: VonageChannelCallbacks?
    }

    func auth(_ extra: [String: String]) throws -> Auth {
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_CHANNELS": "sms,whatsapp,call", "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID": "1065", "PHONE_VERIFY_META_WA_ACCESS_TOKEN": "t",
            "PHONE_VERIFY_META_WA_TEMPLATE": "verification_code", "PHONE_VERIFY_VONAGE_API_KEY": "k", "PHONE_VERIFY_VONAGE_API_SECRET": "s",
            "PHONE_VERIFY_VONAGE_WA_FROM": "+14155550000", "PHONE_VERIFY_VONAGE_WA_TEMPLATE": "verification_code",
            "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC1", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token",
            "PHONE_VERIFY_TWILIO_VOICE_FROM": "+15005550006",
        ].merging(extra) { $1 })
        return Auth(
            twilio: c.vendor(TwilioVendor.self)?.callbacks(publicURL: "https://verify.example.com"),
            meta: c.vendor(MetaVendor.self)?.callbacks(),
            vonageChannels: c.vendor(VonageVendor.self)?.callbacks(clock: FixedClock(at: Self.now)).channels)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// A Vonage signed-webhook JWT: HS256 over `header.claims` with `secret`.
    static func vonageJWT(secret: String, body: [UInt8], iat: Date = now, hash: String? = nil, alg: String = "HS256") -> String {
        let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8))
        let claims = Base64URL.encode(Array(
            #"{"iat":\#(Int(iat.timeIntervalSince1970)),"jti":"j1","iss":"Vonage","payload_hash":"\#(hash ?? hex(Digest.sha256(body)))","api_key":"k"}"#.utf8))
        let input = header + "." + claims
        return input + "." + Base64URL.encode(HMAC.sha256(key: Array(secret.utf8), data: Array(input.utf8)))
    }

    @Test func metaRoutesNeedTheirSecrets() throws {
        let whatsapp = ["PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta"]
        #expect(try auth(whatsapp).meta == nil)
        let handshakeOnly = try #require(try auth(whatsapp.merging(["PHONE_VERIFY_META_WA_VERIFY_TOKEN": "vt"]) { $1 }).meta)
        #expect(handshakeOnly.verify == nil && handshakeOnly.challenge != nil)
    }

    @Test func metaHandshakeAndSignature() throws {
        let meta = try #require(try auth([
            "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta", "PHONE_VERIFY_META_WA_APP_SECRET": "app-secret",
            "PHONE_VERIFY_META_WA_VERIFY_TOKEN": "verify-token",
        ]).meta)
        #expect(meta.challenge?("subscribe", "verify-token", "42") == "42")
        #expect(meta.challenge?("subscribe", "other", "42") == nil)
        #expect(meta.challenge?("unsubscribe", "verify-token", "42") == nil)
        let body = Array(#"{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{"statuses":[{"id":"wamid.A","status":"failed","recipient_id":"447400123456","errors":[{"code":131026,"title":"Message undeliverable"}]},{"id":"wamid.B","status":"read"}]}}]}]}"#.utf8)
        let good = "sha256=" + Self.hex(HMAC.sha256(key: Array("app-secret".utf8), data: body))
        #expect(meta.verify?(body, good) == true)
        #expect(meta.verify?(body, "sha256=" + Self.hex(HMAC.sha256(key: Array("other".utf8), data: body))) == false)
        #expect(meta.verify?(body + [32], good) == false)
        #expect(meta.verify?(body, nil) == false)
        // The reason keeps Meta's code only, never its text.
        #expect(meta.statuses(body) == [
            .init(messageID: "wamid.A", status: .undelivered, error: "meta error 131026", to: "+447400123456"),
            .init(messageID: "wamid.B", status: .delivered, error: nil),
        ])
    }

    @Test func vonageSignedWebhooks() throws {
        let vonage = try #require(try auth([
            "PHONE_VERIFY_WHATSAPP_GATEWAYS": "vonage", "PHONE_VERIFY_VONAGE_SIGNATURE_SECRET": "signature-secret",
        ]).vonageChannels)
        let body = Array(#"{"message_uuid":"u1","status":"undeliverable"}"#.utf8)
        let ok = "Bearer " + Self.vonageJWT(secret: "signature-secret", body: body)
        #expect(vonage.authenticate(ok, nil, body))
        #expect(!vonage.authenticate(ok, nil, Array(#"{"message_uuid":"u1","status":"delivered"}"#.utf8)))  // another body
        #expect(!vonage.authenticate("Bearer " + Self.vonageJWT(secret: "guess", body: body), nil, body))
        #expect(!vonage.authenticate("Bearer " + Self.vonageJWT(secret: "signature-secret", body: body, iat: Self.now - 301), nil, body))
        #expect(!vonage.authenticate("Bearer " + Self.vonageJWT(secret: "signature-secret", body: body, hash: ""), nil, body))
        #expect(!vonage.authenticate("Bearer " + Self.vonageJWT(secret: "signature-secret", body: body, alg: "none"), nil, body))
        #expect(!vonage.authenticate(nil, "anything", body))  // no callback token configured: the URL token is not a way in
        #expect(vonage.whatsAppStatus?("undeliverable") == .undelivered && vonage.callStatus == nil)
    }

    @Test func vonageCallbackTokenAndCallEvents() throws {
        let key = try SigningKey.generate(.rs256).privateKeyPEM()
        let vonage = try #require(try auth([
            "PHONE_VERIFY_VOICE_GATEWAYS": "vonage", "PHONE_VERIFY_VONAGE_APPLICATION_ID": "app", "PHONE_VERIFY_VONAGE_PRIVATE_KEY": key,
            "PHONE_VERIFY_VONAGE_VOICE_FROM": "+15005550007", "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN": "url-token",
        ]).vonageChannels)
        #expect(vonage.authenticate(nil, "url-token", []))
        #expect(!vonage.authenticate(nil, "url-tokeN", []))
        #expect(!vonage.authenticate("Bearer x.y.z", nil, []))
        #expect(vonage.whatsAppStatus == nil)
        #expect(vonage.callStatus?("answered") == .delivered && vonage.callStatus?("busy") == .undelivered)
        #expect(vonage.callStatus?("timeout") == .undelivered && vonage.callStatus?("failed") == .failed)
        #expect(vonage.callStatus?("completed") == nil && vonage.callStatus?("ringing") == .sent)
    }

    @Test func twilioChannelsShareTheSignedRoute() throws {
        let twilio = try #require(try auth(["PHONE_VERIFY_VOICE_GATEWAYS": "twilio"]).twilio)
        let check = twilio.verify
        let fields = [("CallSid", "CA1"), ("CallStatus", "completed")]
        let url = "https://verify.example.com/v1/webhooks/twilio/status"
        let data = url + fields.sorted { $0.0 < $1.0 }.map { $0.0 + $0.1 }.joined()
        let signature = Data(HMAC.sha1(key: Array("twilio-token".utf8), data: Array(data.utf8))).base64EncodedString()
        #expect(check(url, fields, signature))
        #expect(!check(url, fields, "forged"))
        #expect(twilio.call?("completed") == .delivered && twilio.call?("no-answer") == .undelivered)
        #expect(twilio.call?("canceled") == .undelivered && twilio.call?("failed") == .failed)
        #expect(twilio.whatsApp == nil)
    }
}
