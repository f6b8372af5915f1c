import API
import Console
import Credentials
import Crypto
import PhoneParsing
import DevInbox
import Gateways
import Telemetry
import TwilioCompatAPI
import VerifyCore

/// Builds the domain services and the API's route groups from the started parts: the core API's
/// groups, each included when the configuration and the store offer its part, then the features
/// the configuration turns on (Twilio compatibility, the dev inbox, the console).
enum APIWiring {
    static func dependencies(
        _ c: Configuration, store opened: StoreService, secrets: Secrets, listener: HTTPListenerService,
        delivery: DeliveryService, keyRing: StoreKeyRing, clock: any Clock, random: any RandomSource, logger: Logger
    ) throws -> APIDependencies {
        let store = opened.store, issuer = listener.issuer
        let credentials = CredentialIssuer(
            issuer: issuer, audience: c.audience, lifetime: c.credentialTTL, keys: keyRing, random: random)
        let service = try verificationService(
            c, store: store, secrets: secrets, delivery: delivery, credentials: credentials, clock: clock, random: random, logger: logger)
        let verificationAdmin = (store as? any VerificationAdminStore).map { VerificationAdmin(store: $0, clock: clock) }
        let lockoutAdmin = (store as? any LimitLogAdminStore).map { LockoutAdmin(store: $0, clock: clock, limits: c.limits) }
        let throttle = AuthThrottle(store: store, clock: clock)
        var keys = c.apiKeys
        // The console's sessions stand in for keys on every admin route: plugged in before any
        // group takes the keyring.
        let console = c.console
            ? ConsoleWiring.feature(
                c, store: store, secrets: secrets, delivery: delivery, issuer: issuer, verifications: verificationAdmin,
                lockouts: lockoutAdmin, clock: clock, random: random, logger: logger)
            : nil
        keys.sessions = console?.sessions
        let mfa = MFAService(verifications: service, store: store, clock: clock, random: random, issuer: credentials, policy: c.mfa)
        let introspector = SessionWiring.introspector(c, issuer: issuer, keys: keyRing, store: store, clock: clock, random: random)
        let needsKey = c.mode == .production

        var groups: [RouteGroup] = [
            .verifications(service, clock: clock), .discovery(keys: keyRing, issuer: issuer, introspection: introspector != nil),
        ]
        if let registry = ChallengeFactory.appAttestRegistry(service.challenges) { groups.append(.appAttest(registry, clock: clock)) }
        if let introspector { groups.append(.introspection(introspector, keys: keys)) }
        groups.append(
            .health(
                readiness: { try readiness(store: store, keyRing: keyRing) }, gatewayReadiness: gatewayReadiness(delivery.gateway),
                keys: keys, reasonsNeedKey: needsKey))
        groups += [.fraudAdmin(FraudAdmin(store: store, clock: clock, policy: c.fraud), keys: keys), .factorAdmin(mfa, keys: keys)]
        if let lockoutAdmin { groups.append(.lockoutAdmin(lockoutAdmin, keys: keys)) }
        if let limits = store as? any LimitLogAdminStore { groups.append(.limitsAdmin(LimitsAdmin(store: limits), keys: keys)) }
        if let verificationAdmin { groups.append(.verificationAdmin(verificationAdmin, keys: keys)) }
        groups.append(.signingKeys(store, keys: keys, clock: clock))
        groups.append(.mfa(mfa, sessions: try SessionWiring.verifier(c, issuer: issuer, keys: keyRing, clock: clock, logger: logger), clock: clock))
        let receipts = DeliveryReceipts(outbox: store, clock: clock, eventRecorder: delivery.eventRecorder, sink: delivery.metrics)
        groups.append(.webhooks(GatewayFactory.callbackRoutes(c, receipts: receipts, publicURL: listener.publicURL, clock: clock)))
        groups += [.openAPI(), .metrics(delivery.metrics.registry, keys: keys, needsKey: needsKey)]
        if !c.corsOrigins.isEmpty { groups += RouteGroup.cors(CORSPolicy(origins: Set(c.corsOrigins)), logger: logger) }
        groups += RouteGroup.keyThrottle(throttle, logger: logger)
        if let compat = twilioCompat(c, store: opened, service: service, baseURL: listener.publicURL, throttle: throttle, logger: logger) {
            groups.append(compat)
        }
        if let inbox = delivery.devInbox {
            groups.append(DevInboxFeature(messages: inbox, service: service, random: random, access: DevAccess(exposed: c.devExpose)).group)
        }
        if let console { groups += console.groups(keys: keys, throttle: throttle) }
        return APIDependencies(
            random: random, logger: logger, clientIP: ClientIPResolver(trustedProxies: c.trustedProxies), metrics: delivery.metrics.registry,
            groups: groups)
    }

