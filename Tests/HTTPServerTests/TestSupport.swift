import HTTPServer
import HTTPMessages
import Synchronization

/// A responder built from a closure.
struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse

    init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }

    func respond(to request: HTTPRequest) -> HTTPResponse { handler(request) }
}

/// Starts a server on 127.0.0.1:0, runs `body`, and always shuts the server down.
func withServer<T>(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(host: "127.0.0.1", port: 0),
    responder: any HTTPResponder,
    _ body: (HTTPServer) throws -> T
) throws -> T {
    let server = HTTPServer(configuration: configuration, responder: responder)
    try server.start()
    defer { server.shutdown(graceSeconds: 1) }
    return try body(server)
}

/// A thread-safe counter for "how often was the responder called".
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
