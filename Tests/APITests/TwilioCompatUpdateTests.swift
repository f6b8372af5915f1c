import Foundation
import Testing
import VerifyCore

/// Updates of a service change the fields they name in the settings the update's own transaction
/// reads: concurrent updates of different fields all land.
@Suite struct TwilioCompatUpdateTests {
    @Test func concurrentUpdatesOfDifferentFieldsAllLand() throws {
        let h = TwilioCompatHarness()
        let updates: [(field: String, value: String, json: String, expected: JSONValue)] = [
            ("CodeLength", "8", "code_length", .int(8)), ("CustomCodeEnabled", "true", "custom_code_enabled", .bool(true)),
            ("LookupEnabled", "false", "lookup_enabled", .bool(false)), ("Psd2Enabled", "true", "psd2_enabled", .bool(true)),
            ("DoNotShareWarningEnabled", "true", "do_not_share_warning_enabled", .bool(true)),
            ("SkipSmsToLandlines", "true", "skip_sms_to_landlines", .bool(true)),
        ]
        var lost = 0
        for round in 0..<100 {
            let sid = try #require(h.call("POST", "/v2/Services", form: [("FriendlyName", "round \(round)")])["sid"]?.stringValue)
            DispatchQueue.concurrentPerform(iterations: updates.count) { i in
                #expect(h.call("POST", "/v2/Services/\(sid)", form: [(updates[i].field, updates[i].value)]).status == 200)
            }
            let service = h.call("GET", "/v2/Services/\(sid)")
            lost += updates.filter { service[$0.json] != $0.expected }.count
        }
        #expect(lost == 0)
    }

    /// An unexpected failure (the disk, a corrupt row) is Twilio's 20500, and the server log says
    /// what it was under the request id the message names.
    @Test func anUnexpectedErrorIsLogged() throws {
        let h = TwilioCompatHarness(compatStore: BrokenStore())
        let reply = h.call("GET", "/v2/Services/VA" + String(repeating: "0", count: 32))
        #expect(reply.status == 500)
        #expect(reply.code == 20500)
        let logged = h.logs.records.first { $0.message == "unhandled error" }
        #expect(logged?.fields.contains { $0.0 == "error" && $0.1 == "DiskFull" } == true)
        // The description is logged without the number it quotes.
        let detail = logged?.fields.first { $0.0 == "detail" }?.1 ?? ""
        #expect(detail.contains("disk full") && !detail.contains("4155552671"))
        let id = try #require(logged?.fields.first { $0.0 == "request_id" }?.1)
        #expect(reply["message"]?.stringValue?.contains(id) == true)
    }

    /// Names go into the SMS text: 32 is counted in code points (one grapheme can carry hundreds
    /// of combining marks), and bidirectional overrides (U+202E shows the text reversed) are refused.
    @Test func namesAreBoundedInCodePoints() throws {
        let h = TwilioCompatHarness()
        let sid = try #require(h.call("POST", "/v2/Services", form: [("FriendlyName", "Acme")])["sid"]?.stringValue)
        let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 80), count: 32)
        #expect(heavy.count == 32)
        let tooLong = h.send(sid, extra: [("CustomFriendlyName", heavy)])
        #expect(tooLong.status == 400 && tooLong.code == 60200)
        #expect(h.send(sid, extra: [("CustomFriendlyName", "Acme\u{202E}nigol")]).status == 400)
        #expect(h.call("POST", "/v2/Services/\(sid)", form: [("FriendlyName", heavy)]).status == 400)
        #expect(h.send(sid, extra: [("CustomFriendlyName", "Café Zürich")]).status == 201)
        // Joiners are ordinary text: Persian uses ZWNJ, emoji sequences ZWJ.
        #expect(h.send(sid, to: "+15555550124", extra: [("CustomFriendlyName", "می\u{200C}خواهم")]).status == 201)
        #expect(h.send(sid, to: "+15555550125", extra: [("CustomFriendlyName", "Shop 👩\u{200D}💻")]).status == 201)
        for invisible in ["\u{200B}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{E0041}", "\u{2028}"] {
            #expect(h.send(sid, to: "+15555550126", extra: [("CustomFriendlyName", "Acme" + invisible + "Login")]).status == 400)
        }
    }

    @Test func anOversizedBodyOnV2IsTwiliosError() throws {
        let h = TwilioCompatHarness()
        let response = try #require(h.api.bodyTooLarge(path: "/v2/Services", limit: 16384))
        #expect(response.status == 413)
        let json = try JSONValue.parse(response.bodyBytes)
        #expect(json["code"] == .int(60200) && json["status"] == .int(413))
        #expect(response.headers["X-Request-Id"]?.hasPrefix("req_") == true)
        #expect(h.api.bodyTooLarge(path: "/v1/verifications", limit: 16384) == nil)
    }

    @Test func aBadFieldChangesNothing() throws {
        let h = TwilioCompatHarness()
        let sid = try #require(h.call("POST", "/v2/Services", form: [("FriendlyName", "x")])["sid"]?.stringValue)
        let refused = h.call("POST", "/v2/Services/\(sid)", form: [("FriendlyName", "renamed"), ("CodeLength", "99")])
        #expect(refused.status == 400)
        #expect(h.call("GET", "/v2/Services/\(sid)")["friendly_name"] == "x")
    }
}

/// A store whose every call fails as a broken disk would.
private struct BrokenStore: TwilioCompatStore {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "disk full writing Key (subject, phone_number)=(user-1, +14155552671)" }
    }
    func write<T: Sendable>(reading: ReadSet, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws -> T { throw DiskFull() }
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) throws -> T { throw DiskFull() }
}

// The harness's parts (the in-memory store, the responder) are thread-safe.
extension TwilioCompatHarness: @unchecked Sendable {}