    /// Ready when the store answers and the signing key is not retired.
    static func readiness(store: any AppStore, keyRing: StoreKeyRing) throws {
        try store.read { try $0.ping() }
        if keyRing.signingKeyRetired { throw StoreKeyRing.retiredKey }
    }

    /// Not ready when SMS can send nothing. A WhatsApp or voice vendor's outage is not a reason to
    /// take the replica (and its SMS) out of the load balancer: the metrics and alerts report it,
    /// and `auto` falls back to SMS.
    static func gatewayReadiness(_ gateway: ChannelRouter) -> @Sendable () throws -> Void {
        {
            let sms = gateway.circuitStates().filter { $0.channel == .sms }
            if !sms.isEmpty && sms.allSatisfy({ $0.state == .open }) {
                throw VerifyError(.unavailable, "every SMS gateway's circuit breaker is open")
            }
        }
    }

    /// The native API's domain service: parsing, hashing, sealing, templates, abuse protection,
    /// challenges and events, over the store and the delivery worker.
    static func verificationService(
        _ c: Configuration, store: any AppStore, secrets: Secrets, delivery: DeliveryService, credentials: CredentialIssuer,
        clock: any Clock, random: any RandomSource, logger: Logger
    ) throws -> VerificationService {
        return VerificationService(
            store: store, parser: DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: c.numberRanges), hasher: HMACCodeHasher(key: secrets.keys.codeHashKey), sealer: secrets.sealer,
            random: random, clock: clock, policy: c.policy,
            composer: TemplateComposer(appName: c.appName, otpDomain: c.otpDomain, androidAppHash: c.androidAppHash, overrides: c.templateOverrides),
            notifier: delivery.worker, issuer: credentials,
            protection: AbuseProtection(limits: c.limits, fraud: c.fraud, testNumbers: c.testNumbers), events: delivery.metrics,
            challenges: try ChallengeFactory.gate(
                ChallengeFactory.Parts(
                    configuration: c, ledger: store, clock: clock, random: random, nonceKey: secrets.keys.challengeNonceKey, logger: logger),
                events: delivery.metrics),
            challengePolicy: c.challenges.policy, eventRecorder: delivery.eventRecorder)
    }

    /// The Twilio-compatible API (docs/TWILIO_COMPAT.md) when its credentials are set.
    static func twilioCompat(
        _ c: Configuration, store opened: StoreService, service: VerificationService, baseURL: String, throttle: AuthThrottle,
        logger: Logger
    ) -> RouteGroup? {
        guard let credentials = c.twilioCompatCredentials else { return nil }
        let store = opened.store
        // The /v2 endpoints need a store that keeps their services and links (SQLite and
        // PostgreSQL both do); with another store they answer 501 with a clear message
        // (docs/TWILIO_COMPAT.md).
        let compatStore = store as? any TwilioCompatStore
        if compatStore == nil {
            logger.warning("the Twilio-compatible API is not available with this store; /v2 answers 501", [("database", opened.opened.description)])
        }
        let compat = TwilioCompatDependencies(
            credentials: credentials, service: compatStore.map {
                TwilioCompatService(verifications: service, store: $0, customCodeAccounts: c.twilioCompatCustomCodeAccounts)
            },
            baseURL: baseURL)
        return TwilioCompatFeature(compat, logger: logger, throttle: throttle).group
    }
}
