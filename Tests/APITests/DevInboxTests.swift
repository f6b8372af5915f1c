import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

import API
@testable import DevInbox

/// A DevMessageLog that can wait, like the application's `DevInbox`.
final class WaitingDevLog: DevMessageFeed, @unchecked Sendable {
    private let lock = NSCondition()
    private var items: [DevMessage] = []
    private var sequence = 0

    func record(_ message: DevMessage) {
        lock.lock()
        items.append(message)
        sequence += 1
        lock.broadcast()
        lock.unlock()
    }

    func messages(to phoneNumber: String?, limit: Int) -> [DevMessage] {
        lock.lock()
        defer { lock.unlock() }
        return Array(items.reversed().filter { phoneNumber == nil || $0.to == phoneNumber }.prefix(limit))
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sequence
    }

    func wait(after seen: Int, timeout: TimeInterval) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while sequence <= seen && lock.wait(until: deadline) {}
        return sequence
    }
}

@Suite struct DevInboxTests {
    /// The dev inbox routes alone, on the harness's service, with the given message log.
    struct Inbox {
        let h = APITestHarness()
        let router: Router

        init(log: any DevMessageLog, heartbeat: TimeInterval = 15, pollInterval: TimeInterval = 0.05, statusInterval: TimeInterval = 2) {
            var router = Router()
            DevInboxRoutes(
                messages: log, service: h.t.service, random: h.t.random, heartbeat: heartbeat, pollInterval: pollInterval,
                statusInterval: statusInterval
            ).register(in: &router)
            self.router = router
        }

        func get(_ path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders()) throws -> HTTPResponse {
            guard case .found(let handler, _, _) = router.match(method: "GET", path: path) else {
                Issue.record("no route for \(path)")
                return HTTPResponse(status: 404)
            }
            return try handler(
                HTTPRequest(method: "GET", path: path, query: query, headers: headers), RouteContext(requestID: "req_test", clientIP: "127.0.0.1"))
        }

        func stream(headers: HTTPHeaders = HTTPHeaders()) throws -> (HTTPResponse, any HTTPBodyStream) {
            let response = try get("/dev/inbox/events", headers: headers)
            guard case .stream(let stream) = response.body else {
                Issue.record("not a stream")
                throw CancellationError()
            }
            return (response, stream)
        }
    }

