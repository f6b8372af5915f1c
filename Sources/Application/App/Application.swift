import API
import Adapters
import DevInbox
import LibCrypto
import Foundation
import Gateways
import HTTPServer
import HTTPMessages
import Stores
import Telemetry
import TwilioCompatAPI
import VerifyCore

/// Wires every part together from a configuration and runs it: store, delivery worker, API, HTTP server.
public final class Application: @unchecked Sendable {
    public let configuration: Configuration
    let logger: Logger
    let clock: any Clock
    let random: any RandomSource
    let consoleOutput: (@Sendable (String) -> Void)?

    private var server: HTTPServer?
    private var worker: DeliveryWorker?
    /// The gateway chain (for readiness and metrics).
    public private(set) var gateway: FailoverGateway?
    private var opened: StoreFactory.Opened?
    public private(set) var issuer = ""
    /// In development mode, the record of sent messages.
    public private(set) var devInbox: DevInbox?

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
    public var port: Int { server?.port ?? 0 }

    /// Opens the store (migrating it), starts the delivery worker, then the HTTP server.
    public func start() throws {
        let c = configuration
        // A write to a closed pipe (stdout of the console sink, stderr piped to a log shipper that
        // restarted) must fail that write, not kill the server; sockets already avoid SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        for name in c.unknownVariables {
            logger.warning("unknown setting ignored (typo?)", [("name", name)])
        }
        if c.mode == .development, c.devExpose {
            logger.warning("\(Settings.devExpose.name)=true: /dev/messages and /dev/inbox show codes to every client that reaches this port, not only loopback ones")
        }
        if c.mode == .production, !c.apiKeys.hasKey(for: .metrics) {
            logger.warning("no API key has the metrics scope: GET /metrics refuses every scrape (set \(Settings.scopedAPIKeys.name)=metrics=KEY)")
        }
        let files = FileLimit.raise(forConnections: c.maxConnections)
        if files.limit < files.wanted {
            logger.warning("open-file limit below what \(Settings.maxConnections.name) needs; raise the hard limit (ulimit -Hn, LimitNOFILE=)", [
                ("limit", String(files.limit)), ("wanted", String(files.wanted)),
            ])
        }
        try FileManager.default.createDirectory(atPath: c.dataDirectory, withIntermediateDirectories: true)
        let opened = try StoreFactory.open(c)
        self.opened = opened
        let store = opened.store
        let keys = try SecretKeys(secret: try KeyMaterial.codeSecret(c))
        let signer = try JWTSigner(key: try KeyMaterial.signingKey(c))
        let sealer = AESGCMSealer(key: keys.outboxKey)
        let inbox = c.mode == .development ? DevInbox() : nil
        devInbox = inbox
        let late = LateBoundResponder()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: c.listenHost, port: c.listenPort, threadPoolSize: c.httpThreads, connectionLimit: c.maxConnections),
            responder: late)
        try server.start()
        self.server = server
        issuer = c.issuer ?? "http://\(Self.urlHost(c.listenHost)):\(server.port)"
        let publicURL = c.publicURL ?? Configuration.withoutTrailingSlashes(issuer)
        let metrics = MetricsSink(registry: MetricsRegistry())
        let gateway = GatewayFactory.make(
            c, publicURL: publicURL, clock: clock, logger: logger, consoleOutput: consoleOutput, events: metrics)
        metrics.watch(outbox: store, gateway: gateway, clock: clock)
        self.gateway = gateway
        var delivery = DeliveryConfiguration()
        delivery.retention = Double(c.retention)
        delivery.idempotencyWindow = Double(c.policy.idempotencyWindow)
        delivery.threads = c.deliveryThreads
        delivery.maxAttempts = c.deliveryMaxAttempts
        let worker = DeliveryWorker(
            outbox: store, gateway: gateway, sealer: sealer, clock: clock, random: random,
            logger: logger, devLog: inbox, configuration: delivery)
        self.worker = worker
        worker.start()
        let replacedActiveKey = try KeyActivation.atStart(
            signer, store: store, now: clock.now(), credentialLifetime: TimeInterval(c.credentialTTL), logger: logger)
        let keyRing = try StoreKeyRing(
            active: signer, store: store, clock: clock, refreshInterval: TimeInterval(c.keyRefreshSeconds),
            credentialLifetime: TimeInterval(c.credentialTTL)
        ) {
            // When the store's active key is a new one (`phone-verify keys rotate`, here or on another
            // replica), the key file is read again: the development key the command wrote, or the
            // PEM the operator installed at PHONE_VERIFY_SIGNING_KEY_FILE. A file that still holds
            // the old key changes nothing; the old key keeps signing and stays published.
            (try? KeyMaterial.signingKey(c)).flatMap { try? JWTSigner(key: $0) }
        }
        let credentials = CredentialIssuer(
            issuer: issuer, audience: c.audience, lifetime: c.credentialTTL, keys: keyRing, random: random)
        let service = VerificationService(
            store: store, parser: LibPhoneNumberParser(), hasher: HMACCodeHasher(key: keys.codeHashKey), sealer: sealer,
            random: random, clock: clock, policy: c.policy,
            composer: TemplateComposer(appName: c.appName, otpDomain: c.otpDomain, androidAppHash: c.androidAppHash, overrides: c.templateOverrides),
            notifier: worker, issuer: credentials,
            protection: AbuseProtection(limits: c.limits, fraud: c.fraud, testNumbers: c.testNumbers), events: metrics)
        var dependencies = APIDependencies(
            service: service, keys: keyRing, issuer: issuer, clock: clock, random: random,
            logger: logger,
            readiness: {
                try store.read { try $0.ping() }
                if keyRing.signingKeyRetired { throw StoreKeyRing.retiredKey }
            },
            clientIP: ClientIPResolver(trustedProxies: c.trustedProxies))
        dependencies.gatewayReadiness = {
            if gateway.circuitStates().allSatisfy({ $0.state == .open }) {
                throw VerifyError(.unavailable, "every SMS gateway's circuit breaker is open")
            }
        }
        dependencies.fraudAdmin = FraudAdmin(store: store, clock: clock, policy: c.fraud)
        dependencies.lockoutAdmin = (store as? any LimitLogAdminStore).map { LockoutAdmin(store: $0, clock: clock, limits: c.limits) }
        if !c.corsOrigins.isEmpty { dependencies.cors = CORSPolicy(origins: Set(c.corsOrigins)) }
        dependencies.receipts = DeliveryReceipts(outbox: store, clock: clock)
        dependencies.metrics = metrics.registry
        dependencies.mfa = MFAService(
            verifications: service, store: store, clock: clock, random: random, issuer: credentials, policy: c.mfa)
        dependencies.sessions = try SessionWiring.verifier(c, issuer: issuer, keys: keyRing, clock: clock, logger: logger)
        dependencies.introspection = SessionWiring.introspector(c, issuer: issuer, keys: keyRing, store: store, clock: clock, random: random)
        dependencies.callbackAuth = GatewayFactory.callbackAuth(c, publicURL: publicURL)
        if let credentials = c.twilioCompatCredentials {
            // The /v2 endpoints need a store that keeps their services and links (SQLite and
            // PostgreSQL both do); with another store they answer 501 with a clear message
            // (docs/TWILIO_COMPAT.md).
            let compatStore = store as? any TwilioCompatStore
            if compatStore == nil {
                logger.warning("the Twilio-compatible API is not available with this store; /v2 answers 501", [("database", opened.description)])
            }
            let compat = TwilioCompatDependencies(
                credentials: credentials, service: compatStore.map {
                    TwilioCompatService(verifications: service, store: $0, customCodeAccounts: c.twilioCompatCustomCodeAccounts)
                },
                baseURL: publicURL)
            dependencies.features.append(TwilioCompatFeature(compat, logger: logger).api)
        }
        if let inbox {
            dependencies.features.append(
                DevInboxFeature(messages: inbox, service: service, random: random, access: DevAccess(exposed: c.devExpose)).api)
        }
        dependencies.apiKeys = c.apiKeys
        dependencies.observabilityNeedsKey = c.mode == .production
        if replacedActiveKey {
            // A replica that read the store just before this activation serves its cached key set
            // for up to a second; credentials signed with the new key wait until it has reread.
            logger.info("a new signing key replaced the active one; serving once other replicas publish it", [("kid", signer.keyID)])
            Thread.sleep(forTimeInterval: StoreKeyRing.forcedRefreshInterval + 0.1)
        }
        late.set(APIResponder(dependencies))
        logger.info("listening", [
            ("address", "\(c.listenHost):\(server.port)"), ("mode", c.mode.rawValue), ("issuer", issuer),
            ("kid", signer.keyID), ("database", opened.description),
        ])
    }

    /// Stops accepting, lets in-flight requests finish (bounded), stops the worker, closes the store.
    public func shutdown(graceSeconds: Double = 10) {
        server?.stopAccepting()
        server?.shutdown(graceSeconds: graceSeconds)
        worker?.stop()
        opened?.close()
        server = nil
        worker = nil
        opened = nil
        logger.info("stopped")
    }

    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
