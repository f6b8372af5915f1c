import HTTPMessages
import Synchronization

/// Lets the server bind (and learn a port-0 port) before the API that needs the issuer URL
/// exists. Until set, every request gets 503.
final class LateBoundResponder: HTTPResponder {
    private let target = Mutex<(any HTTPResponder)?>(nil)

    func set(_ responder: any HTTPResponder) {
        target.withLock { $0 = responder }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let current = target.withLock({ $0 }) else {
            let id = "req_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            return HTTPResponse(status: 503, headers: ["Content-Type": "application/json; charset=utf-8", "Retry-After": "1", "X-Request-Id": id],
                                body: Array(#"{"error":{"code":"unavailable","message":"starting up","details":{}}}"#.utf8))
        }
        return current.respond(to: request)
    }

    func bodyTooLarge(path: String, limit: Int) -> HTTPResponse? {
        target.withLock { $0 }?.bodyTooLarge(path: path, limit: limit)
    }
}
