import HTTPMessages
import HTTPServer

/// The HTTP server, bound early so that a port-0 listener's port is known: the issuer URL (and
/// so the gateways' callback URLs) depend on it. Until ``open(to:)`` hands it the API, requests
/// get 503 (``LateBoundResponder``).
final class HTTPListenerService: ApplicationService {
    private let responder = LateBoundResponder()
    private let server: HTTPServer
    /// The credentials' issuer: configured, or this listener's own URL.
    let issuer: String
    /// Base of the absolute URLs given to vendors and clients.
    let publicURL: String
    /// How long in-flight requests may take to finish when stopped (`PHONE_VERIFY_SHUTDOWN_GRACE`).
    private let graceSeconds: Double

    /// Binds and starts serving (503 for now).
    init(configuration c: Configuration) throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: c.listenHost, port: c.listenPort, threadPoolSize: c.httpThreads, connectionLimit: c.maxConnections),
            responder: responder)
        try server.start()
        self.server = server
        graceSeconds = Double(c.shutdownGrace)
        issuer = c.issuer ?? "http://\(Application.urlHost(c.listenHost)):\(server.port)"
        publicURL = c.publicURL ?? Configuration.withoutTrailingSlashes(issuer)
    }

    var port: Int { server.port }

    /// Opens the API to traffic: every request from now on goes to `api`.
    func open(to api: any HTTPResponder) {
        responder.set(api)
    }

    /// Stops accepting and lets in-flight requests finish (bounded by `graceSeconds`). Calling it
    /// again does nothing.
    func drain(graceSeconds: Double) {
        server.stopAccepting()
        server.shutdown(graceSeconds: graceSeconds)
    }

    /// After ``drain(graceSeconds:)`` there is nothing left to do; after a failed start it closes
    /// the server.
    func stop() {
        drain(graceSeconds: graceSeconds)
    }
}
