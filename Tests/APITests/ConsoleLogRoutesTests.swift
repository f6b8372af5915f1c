import API
import Foundation
import HTTPMessages
import Testing
import VerifyCore

/// The verification log, its CSV export and one verification's page (docs/OPERATIONS.md,
/// "Console"); and the delivery page naming a failing gateway.
@Suite struct ConsoleLogRoutesTests {
    typealias S = ConsoleSessionTests
    let admin = [("Authorization", "Bearer " + S.admin)]

    func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    @Test func theLogPagesNewestFirstWithIdsAndTheChannelUsed() throws {
        let h = S.harness()
        var ids: [String] = []
        for phone in ["+14155552671", "+14155552672", "+447400123456"] {
            ids.append(try #require(h.start(phone).json["id"]?.stringValue))
            h.t.clock.advance(1)
        }
        let first = h.call("GET", "/v1/admin/verification-log", headers: admin, query: ["limit": "2"])
        #expect(first.status == 200)
        #expect(items(first.json["verifications"]).map { $0["id"]?.stringValue } == [ids[2], ids[1]])
        #expect(items(first.json["verifications"]).first?["channel"] == "sms")
        #expect(items(first.json["verifications"]).first?["gateway"] != nil)
        let cursor = try #require(first.json["next_cursor"]?.stringValue)
        let second = h.call("GET", "/v1/admin/verification-log", headers: admin, query: ["limit": "2", "cursor": cursor])
        #expect(items(second.json["verifications"]).map { $0["id"]?.stringValue } == [ids[0]] && second.json["next_cursor"] == .null)
        let gb = h.call("GET", "/v1/admin/verification-log", headers: admin, query: ["country": "gb"])
        #expect(items(gb.json["verifications"]).map { $0["id"]?.stringValue } == [ids[2]])

        for (field, value) in [("status", "bogus"), ("channel", "fax"), ("country", "N1"), ("cursor", "<script>"), ("limit", "0"), ("since", "yesterday")] {
            let bad = h.call("GET", "/v1/admin/verification-log", headers: admin, query: [field: value])
            #expect(bad.status == 400 && bad.json["error"]?["details"]?["field"] == .string(field), "\(field)")
        }
        #expect(h.call("GET", "/v1/admin/verification-log", headers: admin, query: ["number": "hello"]).errorCode == "invalid_phone_number")
        #expect(h.call("GET", "/v1/admin/verification-log").status == 401)
        #expect(h.call("GET", "/v1/admin/verification-log", headers: [("Authorization", "Bearer " + S.metricsOnly)]).status == 403)
    }

    @Test func theCSVExportNeverCarriesAFormula() throws {
        let h = S.harness()
        let id = try #require(h.start("+14155552671").json["id"]?.stringValue)
        let now = h.t.clock.now().addingTimeInterval(1)
        var m = OutboxMessage(
            id: "msg_vendor", verificationID: id, to: "+14155552671", purpose: .signIn, sealedPayload: [1], createdAt: now, updatedAt: now,
            nextAttemptAt: now, expiresAt: now.addingTimeInterval(300))
        m.lastError = "=HYPERLINK(\"http://evil.example\",\"x\"), 500"
        m.status = .failed
        m.attempts = 1
        let failed = m
        try h.t.store.write { tx in try tx.enqueue(failed, lease: nil) }
        let reply = h.call("GET", "/v1/admin/verification-log.csv", headers: admin)
        #expect(reply.status == 200 && reply.headers["Content-Type"] == "text/csv; charset=utf-8")
        let text = reply.json.stringValue ?? ""
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.first?.hasPrefix("id,created_at,phone_number,country,status,") == true)
        #expect(lines.count == 2 && lines[1].hasPrefix(id + ","))
        #expect(lines[1].contains(",+14155552671,US,pending,sms,sms,,failed,"))
        #expect(lines[1].contains(",\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\"), 500\","))
    }

    @Test func aVerificationShowsEveryMessage() throws {
        let h = S.harness()
        let id = try #require(h.start("+14155552671").json["id"]?.stringValue)
        let reply = h.call("GET", "/v1/admin/verification-log/" + id, headers: admin)
        #expect(reply.status == 200 && reply.json["id"] == .string(id) && reply.json["channel_requested"] == "sms")
        #expect(items(reply.json["messages"]).count == 1 && items(reply.json["messages"]).first?["channel"] == "sms")
        #expect(reply.json["events"] == .array([]))
        #expect(h.call("GET", "/v1/admin/verification-log/ver_nothing", headers: admin).errorCode == "not_found")
    }

    @Test func aGatewayWhoseCallsFailIsNamedFailingThoughItsMessagesFailedOver() throws {
        let h = APITestHarness(
            apiKeys: S.keys, console: true,
            consoleCalls: [("twilio", "retryable", 4), ("twilio", "sent", 1), ("vonage", "sent", 4), ("vonage", "failover", 4)])
        _ = h.start("+14155552671")
        let reply = h.call("GET", "/v1/admin/delivery", headers: admin)
        let gateways = items(reply.json["gateways"]?["hour"])
        let twilio = gateways.first { $0["gateway"] == "twilio" }, vonage = gateways.first { $0["gateway"] == "vonage" }
        #expect(twilio?["failing"] == .bool(true) && twilio?["errors"]?.intValue == 4 && twilio?["calls"]?.intValue == 5)
        #expect(twilio?["circuit"] == "closed")
        #expect(vonage?["failing"] == .bool(false) && vonage?["failovers"]?.intValue == 4)
        #expect(reply.json["outbox"]?["scheduled_fallbacks"]?.intValue == 0)
        #expect(items(reply.json["conversion"]?["series"]).first?["country"] == "US")
    }
}
