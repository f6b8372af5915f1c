import VendorTesting
import Foundation
import Gateways
import CurlClient
import HTTPMessages
import Testing
import Vendors
import VerifyCore

@Suite struct VonageWhatsAppGatewayTests {
    func gateway(_ vendor: FakeVendor) -> VonageWhatsAppGateway {
        VonageWhatsAppGateway(
            configuration: VonageWhatsAppConfiguration(
                apiKey: "key", apiSecret: "secret", from: "+14157386102", templateName: "auth_code",
                language: WhatsAppLanguage(approved: ["en", "de"], fallback: "en"), baseURL: vendor.base),
            http: http())
    }

    @Test func requestIsACustomTemplate() throws {
        let vendor = try FakeVendor(.reply(202, #"{"message_uuid":"aaaaaaaa-bbbb-4ccc-8ddd-0123456789ab"}"#, []))
        defer { vendor.stop() }
        #expect(gateway(vendor).send(whatsapp) == .sent(via: "vonage-whatsapp", providerMessageID: "aaaaaaaa-bbbb-4ccc-8ddd-0123456789ab", status: .sent))
        let request = try #require(vendor.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/messages")
        #expect(request.headers["Authorization"] == "Basic " + Data("key:secret".utf8).base64EncodedString())
        #expect(request.headers["Content-Type"] == "application/json")
        let expected = try JSONValue.parse(Array(#"""
            {"message_type":"custom","channel":"whatsapp","from":"14157386102","to":"4915112345678","client_ref":"msg_wa",
             "custom":{"type":"template","template":{"name":"auth_code","language":{"policy":"deterministic","code":"de"},
               "components":[{"type":"body","parameters":[{"type":"text","text":"482913"}]},
                 {"type":"button","sub_type":"url","index":"0","parameters":[{"type":"text","text":"482913"}]}]}}}
            """#.utf8))
        #expect(try JSONValue.parse(request.body) == expected)
        #expect(occurrences(of: "482913", in: request.body) == 2)
        #expect(occurrences(of: "Dein", in: request.body) == 0)
    }

    func problem(_ title: String, _ detail: String) -> String {
        #"{"type":"https://developer.vonage.com/api-errors/messages#1000","title":"\#(title)","detail":"\#(detail)","instance":"bf0ca0bf"}"#
    }

    @Test func errorsAreClassified() throws {
        let vendor = try FakeVendor(.reply(500, "{}", []))
        defer { vendor.stop() }
        let g = gateway(vendor)
        vendor.script([
            .reply(401, problem("Unauthorized", "You did not provide correct credentials."), []),
            .reply(402, problem("Low balance", "This request could not be performed due to your account balance being low."), []),
            .reply(422, problem("Invalid params", "The value of one or more parameters is invalid."), []),
            .reply(429, problem("Rate Limit Hit", "Please wait, then retry your request"), [("Retry-After", "2")]),
            .reply(500, problem("Internal Error", "Something went wrong"), []),
            .reply(202, "{}", []),
        ])
        guard case .retryable(let auth, nil) = g.send(whatsapp) else { Issue.record("401 must fail over"); return }
        #expect(auth.contains("credentials") && !auth.contains("secret"))
        guard case .retryable(let credit, nil) = g.send(whatsapp) else { Issue.record("402 must fail over"); return }
        #expect(credit.contains("out of credit"))
        guard case .retryable(let invalid, nil) = g.send(whatsapp) else { Issue.record("422 must fail over"); return }
        #expect(invalid.contains("Invalid params"))
        guard case .retryable(_, 2) = g.send(whatsapp) else { Issue.record("429 must honour Retry-After"); return }
        guard case .retryable = g.send(whatsapp) else { Issue.record("500 must be retryable"); return }
        guard case .retryable = g.send(whatsapp) else { Issue.record("202 without message_uuid must be retryable"); return }
    }

    @Test func refusedConnectionIsRetryable() {
        let g = VonageWhatsAppGateway(
            configuration: VonageWhatsAppConfiguration(apiKey: "k", apiSecret: "s", from: "1", templateName: "t", baseURL: "http://127.0.0.1:\(closedPort())"),
            http: http())
        guard case .retryable = g.send(whatsapp) else { Issue.record("refused connection must be retryable"); return }
    }

    @Test func statusWebhooks() {
        #expect(VonageWhatsAppGateway.deliveryStatus("submitted") == .sent)
        #expect(VonageWhatsAppGateway.deliveryStatus("read") == .delivered)
        #expect(VonageWhatsAppGateway.deliveryStatus("undeliverable") == .undelivered)
        #expect(VonageWhatsAppGateway.deliveryStatus("rejected") == .failed)
        #expect(VonageWhatsAppGateway.deliveryStatus("clicked") == nil)
    }
}

@Suite struct WhatsAppLanguageTests {
    @Test func normalization() {
        #expect(WhatsAppLanguage.normalize("pt-br") == "pt_BR")
        #expect(WhatsAppLanguage.normalize("zh-Hant-TW") == "zh_TW")
        #expect(WhatsAppLanguage.normalize("es-419") == "es_419")
        #expect(WhatsAppLanguage.normalize("EN") == "en")
    }

    @Test func choice() {
        let l = WhatsAppLanguage(approved: ["en_US", "en_GB", "pt_BR", "he", "es"], fallback: "en_US", overrides: ["es-419": "es_MX"])
        #expect(l.code(for: "en-GB") == "en_GB")
        #expect(l.code(for: "en") == "en_US")
        #expect(l.code(for: "pt-PT") == "pt_BR")
        #expect(l.code(for: "iw") == "he")
        #expect(l.code(for: "es-419") == "es_MX")
        #expect(l.code(for: "es-AR") == "es")
        #expect(l.code(for: "fr") == "en_US")
        #expect(l.code(for: nil) == "en_US")
        #expect(l.code(for: "") == "en_US")
    }
}
