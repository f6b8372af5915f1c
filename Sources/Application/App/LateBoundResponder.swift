import Foundation
import HTTPMessages

/// Lets the server bind (and learn a port-0 port) before the API that needs the issuer URL
/// exists. Until set, every request gets 503.
final class LateBoundResponder: HTTPResponder, @unchecked Sendable {
    // @unchecked: `target` is only touched with `lock` held.
    private let lock = NSLock()
    private var target: (any HTTPResponder)?

    func set(_ responder: any HTTPResponder) {
        lock.lock()
        target = responder
        lock.unlock()
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        let current = target
        lock.unlock()
        guard let current else {
            let id = "req_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            return HTTPResponse(status: 503, headers: ["Content-Type": "application/json; charset=utf-8", "Retry-After": "1", "X-Request-Id": id],
                                body: Array(#"{"error":{"code":"unavailable","message":"starting up","details":{}}}"#.utf8))
        }
        return current.respond(to: request)
    }

    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        lock.lock()
        let current = target
        lock.unlock()
        return current?.bodyTooLarge(path: path, limit: limit)
    }
}
