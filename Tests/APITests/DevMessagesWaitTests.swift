import Foundation
import HTTPMessages
import Testing
import VerifyCore
import VerifyTesting

import API
@testable import DevInbox

/// `GET /dev/messages` filters by verification and can wait for a message (off the HTTP threads).
@Suite struct DevMessagesWaitTests {
    func route(_ log: any DevMessageLog, query: [String: String]) throws -> HTTPResponse {
        let h = APITestHarness()
        var router = Router()
        DevRoutes(messages: log, service: h.t.service).register(in: &router)
        guard case .found(let handler, _, _) = router.match(method: "GET", path: "/dev/messages") else {
            Issue.record("no route")
            return HTTPResponse(status: 404)
        }
        do {
            return try handler(
                HTTPRequest(method: "GET", path: "/dev/messages", query: query), RouteContext(requestID: "req_test", clientIP: "127.0.0.1"))
        } catch let error as VerifyError {
            return JSONResponse.error(error)
        }
    }

    func codes(_ bytes: [UInt8]) throws -> [String] {
        try JSONValue.parse(bytes)["messages"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test func filtersByVerificationAndAnswersAtOnceWhenSomethingMatches() throws {
        let log = WaitingDevLog()
        log.record(DevInboxTests.message(1))
        log.record(DevInboxTests.message(2))
        let response = try route(log, query: ["verification_id": "ver_1", "wait": "5"])
        guard case .bytes(let body) = response.body else { Issue.record("expected a plain body"); return }
        #expect(try codes(body) == ["000001"])
    }

    @Test func waitsForTheAwaitedMessageInAStream() throws {
        let log = WaitingDevLog()
        let response = try route(log, query: ["phone_number": "+15555550123", "verification_id": "ver_3", "wait": "5"])
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == JSONResponse.contentType)
        guard case .stream(let stream) = response.body else { Issue.record("expected a stream"); return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            log.record(DevInboxTests.message(2))
            log.record(DevInboxTests.message(3))
        }
        let started = Date()
        let body = try #require(stream.next())
        #expect(try codes(body) == ["000003"])
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(stream.next() == nil)
    }

    @Test func aWaitThatRunsOutAnswersAnEmptyList() throws {
        let response = try route(WaitingDevLog(), query: ["verification_id": "ver_9", "wait": "0.2"])
        guard case .stream(let stream) = response.body else { Issue.record("expected a stream"); return }
        #expect(try codes(try #require(stream.next())).isEmpty)
    }

    @Test(arguments: ["-1", "31", "soon", "nan"])
    func badWaitsAreRefused(wait: String) throws {
        let response = try route(WaitingDevLog(), query: ["verification_id": "ver_1", "wait": wait])
        #expect(response.status == 400)
        #expect(try JSONValue.parse(response.bodyBytes)["error"]?["details"]?["field"] == "wait")
    }
}
