import App
import Foundation
import LibCrypto
import Testing
import Vendors
import VerifyCore

/// The channels section: which channels clients may ask for, `auto`, and the WhatsApp and
/// voice chains with their vendors' settings, validated with every problem named.
@Suite struct ChannelConfigurationTests {
    static let production = [
        "PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_ISSUER": "https://verify.example.com",
        "PHONE_VERIFY_CODE_SECRET": String(repeating: "s", count: 40), "PHONE_VERIFY_SIGNING_KEY_FILE": "/nonexistent/key.pem",
        "PHONE_VERIFY_GATEWAYS": "webhook", "PHONE_VERIFY_WEBHOOK_URL": "https://hooks.example.com/sms",
        "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
    ]
    static let meta = [
        "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID": "106540352242922", "PHONE_VERIFY_META_WA_ACCESS_TOKEN": "EAAG-token",
        "PHONE_VERIFY_META_WA_TEMPLATE": "verification_code",
    ]
    static let rsaPEM = try! SigningKey.generate(.rs256).privateKeyPEM()

    func problems(_ environment: [String: String]) -> [String] {
        do {
            _ = try Configuration.load(environment: environment)
            return []
        } catch let error as ConfigurationError {
            return error.problems
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    @Test func defaultsAreSMSOnly() throws {
        let c = try Configuration.load(environment: [:])
        #expect(c.policy.channels.enabled == [.sms] && !c.policy.channels.autoEnabled)
        #expect(c.policy.channels.autoOrder == [.whatsapp, .sms])
        #expect(c.policy.channels.fallbackAfter == 60)
        #expect(c.policy.channels.callLineTypes == [.mobile, .fixedLineOrMobile, .fixedLine])
        #expect(c.channelGateways.whatsApp.isEmpty && c.channelGateways.voice.isEmpty)
    }

    @Test func developmentGivesEnabledChannelsTheConsoleSink() throws {
        let c = try Configuration.load(environment: [
            "PHONE_VERIFY_CHANNELS": "sms, WhatsApp, call, auto", "PHONE_VERIFY_AUTO_CHANNELS": "whatsapp,sms,call",
            "PHONE_VERIFY_AUTO_FALLBACK_AFTER": "45", "PHONE_VERIFY_CALL_LINE_TYPES": "fixed_line",
        ])
        #expect(c.policy.channels.enabled == [.sms, .whatsapp, .call] && c.policy.channels.autoEnabled)
        #expect(c.policy.channels.autoOrder == [.whatsapp, .sms, .call])
        #expect(c.policy.channels.fallbackAfter == 45)
        #expect(c.policy.channels.callLineTypes == [.fixedLine])
        #expect(c.channelGateways.whatsApp == ["console"] && c.channelGateways.voice == ["console"])
        #expect(c.unknownVariables.isEmpty)
    }

    @Test func productionRefusesAnEnabledChannelWithoutGateways() {
        let found = problems(Self.production.merging(["PHONE_VERIFY_CHANNELS": "sms,whatsapp"]) { $1 })
        #expect(found.contains { $0.hasPrefix("PHONE_VERIFY_WHATSAPP_GATEWAYS is required") }, "\(found)")
        #expect(!found.contains { $0.hasPrefix("PHONE_VERIFY_VOICE_GATEWAYS") })
        let console = problems(Self.production.merging(["PHONE_VERIFY_CHANNELS": "sms,call", "PHONE_VERIFY_VOICE_GATEWAYS": "console"]) { $1 })
        #expect(console.contains("PHONE_VERIFY_VOICE_GATEWAYS the console sink is refused in production mode"), "\(console)")
    }

    @Test func aChannelInTheAutoOrderNeedsGatewaysToo() {
        let found = problems(Self.production.merging(["PHONE_VERIFY_CHANNELS": "sms,whatsapp,auto", "PHONE_VERIFY_AUTO_CHANNELS": "whatsapp,sms"]) { $1 })
        #expect(found.contains { $0.hasPrefix("PHONE_VERIFY_WHATSAPP_GATEWAYS is required") }, "\(found)")
    }

    @Test func autoMayOnlyTryEnabledChannels() {
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,auto"]) == [
            "PHONE_VERIFY_AUTO_CHANNELS (default whatsapp,sms) lists whatsapp, which PHONE_VERIFY_CHANNELS does not enable",
        ])
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,whatsapp,auto", "PHONE_VERIFY_AUTO_CHANNELS": "call,sms"]) == [
            "PHONE_VERIFY_AUTO_CHANNELS lists call, which PHONE_VERIFY_CHANNELS does not enable",
        ])
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,auto", "PHONE_VERIFY_AUTO_CHANNELS": "sms"]).isEmpty)
    }

    @Test func unknownNamesAreReported() {
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,telegram"]) == [
            #"PHONE_VERIFY_CHANNELS unknown channel "telegram" (known: sms, whatsapp, call, auto)"#,
        ])
        #expect(problems(["PHONE_VERIFY_AUTO_CHANNELS": "auto"]) == [
            #"PHONE_VERIFY_AUTO_CHANNELS unknown channel "auto" (known: sms, whatsapp, call)"#,
        ])
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,whatsapp", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta,gupshup"]).contains(
            #"PHONE_VERIFY_WHATSAPP_GATEWAYS unknown gateway "gupshup" (known: console, meta, twilio, vonage, webhook)"#))
        #expect(problems(["PHONE_VERIFY_CHANNELS": "call", "PHONE_VERIFY_VOICE_GATEWAYS": "meta"]) == [
            #"PHONE_VERIFY_VOICE_GATEWAYS unknown gateway "meta" (known: console, twilio, vonage, webhook)"#,
        ])
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,sms"]) == ["PHONE_VERIFY_CHANNELS must list each channel at most once, and at least one"])
    }

    @Test func aGatewayNamedWithoutItsSettingsIsAProblem() {
        let found = problems(["PHONE_VERIFY_CHANNELS": "sms,whatsapp,call", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta,twilio,vonage",
                              "PHONE_VERIFY_VOICE_GATEWAYS": "twilio,vonage"])
        for expected in [
            "PHONE_VERIFY_META_WA_PHONE_NUMBER_ID is required by the meta WhatsApp gateway",
            "PHONE_VERIFY_META_WA_ACCESS_TOKEN is required by the meta WhatsApp gateway",
            "PHONE_VERIFY_META_WA_TEMPLATE is required by the meta WhatsApp gateway",
            "PHONE_VERIFY_TWILIO_ACCOUNT_SID is required by the twilio WhatsApp or voice gateway",
            "PHONE_VERIFY_TWILIO_WA_FROM is required by the twilio WhatsApp gateway",
            "PHONE_VERIFY_TWILIO_WA_CONTENT_SID is required by the twilio WhatsApp gateway",
            "PHONE_VERIFY_TWILIO_VOICE_FROM (or PHONE_VERIFY_TWILIO_FROM) is required by the twilio voice gateway",
            "PHONE_VERIFY_VONAGE_WA_TEMPLATE is required by the vonage WhatsApp gateway",
            "PHONE_VERIFY_VONAGE_APPLICATION_ID is required by the vonage voice gateway",
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY (or PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE) is required by the vonage voice gateway",
        ] {
            #expect(found.contains(expected), "missing: \(expected) in \(found)")
        }
    }

    @Test func theWebhookGatewayOfAChannelNeedsItsSettings() throws {
        #expect(problems(["PHONE_VERIFY_CHANNELS": "sms,call", "PHONE_VERIFY_VOICE_GATEWAYS": "webhook"]) == [
            "PHONE_VERIFY_WEBHOOK_URL is required by the webhook gateway",
            "PHONE_VERIFY_WEBHOOK_SECRET is required by the webhook gateway",
        ])
    }

    @Test func vendorsAreReadWithSharedCredentialsAndDefaults() throws {
        let c = try Configuration.load(environment: Self.meta.merging([
            "PHONE_VERIFY_CHANNELS": "sms,whatsapp,call,auto", "PHONE_VERIFY_WHATSAPP_GATEWAYS": "meta, twilio, webhook",
            "PHONE_VERIFY_VOICE_GATEWAYS": "twilio,vonage", "PHONE_VERIFY_META_WA_LANGUAGES": "en_US,pt_BR",
            "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token", "PHONE_VERIFY_TWILIO_FROM": "+15005550006",
            "PHONE_VERIFY_TWILIO_WA_FROM": "+14155238886", "PHONE_VERIFY_TWILIO_WA_CONTENT_SID": "HX0001",
            "PHONE_VERIFY_TWILIO_WA_CONTENT_SIDS": "de=HX0002, pt_BR=HX0003",
            "PHONE_VERIFY_WEBHOOK_URL": "http://127.0.0.1:9/hook", "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + Data(repeating: 1, count: 32).base64EncodedString(),
            "PHONE_VERIFY_VONAGE_APPLICATION_ID": "app-1", "PHONE_VERIFY_VONAGE_PRIVATE_KEY": Self.rsaPEM,
            "PHONE_VERIFY_VONAGE_VOICE_FROM": "+15005550007", "PHONE_VERIFY_VOICE_RING_TIMEOUT": "30",
        ]) { $1 })
        let g = c.channelGateways
        #expect(g.whatsApp == ["meta", "twilio", "webhook"] && g.voice == ["twilio", "vonage"])
        #expect(c.vendor(MetaVendor.self)?.whatsApp?.baseURL == "https://graph.facebook.com" && c.vendor(MetaVendor.self)?.whatsApp?.apiVersion == "v21.0")
        #expect(c.vendor(MetaVendor.self)?.whatsApp?.language.approved == ["en_US", "pt_BR"] && c.vendor(MetaVendor.self)?.whatsApp?.language.fallback == "en_US")
        #expect(c.vendor(TwilioVendor.self)?.whatsApp?.accountSID == "AC0001" && c.vendor(TwilioVendor.self)?.whatsApp?.contentSIDs == ["de": "HX0002", "pt_BR": "HX0003"])
        #expect(c.vendor(TwilioVendor.self)?.voice?.from == "+15005550006")  // PHONE_VERIFY_TWILIO_FROM when no voice caller id is given
        #expect(c.vendor(VonageVendor.self)?.voice?.token.applicationID == "app-1" && c.vendor(VonageVendor.self)?.voice?.baseURL == "https://api.nexmo.com")
        #expect(g.ringTimeout == 30)
        #expect(c.vendor(WebhookVendor.self)?.settings?.url == "http://127.0.0.1:9/hook")
    }

    @Test func theVonageKeyMustBeAnRSAPrivateKey() throws {
        let base = [
            "PHONE_VERIFY_CHANNELS": "call", "PHONE_VERIFY_VOICE_GATEWAYS": "vonage", "PHONE_VERIFY_VONAGE_APPLICATION_ID": "app-1",
            "PHONE_VERIFY_VONAGE_VOICE_FROM": "+15005550007",
        ]
        let ec = try SigningKey.generate(.es256).privateKeyPEM()
        #expect(problems(base.merging(["PHONE_VERIFY_VONAGE_PRIVATE_KEY": ec]) { $1 }) == [
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY must be an RSA key (Vonage applications sign with RS256)",
        ])
        #expect(problems(base.merging(["PHONE_VERIFY_VONAGE_PRIVATE_KEY": "not a key"]) { $1 }) == [
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY is not a PEM private key",
        ])
        #expect(problems(base.merging(["PHONE_VERIFY_VONAGE_PRIVATE_KEY": Self.rsaPEM, "PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE": "/k"]) { $1 }) == [
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY and PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE are both set: give one",
        ])
        #expect(problems(base.merging(["PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE": "/nonexistent/vonage.key"]) { $1 }) == [
            "PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE cannot be read",
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vonage-\(UUID().uuidString).key").path
        try Self.rsaPEM.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let c = try Configuration.load(environment: base.merging(["PHONE_VERIFY_VONAGE_PRIVATE_KEY_FILE": file]) { $1 })
        #expect(c.vendor(VonageVendor.self)?.voice?.from == "+15005550007")
    }

    @Test func secretsAreMasked() {
        for name in ["PHONE_VERIFY_META_WA_ACCESS_TOKEN", "PHONE_VERIFY_META_WA_APP_SECRET", "PHONE_VERIFY_META_WA_VERIFY_TOKEN",
                     "PHONE_VERIFY_VONAGE_PRIVATE_KEY", "PHONE_VERIFY_VONAGE_SIGNATURE_SECRET"] {
            #expect(Settings.named(name)?.mask == .secret, "\(name)")
        }
    }
}