    static func message(_ n: Int, to: String = "+15555550123") -> DevMessage {
        DevMessage(
            to: to, body: "Your code is 00000\(n)", code: "00000\(n)", verificationID: "ver_\(n)", purpose: .signIn,
            gateway: "console", sentAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)))
    }

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// Calls `next()` until a non-empty chunk (or the end) comes, for at most `seconds`.
    static func nextChunk(_ stream: any HTTPBodyStream, within seconds: TimeInterval = 5) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let chunk = stream.next() else { return nil }
            if !chunk.isEmpty { return text(chunk) }
        }
        return ""
    }

    static func event(_ n: Int, id: Int?) -> String {
        let data = DevInboxRoutes.messageJSON(message(n)).encodedString()
        return (id.map { "id: \($0)\n" } ?? "") + "event: message\ndata: \(data)\n\n"
    }

    /// The status event of a verification the store does not have (the messages above are made up).
    static func unknown(_ n: Int) -> String {
        "event: status\ndata: {\"verification_id\":\"ver_\(n)\",\"status\":\"unknown\"}\n\n"
    }

    static func ready(_ backlog: Int) -> String { "event: ready\ndata: {\"backlog\":\(backlog)}\n\n" }

    static let preamble = "retry: 3000\n\n: connected\n\n"

    // MARK: the page

    @Test func pageIsSelfContainedHTMLWithANonceBasedPolicy() throws {
        let inbox = Inbox(log: MemoryDevLog())
        let response = try inbox.get("/dev/inbox")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        let html = String(decoding: response.bodyBytes, as: UTF8.self)
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("Filter by phone number"))
        #expect(html.contains("/dev/inbox/events"))

        // No external assets: no absolute or protocol-relative URLs, no src/href to elsewhere.
        let lower = html.lowercased()
        for forbidden in ["http://", "https://", "//cdn", "src=", "@import", "<link rel=\"stylesheet\""] {
            #expect(!lower.contains(forbidden), "page contains \(forbidden)")
        }
        #expect(!html.contains("url("), "no CSS url(): fonts and images would be fetched")
        let hrefs = lower.components(separatedBy: "href=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
        #expect(hrefs == ["data:,"])

        // Every inline <script> and <style> carries the nonce the policy allows, and nothing else is allowed.
        let csp = try #require(response.headers["Content-Security-Policy"])
        let nonce = try #require(csp.components(separatedBy: "'nonce-").dropFirst().first?.prefix(while: { $0 != "'" }))
        #expect(nonce.count == 32)
        #expect(csp.contains("default-src 'none'"))
        #expect(csp.contains("script-src 'nonce-\(nonce)';"))
        #expect(csp.contains("style-src 'nonce-\(nonce)';"))
        #expect(csp.contains("connect-src 'self'"))
        #expect(!csp.contains("unsafe-inline") && !csp.contains("*") && !csp.contains("http"))
        #expect(html.components(separatedBy: "<script").count - 1 == 1)
        #expect(html.components(separatedBy: "<style").count - 1 == 1)
        #expect(html.contains("<script nonce=\"\(nonce)\">"))
        #expect(html.contains("<style nonce=\"\(nonce)\">"))
        #expect(!html.contains(DevInboxPage.noncePlaceholder))
        #expect(!html.contains(/\son[a-z]+\s*=\s*"/), "no inline event handlers (the policy would block them)")

        // A fresh nonce each time.
        let again = try inbox.get("/dev/inbox")
        #expect(again.headers["Content-Security-Policy"] != csp)
    }

    // MARK: the event stream

    @Test func firstChunkHasRetryThenBacklogOldestFirstThenStatusesThenReady() throws {
        let log = WaitingDevLog()
        for n in 1...3 { log.record(Self.message(n)) }
        let inbox = Inbox(log: log)
        let (response, stream) = try inbox.stream()
        defer { stream.close() }
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        let first = try #require(Self.text(stream.next()))
        #expect(first == Self.preamble + Self.event(1, id: 1) + Self.event(2, id: 2) + Self.event(3, id: 3)
            + Self.unknown(1) + Self.unknown(2) + Self.unknown(3) + Self.ready(3))
        #expect(first.contains(#"data: {"to":"+15555550123","channel":"sms","body":"Your code is 000001","code":"000001","verification_id":"ver_1","purpose":"sign_in","gateway":"console","sent_at":"2027-01-15T08:00:01Z"}"#))
    }

    @Test func newMessagesArriveAsTheyAreRecorded() throws {
        let log = WaitingDevLog()
        log.record(Self.message(1))
        let (_, stream) = try Inbox(log: log).stream()
        defer { stream.close() }
        _ = stream.next()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { log.record(Self.message(2)) }
        let started = Date()
        #expect(Self.nextChunk(stream) == Self.event(2, id: 2) + Self.unknown(2))
        #expect(Date().timeIntervalSince(started) < 2, "the feed wakes the stream; no polling delay")
        log.record(Self.message(3))
        log.record(Self.message(4))
        #expect(Self.nextChunk(stream) == Self.event(3, id: 3) + Self.event(4, id: 4) + Self.unknown(3) + Self.unknown(4))
    }

    @Test func lastEventIDResumesWithoutRepeats() throws {
        let log = WaitingDevLog()
        for n in 1...3 { log.record(Self.message(n)) }
        let (_, stream) = try Inbox(log: log).stream(headers: ["Last-Event-ID": "2"])
        defer { stream.close() }
        // Only the message not seen yet; the status of all recent ones, which the page still shows.
        #expect(Self.text(stream.next()) == Self.preamble + Self.event(3, id: 3) + Self.unknown(1) + Self.unknown(2) + Self.unknown(3) + Self.ready(1))
        // An id from before a restart (beyond the log) starts over with the backlog.
        let (_, fresh) = try Inbox(log: log).stream(headers: ["Last-Event-ID": "99"])
        defer { fresh.close() }
        #expect(Self.text(fresh.next())?.contains(Self.event(1, id: 1)) == true)
    }

    @Test func backlogIsBoundedToTheNewestMessages() throws {
        let log = WaitingDevLog()
        for n in 1...(DevMessageCursor.backlogLimit + 7) { log.record(Self.message(n)) }
        let (_, stream) = try Inbox(log: log).stream()
        defer { stream.close() }
        let first = try #require(Self.text(stream.next()))
        #expect(first.components(separatedBy: "event: message\n").count - 1 == DevMessageCursor.backlogLimit)
        #expect(!first.contains("\"ver_7\""))
        #expect(first.contains("id: 8\n") && first.contains("id: \(DevMessageCursor.backlogLimit + 7)\n"))
    }

    @Test func aLogThatCannotWaitIsPolled() throws {
        let log = MemoryDevLog()
        log.record(Self.message(1))
        let (_, stream) = try Inbox(log: log, pollInterval: 0.05).stream()
        defer { stream.close() }
        #expect(Self.text(stream.next()) == Self.preamble + Self.event(1, id: nil) + Self.unknown(1) + Self.ready(1))
        log.record(Self.message(2))
        #expect(Self.nextChunk(stream) == Self.event(2, id: nil) + Self.unknown(2))
        log.record(Self.message(3))
        #expect(Self.nextChunk(stream) == Self.event(3, id: nil) + Self.unknown(3))
    }

    @Test func idleStreamSendsHeartbeatsAndEndsOnClose() throws {
        let (_, stream) = try Inbox(log: WaitingDevLog(), heartbeat: 0.3).stream()
        _ = stream.next()
        let started = Date()
        #expect(Self.nextChunk(stream) == ": heartbeat\n\n")
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.25 && waited < 2)
        stream.close()
        #expect(stream.next() == nil)
    }

    @Test func closeWhileWaitingEndsWithinASlice() throws {
        let (_, stream) = try Inbox(log: WaitingDevLog()).stream()
        _ = stream.next()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { stream.close() }
        let started = Date()
        var result: [UInt8]? = []
        while let chunk = result, chunk.isEmpty, Date().timeIntervalSince(started) < 5 { result = stream.next() }
        #expect(result == nil)
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func eventEncodingSplitsLinesAndStripsBreaksFromFields() {
        #expect(ServerSentEvent(id: "7", event: "message", data: "a\nb\r\nc").encoded == "id: 7\nevent: message\ndata: a\ndata: b\ndata: c\n\n")
        #expect(ServerSentEvent(id: "1\n2", event: "x\ry", data: "").encoded == "id: 12\nevent: xy\ndata: \n\n")
        #expect(ServerSentEvent.comment("hi\nthere") == ": hithere\n\n")
    }

    // MARK: status

    @Test func statusEventsFollowTheVerification() throws {
        let log = WaitingDevLog()
        let inbox = Inbox(log: log, statusInterval: 0.05)
        let id = try #require(inbox.h.start("+15555550123").json["id"]?.stringValue)
        let code = try inbox.h.t.lastCode(for: id)
        log.record(DevMessage(
            to: "+15555550123", body: "Your code is \(code)", code: code, verificationID: id, purpose: .signIn, gateway: "console",
            sentAt: Date()))
        let (_, stream) = try inbox.stream()
        defer { stream.close() }

        func statuses(_ chunk: String?) throws -> [JSONValue] {
            try (chunk ?? "").components(separatedBy: "\n\n").filter { $0.hasPrefix("event: status\n") }.map {
                try JSONValue.parse(Array($0.dropFirst("event: status\ndata: ".count).utf8))
            }
        }
        let first = try statuses(Self.text(stream.next()))
        #expect(first.count == 1)
        #expect(first.first?["verification_id"]?.stringValue == id)
        #expect(first.first?["status"] == "pending")
        #expect(first.first?["attempts_remaining"]?.intValue == 5)
        #expect(first.first?["expires_at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(first.first?.isObject == true && first.first?["delivery"] != nil)

        // A wrong guess changes what the page shows; the right code approves.
        let wrong = code == "000000" ? "111111" : "000000"
        #expect(inbox.h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(wrong)"}"#).errorCode == "incorrect_code")
        let guessed = try statuses(Self.nextChunk(stream))
        #expect(guessed.map { $0["attempts_remaining"]?.intValue } == [4])
        #expect(guessed.first?["status"] == "pending")
        #expect(inbox.h.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"\#(code)"}"#).status == 200)
        let approved = try statuses(Self.nextChunk(stream))
        #expect(approved.map { $0["status"] } == ["approved"])

        // Final: no more lookups, only heartbeats from now on.
        for _ in 0..<5 { #expect(try statuses(Self.text(stream.next())).isEmpty) }
    }

    // MARK: wiring

    @Test func inboxRoutesExistOnlyInDevelopmentMode() {
        let dev = APITestHarness(dev: true)
        let prod = APITestHarness(dev: false)
        let registered = dev.api.router.table.contains { $0.template == "/dev/inbox" }
        // Registered by DevInboxFeature next to DevRoutes (the application adds it in development only).
        #expect(registered)
        if registered {
            let page = dev.call("GET", "/dev/inbox")
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(dev.api.router.table.contains { $0.template == "/dev/inbox/events" })
        }
        for path in ["/dev/inbox", "/dev/inbox/events"] {
            #expect(prod.call("GET", path).status == 404)
        }
    }
}
