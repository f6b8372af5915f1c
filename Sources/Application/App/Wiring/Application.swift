import Crypto
import Foundation
import Gateways
import SettingsTable
import Telemetry
import VerifyCore

/// Wires every part together from a configuration and runs it: the parts are built in dependency
/// order, each from values built before it (store, secrets, HTTP listener, gateway chain,
/// delivery worker, event senders, signing keys, API); the running ones are services, stopped in
/// reverse (``ServiceGroup``).
///
/// `@unchecked Sendable`: `start` and `shutdown` are called one after the other by one caller (the
/// `serve` command, or a test), never concurrently; request threads never touch this object.
public final class Application: @unchecked Sendable {
    public let configuration: Configuration
    let logger: Logger
    let clock: any Clock
    let random: any RandomSource
    let consoleOutput: (@Sendable (String) -> Void)?

    private var running: RunningApplication?

    /// `consoleOutput` replaces stdout for the console sink (tests).
    public init(
        configuration: Configuration, logger: Logger, clock: any Clock = SystemClock(),
        random: any RandomSource = OpenSSLRandom(), consoleOutput: (@Sendable (String) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.random = random
        self.consoleOutput = consoleOutput
    }

    /// The bound port (after `start`).
    public var port: Int { running?.listener.port ?? 0 }
    /// The credentials' issuer (after `start`).
    public var issuer: String { running?.listener.issuer ?? "" }
    /// The gateway chain (for readiness and metrics).
    public var gateway: ChannelRouter? { running?.delivery.gateway }
    /// In development mode, the record of sent messages.
    public var devInbox: DevInbox? { running?.delivery.devInbox }

    /// Checks the environment, then builds the parts in dependency order (``assemble(into:)``);
    /// a failure stops the services already running.
    public func start() throws {
        // A write to a closed pipe (stdout of the console sink, stderr piped to a log shipper that
        // restarted) must fail that write, not kill the server; sockets already avoid SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        warnAboutConfiguration()
        let services = ServiceGroup()
        do {
            running = try assemble(into: services)
        } catch {
            services.stop()
            throw error
        }
    }

    /// Stops accepting, lets in-flight requests finish (within `graceSeconds`, by default
    /// `PHONE_VERIFY_SHUTDOWN_GRACE`) while every other part still runs, then stops the services
    /// in reverse: the workers, the listener, the store last.
    public func shutdown(graceSeconds: Double? = nil) {
        running?.listener.drain(graceSeconds: graceSeconds ?? Double(configuration.shutdownGrace))
        running?.services.stop()
        logger.info("stopped")
    }

    /// Warnings about settings that are legal but probably not meant, logged before anything starts.
    private func warnAboutConfiguration() {
        let c = configuration
        for name in c.unknownVariables {
            logger.warning("unknown setting ignored (typo?)", [("name", name)])
        }
        if c.mode == .development, c.devExpose {
            logger.warning("\(Settings.devExpose.name)=true: /dev/messages and /dev/inbox show codes to every client that reaches this port, not only loopback ones")
        }
        if c.mode == .production, !c.apiKeys.hasKey(for: .metrics) {
            logger.warning("no API key has the metrics scope: GET /metrics refuses every scrape (set \(Settings.scopedAPIKeys.name)=metrics=KEY)")
        }
        for missing in c.missingProof { logger.warning(missing) }
        let files = FileLimit.raise(forConnections: c.maxConnections)
        if files.limit < files.wanted {
            logger.warning("open-file limit below what \(Settings.maxConnections.name) needs; raise the hard limit (ulimit -Hn, LimitNOFILE=)", [
                ("limit", String(files.limit)), ("wanted", String(files.wanted)),
            ])
        }
    }

    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
