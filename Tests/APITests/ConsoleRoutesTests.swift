import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore

/// The console's pages and JSON: lookups, CSRF on changes, bad numbers, paging and the audit log.
@Suite struct ConsoleRoutesTests {
    typealias S = ConsoleSessionTests

    func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let items)? = value else { return nil }
        return items.first
    }

    @Test func aLookupShowsVerificationsLockoutsAndFactorsButNeverACode() throws {
        let h = S.harness()
        let cookie = try S.signIn(h)
        let started = h.start("+14155552671")
        let code = try h.t.lastCode(for: try #require(started.json["id"]?.stringValue))
        let reply = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)])
        #expect(reply.status == 200)
        #expect(reply.json["parse"]?["region"] == "US" && reply.json["parse"]?["source"] == "libphonenumber")
        #expect(first(reply.json["verifications"])?["channel"] == "sms")
        #expect(first(reply.json["verifications"])?["status"] == "pending")
        #expect(!"\(reply.json)".contains(code))
        #expect(first(reply.json["send_quota"])?["remaining"]?.intValue == 4)
        #expect(first(reply.json["send_quota"])?["quota"]?.intValue == 5)
        // The same route with a bearer key.
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Authorization", "Bearer " + S.admin)]).status == 200)
    }

    @Test func aFactorFoundByItsNumberIsDeletedWithTheSessionAndItsToken() throws {
        let h = S.harness()
        let enrolled = Factor(id: "fac_1", subject: "user-alice", phoneNumber: "+14155552671", countryCode: 1, createdAt: h.t.clock.now())
        try h.t.store.write { tx in try tx.insertFactor(enrolled) }
        let cookie = try S.signIn(h)
        let token = try S.csrf(h, cookie: cookie)
        let looked = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)])
        #expect(first(looked.json["factors"])?["subject"] == "user-alice")
        #expect(h.call("DELETE", "/v1/admin/users/user-alice/factors/fac_1", headers: [("Cookie", cookie)]).status == 403)
        #expect(h.call("DELETE", "/v1/admin/users/user-alice/factors/fac_1", headers: [("Cookie", cookie), ("X-CSRF-Token", token)]).status == 200)
        let after = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)])
        #expect(after.json["factors"] == .array([]))
    }

    @Test func badNumbersAndBoundsAreClear400s() throws {
        let h = S.harness()
        let cookie = try S.signIn(h)
        let bad = h.call("GET", "/v1/admin/numbers/hello", headers: [("Cookie", cookie)])
        #expect(bad.status == 400 && bad.errorCode == "invalid_phone_number")
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)], query: ["limit": "101"]).status == 400)
        #expect(h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)], query: ["cursor": "<x>"]).status == 400)
        let page = h.call("GET", "/console/numbers/<img src=x onerror=alert(1)>", headers: [("Cookie", cookie)])
        #expect(page.status == 400)
        let html = try #require(page.json.stringValue)
        #expect(html.contains("not a valid phone number") && !html.contains("<img src=x") && html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        let redirect = h.call("GET", "/console/numbers", headers: [("Cookie", cookie)], query: ["number": "//evil.example/x"])
        #expect(redirect.status == 303 && redirect.headers["Location"]?.hasPrefix("/console/numbers/%2F%2F") == true)
    }

    @Test func verificationsArePagedWithACursor() throws {
        let h = S.harness()
        var ids: [String] = []
        for _ in 0..<3 {
            ids.append(try #require(h.start("+14155552671").json["id"]?.stringValue))
            h.t.clock.advance(700)  // past the resend window and the code's life
        }
        let cookie = try S.signIn(h)
        let page1 = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)], query: ["limit": "2"])
        #expect(first(page1.json["verifications"])?["id"]?.stringValue == ids[2])
        let cursor = try #require(page1.json["next_cursor"]?.stringValue)
        let second = h.call("GET", "/v1/admin/numbers/+14155552671", headers: [("Cookie", cookie)], query: ["limit": "2", "cursor": cursor])
        #expect(first(second.json["verifications"])?["id"]?.stringValue == ids[0])
        #expect(second.json["next_cursor"] == .null)
    }

    @Test func changesNeedTheCSRFTokenAndASameOrigin() throws {
        let h = S.harness()
        let cookie = try S.signIn(h)
        let token = try S.csrf(h, cookie: cookie)
        let body = #"{"action":"block"}"#
        for headers in [[("Cookie", cookie)], [("Cookie", cookie), ("X-CSRF-Token", "forged")],
                        [("Cookie", cookie), ("X-CSRF-Token", token), ("Origin", "https://evil.example"), ("Host", "console.test")]] {
            let refused = h.call("PUT", "/v1/admin/fraud/country:US", json: body, headers: headers)
            #expect(refused.status == 403)
        }
        let listed = h.call("GET", "/v1/admin/fraud", headers: [("Authorization", "Bearer " + S.admin)])
        #expect(!"\(listed.json)".contains("block"))
        let ok = h.call("PUT", "/v1/admin/fraud/country:US", json: body,
                        headers: [("Cookie", cookie), ("X-CSRF-Token", token), ("Origin", "https://console.test"), ("Host", "console.test")])
        #expect(ok.status == 200)
        // Behind a proxy that rewrites Host, the browser's origin is the forwarded host.
        let proxy = "10.0.0.5"
        let remote = try S.signIn(h, peer: proxy)
        #expect(remote.hasPrefix("__Host-pv_console="))
        let html = h.call("GET", "/console", headers: [("Cookie", remote)], peer: proxy).json.stringValue ?? ""
        let remoteToken = String(html[html.range(of: "name=\"csrf-token\" content=\"")!.upperBound...].prefix { $0 != "\"" })
        let proxied = h.call("PUT", "/v1/admin/fraud/country:US", json: body, headers: [
            ("Cookie", remote), ("X-CSRF-Token", remoteToken), ("Origin", "https://console.example"), ("Host", "10.0.0.9:8080"),
            ("X-Forwarded-Host", "console.example")], peer: proxy)
        #expect(proxied.status == 200)
        #expect(h.call("DELETE", "/v1/admin/fraud/country:US", headers: [("Cookie", cookie), ("X-CSRF-Token", token)]).status == 200)
        // Another kind of Authorization header is no key: the session decides, and is audited.
        for header in ["Basic eDp5", "Bearer "] {
            let sneaky = h.call("DELETE", "/v1/admin/fraud/country:US", headers: [("Cookie", cookie), ("X-CSRF-Token", token), ("Authorization", header)])
            #expect(sneaky.status == 200)
        }
        let audit = h.logs.records.filter { $0.message == "admin action" }
        #expect(audit.contains { r in r.fields.contains { $0 == ("outcome", "200") } && r.fields.contains { $0.0 == "key_id" && $0.1.count == 8 } })
        #expect(audit.contains { r in r.fields.contains { $0 == ("outcome", "forbidden") } })
        #expect(!audit.contains { r in r.fields.contains { $0 == ("key_id", "-") } }, "\(audit.map(\.fields))")
    }

    @Test func theScriptAndStyleAreSameOriginFilesAndPagesNeedASession() throws {
        let h = S.harness()
        let script = h.call("GET", "/console/app.js")
        #expect(script.status == 200 && script.headers["Content-Type"]?.hasPrefix("text/javascript") == true)
        #expect(script.json.stringValue?.contains("innerHTML") == false)
        #expect(h.call("GET", "/console/app.css").status == 200)
        for path in ["/console/fraud", "/console/delivery", "/console/settings", "/console/numbers/+14155552671"] {
            let page = h.call("GET", path)
            #expect(page.json.stringValue?.contains("name=\"api_key\"") == true)
        }
    }
}

