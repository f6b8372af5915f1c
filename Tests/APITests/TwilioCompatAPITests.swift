import API
import TwilioCompatAPI
import Foundation
import HTTPMessages
import Telemetry
import Testing
import VerifyCore
import VerifyTesting

@Suite struct TwilioCompatAPITests {
    typealias H = TwilioCompatHarness

    @Test func servicesCRUD() throws {
        let h = H()
        let created = h.call("POST", "/v2/Services", form: [("FriendlyName", "Acme Login"), ("CodeLength", "8"), ("CustomCodeEnabled", "True")])
        #expect(created.status == 201)
        let sid = try #require(created["sid"]?.stringValue)
        #expect(sid.hasPrefix("VA") && sid.count == 34)
        #expect(created["account_sid"] == .string(H.account))
        #expect(created["code_length"] == .int(8))
        #expect(created["custom_code_enabled"] == .bool(true))
        #expect(created["url"] == .string("https://verify.example.com/v2/Services/\(sid)"))
        #expect(created["date_created"]?.stringValue?.hasSuffix("Z") == true)

        #expect(h.call("GET", "/v2/Services/\(sid)")["friendly_name"] == "Acme Login")
        let updated = h.call("POST", "/v2/Services/\(sid)", form: [("CodeLength", "4")])
        #expect(updated.status == 200)
        #expect(updated["code_length"] == .int(4))
        #expect(updated["friendly_name"] == "Acme Login")

        let pending = try #require(h.send(sid)["sid"]?.stringValue)
        let deleted = h.call("DELETE", "/v2/Services/\(sid)")
        #expect(deleted.status == 204)
        // Its pending verification was canceled, and the delivery worker told (its message dropped).
        #expect(h.t.notifier.superseded == ["ver_" + pending.dropFirst(2)])
        #expect(h.call("GET", "/v2/Services/\(sid)").code == 20404)
    }

    @Test func listingPagesWithTwiliosMeta() throws {
        let h = H()
        let sids = (0..<3).map { i -> String in
            h.t.clock.advance(1)
            return h.createService([("FriendlyName", "S\(i)")])
        }
        let first = h.call("GET", "/v2/Services", query: ["PageSize": "2"])
        #expect(first.status == 200)
        #expect(first["services"]?.arrayValue?.compactMap { $0["sid"]?.stringValue } == Array(sids.prefix(2)))
        let meta = try #require(first["meta"])
        #expect(meta["key"] == "services")
        #expect(meta["page"] == .int(0) && meta["page_size"] == .int(2))
        #expect(meta["previous_page_url"] == .null)
        #expect(meta["next_page_url"] == .string("https://verify.example.com/v2/Services?PageSize=2&Page=1"))
        let second = h.call("GET", "/v2/Services", query: ["PageSize": "2", "Page": "1"])
        #expect(second["services"]?.arrayValue?.compactMap { $0["sid"]?.stringValue } == [sids[2]])
        #expect(second["meta"]?["next_page_url"] == .null)
        #expect(h.call("GET", "/v2/Services", query: ["PageSize": "0"]).code == 60200)
        // Another account sees none of them.
        let other = h.call("GET", "/v2/Services", auth: H.basic(H.other, H.otherToken))
        #expect(other["services"]?.arrayValue?.isEmpty == true)
    }

