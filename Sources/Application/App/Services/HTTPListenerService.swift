import HTTPMessages
import HTTPServer

/// The HTTP server, bound early so that a port-0 listener's port is known: the issuer URL (and
/// so the gateways' callback URLs) depend on it. Until ``APIService`` sets the API, requests get
/// 503 (``LateBoundResponder``).
final class HTTPListenerService: ApplicationService {
    let configuration: Configuration
    let responder: LateBoundResponder
    /// How long in-flight requests may take to finish at shutdown.
    var graceSeconds = 10.0
    private(set) var server: HTTPServer?
    /// The credentials' issuer: configured, or this listener's own URL.
    private(set) var issuer = ""
    /// Base of the absolute URLs given to vendors and clients.
    private(set) var publicURL = ""

    init(configuration: Configuration, responder: LateBoundResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    var port: Int { server?.port ?? 0 }

    func start() throws {
        let c = configuration
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: c.listenHost, port: c.listenPort, threadPoolSize: c.httpThreads, connectionLimit: c.maxConnections),
            responder: responder)
        try server.start()
        self.server = server
        issuer = c.issuer ?? "http://\(Application.urlHost(c.listenHost)):\(server.port)"
        publicURL = c.publicURL ?? Configuration.withoutTrailingSlashes(issuer)
    }

    /// Stops accepting and lets in-flight requests finish (bounded by `graceSeconds`).
    func drain() {
        server?.stopAccepting()
        server?.shutdown(graceSeconds: graceSeconds)
    }

    /// After ``drain()`` there is nothing left to do; after a failed start it closes the server.
    func stop() {
        drain()
        server = nil
    }
}