/// The delivery and settings pages' JSON.
@Suite struct ConsoleOperationsTests {
    typealias S = ConsoleSessionTests

    @Test func deliveryCountsCircuitsAndTheOutboxAreShown() throws {
        let h = S.harness()
        _ = h.start("+14155552671")
        let reply = h.call("GET", "/v1/admin/delivery", headers: [("Authorization", "Bearer " + S.admin)])
        #expect(reply.status == 200)
        guard case .array(let circuits)? = reply.json["circuits"], case .array(let hour)? = reply.json["hour"] else {
            Issue.record("no circuits or hour")
            return
        }
        #expect(circuits.first?["state"] == "closed")
        #expect(hour.first?["country"] == "US")
        // In-process nothing sends: the start's message is due.
        #expect(reply.json["outbox"]?["depth"]?.intValue == 1)
        #expect(h.call("GET", "/v1/admin/delivery").status == 401)
        #expect(h.call("GET", "/v1/admin/delivery", headers: [("Authorization", "Bearer " + S.metricsOnly)]).status == 403)
    }

    @Test func settingsAreMaskedAndNeedRead() throws {
        let h = S.harness()
        let cookie = try S.signIn(h)
        let reply = h.call("GET", "/v1/admin/settings", headers: [("Cookie", cookie)])
        #expect(reply.status == 200)
        #expect("\(reply.json)".contains("(set, 64 characters)"))
        #expect(h.call("GET", "/v1/admin/settings", headers: [("Authorization", "Bearer " + S.metricsOnly)]).status == 403)
    }
}

/// The fraud page's history JSON.
@Suite struct ConsoleFraudHistoryTests {
    typealias S = ConsoleSessionTests

    @Test func hourlyCountsOfTheBusiestKeysAndTheChallenges() throws {
        let h = S.harness()
        _ = h.start("+14155552671")
        let cookie = try S.signIn(h)
        let reply = h.call("GET", "/v1/admin/fraud-history", headers: [("Cookie", cookie)])
        #expect(reply.status == 200)
        guard case .array(let hours)? = reply.json["hours"], case .array(let keys)? = reply.json["keys"],
            case .array(let challenges)? = reply.json["challenges"]
        else {
            Issue.record("missing hours, keys or challenges")
            return
        }
        #expect(hours.count == 24)
        let us = keys.first { $0["key"] == "country:US" }
        guard case .array(let sent)? = us?["sent"] else {
            Issue.record("no country:US series")
            return
        }
        #expect(sent.count == 24 && sent.last?.intValue == 1)
        #expect(challenges.count == 2 && challenges.first?["provider"] == "turnstile")
        #expect(h.call("GET", "/v1/admin/fraud-history", headers: [("Authorization", "Bearer " + S.metricsOnly)]).status == 403)
    }
}
