import API
import Foundation
import HTTPMessages
import Synchronization
import VerifyCore

/// Development-only endpoints: never registered in production mode.
struct DevRoutes: RouteCollection {
    let messages: any DevMessageLog
    let service: VerificationService

    /// Longest `wait` a lookup may ask for, seconds.
    static let maxWait = 30.0

    func register(in router: inout Router) {
        let messages = self.messages
        router.add("GET", "/dev/messages") { request, _ in
            var phone = request.query["phone_number"]
            // A literal "+" in a query string may arrive as a space.
            if let p = phone, p.hasPrefix(" ") { phone = "+" + p.dropFirst() }
            if let p = phone, !p.hasPrefix("+") {
                throw VerifyError(
                    .invalidRequest, "phone_number must be E.164, URL-encoded (%2B for +)", details: ["field": "phone_number"])
            }
            let verificationID = request.query["verification_id"]
            let limit = request.query["limit"].flatMap { Int($0) }.map { min(max($0, 1), 500) } ?? 50
            let wait = try Self.waitSeconds(request.query["wait"])
            let found = messages.messages(to: phone, verificationID: verificationID, limit: limit)
            // Nothing yet and the caller will wait: answer from a stream, so the wait happens
            // off the HTTP server's threads (see HTTPBodyStream).
            if found.isEmpty, wait > 0, let feed = messages as? any DevMessageFeed, phone != nil || verificationID != nil {
                let phone = phone
                let stream = OneShotBody {
                    Self.body(feed.waitForMessages(to: phone, verificationID: verificationID, limit: limit, timeout: wait))
                }
                return HTTPResponse(status: 200, headers: Self.headers, stream: stream)
            }
            return HTTPResponse(status: 200, headers: Self.headers, body: Self.body(found))
        }
    }

    static let headers: HTTPHeaders = ["Content-Type": JSONResponse.contentType, "Cache-Control": "no-store"]

    static func waitSeconds(_ text: String?) throws -> TimeInterval {
        guard let text else { return 0 }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= maxWait else {
            throw VerifyError(
                .invalidRequest, "wait must be a number of seconds from 0 to \(Int(maxWait))", details: ["field": "wait"])
        }
        return seconds
    }

    static func body(_ list: [DevMessage]) -> [UInt8] {
        // One shape for the JSON list and the inbox's events.
        let json: JSONValue = ["messages": .array(list.map(DevInboxRoutes.messageJSON))]
        return json.encoded()
    }
}