    @Test func repeatSendKeepsTheSidSendsAtOnceAndStopsAtTheSixth() throws {
        let h = H()
        let service = h.createService([("FriendlyName", "Acme"), ("CodeLength", "7")])
        let first = h.send(service)
        #expect(first.status == 201)
        let sid = try #require(first["sid"]?.stringValue)
        #expect(sid.hasPrefix("VE") && sid.count == 34)
        let code1 = try h.code(sid)
        #expect(code1.count == 7)
        for n in 2...5 {
            let again = h.send(service)
            #expect(again.status == 201)
            #expect(again["sid"] == .string(sid))
            #expect(again["send_code_attempts"]?.arrayValue?.count == n)
        }
        let code5 = try h.code(sid)
        let sixth = h.send(service)
        #expect(sixth.status == 429)
        #expect(sixth.code == 60203)
        #expect(sixth.headers["Retry-After"] != nil)
        #expect(sixth["more_info"] == "https://www.twilio.com/docs/errors/60203")
        // Only the newest code works.
        if code1 != code5 {
            let stale = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", "+15555550123"), ("Code", code1)])
            #expect(stale["status"] == "pending" && stale["valid"] == .bool(false))
        }
        let ok = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("VerificationSid", sid), ("Code", code5)])
        #expect(ok.status == 200)
        #expect(ok["status"] == "approved" && ok["valid"] == .bool(true))
    }

    /// The lifecycle reaches a compat verification under its own purpose only (the native routes
    /// do not: TwilioCompatSeparationTests).
    @Test func theLifecycleSeesACompatVerificationUnderItsOwnPurpose() throws {
        let h = H()
        let service = h.createService()
        let sid = try #require(h.send(service)["sid"]?.stringValue)
        let native = try h.t.service.get(id: "ver_" + sid.dropFirst(2), purposes: [.delegated])
        #expect(native.status == .pending)
        #expect(native.verification.phoneNumber == "+15555550123")
        #expect(native.verification.purpose == .delegated)
        _ = try h.t.service.cancel(id: native.verification.id, purposes: [.delegated])
        #expect(h.call("GET", "/v2/Services/\(service)/Verifications/\(sid)").code == 20404)
    }

    @Test func checksCountAndTheSixthIs60202() throws {
        let h = H()
        let service = h.createService()
        let sid = try #require(h.send(service)["sid"]?.stringValue)
        let code = try h.code(sid)
        let wrong = code == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            let reply = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", "+15555550123"), ("Code", wrong)])
            #expect(reply.status == 200)
            #expect(reply["status"] == "pending" && reply["valid"] == .bool(false))
        }
        let sixth = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", "+15555550123"), ("Code", code)])
        #expect(sixth.status == 429)
        #expect(sixth.code == 60202)
        // A code of another length never matches and is not counted.
        let other = H()
        let s2 = other.createService()
        let v2 = try #require(other.send(s2)["sid"]?.stringValue)
        let short = other.call("POST", "/v2/Services/\(s2)/VerificationCheck", form: [("VerificationSid", v2), ("Code", "1234")])
        #expect(short.status == 200 && short["valid"] == .bool(false))
        #expect(try other.t.service.get(id: "ver_" + v2.dropFirst(2), purposes: [.delegated]).verification.attempts == 0)
    }

    @Test func expiredVerificationsAreNotFoundAndARepeatStartsANewOne() throws {
        let h = H()
        let service = h.createService()
        let sid = try #require(h.send(service)["sid"]?.stringValue)
        let code = try h.code(sid)
        h.t.clock.advance(301)
        #expect(h.call("GET", "/v2/Services/\(service)/Verifications/\(sid)").code == 20404)
        let check = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", "+15555550123"), ("Code", code)])
        #expect(check.status == 404 && check.code == 20404)
        let fresh = h.send(service)
        #expect(fresh.status == 201)
        #expect(fresh["sid"] != .string(sid))
        #expect(fresh["send_code_attempts"]?.arrayValue?.count == 1)
    }

    @Test func statusUpdates() throws {
        let h = H()
        let service = h.createService()
        let sid = try #require(h.send(service)["sid"]?.stringValue)
        let bad = h.call("POST", "/v2/Services/\(service)/Verifications/\(sid)", form: [("Status", "expired")])
        #expect(bad.status == 400 && bad.code == 60200)
        #expect(bad["message"]?.stringValue?.contains("Status") == true)
        let approved = h.call("POST", "/v2/Services/\(service)/Verifications/\(sid)", form: [("Status", "approved")])
        #expect(approved.status == 200)
        #expect(approved["status"] == "approved" && approved["valid"] == .bool(true))
        #expect(try h.t.service.get(id: "ver_" + sid.dropFirst(2), purposes: [.delegated]).status == .approved)
        let again = h.call("POST", "/v2/Services/\(service)/Verifications/\(sid)", form: [("Status", "canceled")])
        #expect(again.code == 20404)
        // By number, as Twilio allows.
        let second = try #require(h.send(service, to: "+15555550124")["sid"]?.stringValue)
        let canceled = h.call("POST", "/v2/Services/\(service)/Verifications/%2B15555550124", form: [("Status", "canceled")])
        #expect(canceled["sid"] == .string(second))
        #expect(canceled["status"] == "canceled")
    }

    @Test func customCodesNeedTheServiceSetting() throws {
        let h = H()
        let plain = h.createService()
        let refused = h.send(plain, extra: [("CustomCode", "424242")])
        #expect(refused.status == 400 && refused.code == 60200)
        #expect(refused["message"]?.stringValue?.contains("CustomCode") == true)
        let custom = h.createService([("FriendlyName", "Custom"), ("CustomCodeEnabled", "true")])
        let sid = try #require(h.send(custom, extra: [("CustomCode", "424242")])["sid"]?.stringValue)
        #expect(try h.code(sid) == "424242")
    }

    @Test func messagesCarryTheServiceNameAndAppHash() throws {
        let h = H()
        let service = h.createService([("FriendlyName", "Acme Bank")])
        let sid = try #require(h.send(service, extra: [("AppHash", "FA+9qCX9VSu")])["sid"]?.stringValue)
        let payload = try JSONDecoder().decode(
            MessagePayload.self, from: Data(try FakeSealer().open(try #require(h.t.store.messages.last).sealedPayload)))
        #expect(payload.body.contains("Acme Bank"))
        #expect(payload.body.contains("FA+9qCX9VSu"))
        #expect(sid.hasPrefix("VE"))
        let named = try #require(h.send(service, to: "+15555550125", extra: [("CustomFriendlyName", "Other Name")])["sid"]?.stringValue)
        let body = try JSONDecoder().decode(
            MessagePayload.self, from: Data(try FakeSealer().open(try #require(h.t.store.messages.last).sealedPayload))).body
        #expect(body.contains("Other Name"))
        #expect(named != sid)
    }

    @Test func parametersAndChannels() throws {
        let h = H()
        let service = h.createService()
        for channel in ["email", "sna", "auto", "voice", "rcs", "pigeon"] {
            let reply = h.call("POST", "/v2/Services/\(service)/Verifications", form: [("To", "+15555550199"), ("Channel", channel)])
            #expect(reply.status == 400 && reply.code == 60200)
            #expect(reply["message"]?.stringValue?.contains("channel not supported") == true, "\(channel)")
        }
        // Channels this API sends by, but not enabled on this server (only SMS by default).
        for channel in ["call", "whatsapp"] {
            let reply = h.call("POST", "/v2/Services/\(service)/Verifications", form: [("To", "+15555550199"), ("Channel", channel)])
            #expect(reply.status == 400 && reply.code == 60223, "\(channel)")
        }
        let missing = h.call("POST", "/v2/Services/\(service)/Verifications", form: [("To", "+15555550199")])
        #expect(missing.code == 60200 && missing["message"]?.stringValue?.contains("Channel") == true)
        let badTo = h.call("POST", "/v2/Services/\(service)/Verifications", form: [("To", "12"), ("Channel", "sms")])
        #expect(badTo.status == 400 && badTo.code == 60200 && badTo["message"]?.stringValue?.contains("To") == true)
        let badBool = h.call("POST", "/v2/Services", form: [("FriendlyName", "x"), ("LookupEnabled", "maybe")])
        #expect(badBool.code == 60200 && badBool["message"]?.stringValue?.contains("LookupEnabled") == true)
        let noName = h.call("POST", "/v2/Services", form: [("CodeLength", "6")])
        #expect(noName.code == 60200 && noName["message"]?.stringValue?.contains("FriendlyName") == true)
        let json = h.call("POST", "/v2/Services", form: [("FriendlyName", "x")], contentType: "application/json")
        #expect(json.status == 415 && json.code == 60200)
        // Accepted but ignored parameters do not fail a request.
        let ignored = h.call("POST", "/v2/Services/\(service)/Verifications", form: [
            ("To", "+15555550188"), ("Channel", "sms"), ("Amount", "1"), ("Payee", "p"), ("RiskCheck", "enable"), ("Tags", "{}"),
        ])
        #expect(ignored.status == 201)
    }

    @Test func authenticationAndAccounts() throws {
        let h = H()
        let service = h.createService()
        for auth in [nil, H.basic(H.account, "wrong"), H.basic("AC" + String(repeating: "0", count: 32), H.token), "Bearer x", "Basic !!!"] {
            let reply = h.call("GET", "/v2/Services/\(service)", auth: auth)
            #expect(reply.status == 401)
            #expect(reply.code == 20003)
            #expect(reply.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        }
        let foreign = h.call("GET", "/v2/Services/\(service)", auth: H.basic(H.other, H.otherToken))
        #expect(foreign.status == 404 && foreign.code == 20404)
        #expect(h.call("POST", "/v2/Services/\(service)/Verifications", form: [("To", "+15555550123"), ("Channel", "sms")], auth: H.basic(H.other, H.otherToken)).code == 20404)
    }

    @Test func twilioShapedRoutingErrorsAndOffSwitch() throws {
        let h = H()
        let unknown = h.call("GET", "/v2/Attempts")
        #expect(unknown.status == 404 && unknown.code == 20404)
        let method = h.call("PUT", "/v2/Services")
        #expect(method.status == 405 && method.code == 20004)
        #expect(h.call("GET", "/v2/Services/not-a-sid").code == 20404)
        // However the path is written, as the router reads it.
        #expect(h.call("PUT", "//v2/Services").code == 20004)

        let off = H(compat: false)
        let reply = off.call("GET", "/v2/Services")
        #expect(reply.status == 404)
        #expect(reply.json["error"]?["code"] == "not_found")

        let unsupported = H(store: false)
        let refused = unsupported.call("GET", "/v2/Services")
        #expect(refused.status == 501)
        #expect(refused["message"]?.stringValue?.contains("PostgreSQL") == true)
        #expect(unsupported.call("GET", "/v2/Services", auth: nil).status == 401)
    }

    @Test func nativeLimitsBecomeTwilioCodes() throws {
        var limits = RateLimits.defaults
        limits = try limits.overridden(by: "phone_send=1/1h")
        var fraud = FraudPolicy()
        fraud.enabled = false
        let h = H(protection: AbuseProtection(limits: limits, fraud: fraud))
        let service = h.createService()
        let sid = try #require(h.send(service)["sid"]?.stringValue)
        // The repeat send counts against the number's limit too.
        let limited = h.send(service)
        #expect(limited.status == 429 && limited.code == 60203)
        #expect(sid.hasPrefix("VE"))
        let global = H(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "global_send=1/1m"), fraud: fraud))
        let s2 = global.createService()
        #expect(global.send(s2).status == 201)
        let busy = global.send(s2, to: "+15555550999")
        #expect(busy.status == 429 && busy.code == 20429)
    }

    @Test func deviceIpIsTheClientForPerIPLimits() throws {
        var fraud = FraudPolicy()
        fraud.enabled = false
        let h = H(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "ip_send=1/10m"), fraud: fraud))
        let service = h.createService()
        // Without DeviceIp the caller is a server: per-IP limits do not apply.
        #expect(h.send(service, to: "+15555550101").status == 201)
        #expect(h.send(service, to: "+15555550102").status == 201)
        #expect(h.send(service, to: "+15555550103", extra: [("DeviceIp", "203.0.113.7")]).status == 201)
        let limited = h.send(service, to: "+15555550104", extra: [("DeviceIp", "203.0.113.7")])
        #expect(limited.status == 429 && limited.code == 20429)
        #expect(h.send(service, to: "+15555550105", extra: [("DeviceIp", "not-an-ip")]).code == 60200)
        // The device's quota is the account's: a native client at that address keeps its own
        // (found by an attack review: DeviceIp spent native clients' per-IP quotas).
        #expect(try h.t.service.start(StartRequest(phoneNumber: "+15555550106", clientIP: "203.0.113.7")).replayed == false)
    }

    /// The account is the lockout's requester whether or not a start names a device: naming one
    /// must not let an account that is waiting out its backoff send again.
    @Test func aWaitingAccountCannotSendByNamingADevice() throws {
        var fraud = FraudPolicy()
        fraud.enabled = false
        let h = H(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_failed_check=1/1d"), fraud: fraud))
        let service = h.createService()
        #expect(h.send(service, to: "+15555550101").status == 201)
        for _ in 0..<2 {
            let checked = h.call("POST", "/v2/Services/\(service)/VerificationCheck", form: [("To", "+15555550101"), ("Code", "000000")])
            #expect(checked.status == 200 && checked.json["valid"] == false)
        }
        let refused = h.send(service, to: "+15555550101", extra: [("DeviceIp", "198.51.100.4")])
        #expect(refused.status == 429)
        // The wait is for that number only.
        #expect(h.send(service, to: "+15555550102", extra: [("DeviceIp", "198.51.100.4")]).status == 201)
    }
}

@Suite struct TwilioCompatCredentialsTests {
    static let account = "AC" + String(repeating: "0123456789ABCDEF", count: 2)
    static let key = "SK" + String(repeating: "0123456789abcdef", count: 2)

    /// Configuration problems reach logs and `config check`: a mistyped entry never shows its
    /// secret (found by a review: reversed entries and secrets holding "@" were quoted).
    @Test(arguments: ["sekrit-token-0123:\(account)", "\(account):tok@sekrit-tail", "sekrit-no-colon", "SKnot:sekrit@\(account)"])
    func problemsNeverQuoteASecret(text: String) {
        let error = #expect(throws: (any Error).self) { try TwilioCompatCredentials(parsing: text) }
        #expect(!String(describing: error).contains("sekrit"), "\(String(describing: error))")
    }

    @Test func basicAuthMapsUsersToAccounts() throws {
        let credentials = try TwilioCompatCredentials(parsing: "\(Self.account):tok:en,\(Self.key):s3cret@\(Self.account)")
        #expect(credentials.authenticate(TwilioCompatHarness.basic(Self.account, "tok:en")) == Self.account)
        #expect(credentials.authenticate(TwilioCompatHarness.basic(Self.key, "s3cret")) == Self.account)
        #expect(credentials.authenticate("basic " + Data("\(Self.key):s3cret".utf8).base64EncodedString()) == Self.account)
        for bad in [
            TwilioCompatHarness.basic(Self.key, "tok:en"), TwilioCompatHarness.basic(Self.account, "tok:en2"),
            TwilioCompatHarness.basic(Self.account, "tok"), TwilioCompatHarness.basic(Self.account.lowercased(), "tok:en"),
            TwilioCompatHarness.basic("", ""), "Basic", "Basic %%%", "Bearer \(Self.account)",
        ] {
            #expect(credentials.authenticate(bad) == nil, "\(bad)")
        }
        #expect(credentials.authenticate(nil) == nil)
    }

    @Test func sidsAreTwoLettersAnd32HexDigits() {
        #expect(TwilioCompatCredentials.isSID("VA" + String(repeating: "a", count: 32), prefix: "VA"))
        #expect(!TwilioCompatCredentials.isSID("VA" + String(repeating: "g", count: 32), prefix: "VA"))
        #expect(!TwilioCompatCredentials.isSID("VA" + String(repeating: "a", count: 31), prefix: "VA"))
        #expect(!TwilioCompatCredentials.isSID("VE" + String(repeating: "a", count: 32), prefix: "VA"))
    }
}
