import API
import Adapters
import DevInbox
import Gateways
import Telemetry
import TwilioCompatAPI
import VerifyCore

/// Builds the domain services and the API's dependencies from the started parts, and plugs in
/// the features the configuration turns on (Twilio compatibility, the dev inbox).
enum APIWiring {
    static func dependencies(
        _ c: Configuration, store opened: StoreService, secrets: Secrets, listener: HTTPListenerService,
        delivery: DeliveryService, keyRing: StoreKeyRing, clock: any Clock, random: any RandomSource, logger: Logger
    ) throws -> APIDependencies {
        let store = opened.store, issuer = listener.issuer, gateway = delivery.gateway
        let credentials = CredentialIssuer(
            issuer: issuer, audience: c.audience, lifetime: c.credentialTTL, keys: keyRing, random: random)
        let service = try verificationService(
            c, store: store, secrets: secrets, delivery: delivery, credentials: credentials, clock: clock, random: random, logger: logger)
        var dependencies = APIDependencies(
            service: service, keys: keyRing, issuer: issuer, clock: clock, random: random,
            logger: logger,
            readiness: {
                try store.read { try $0.ping() }
                if keyRing.signingKeyRetired { throw StoreKeyRing.retiredKey }
            },
            clientIP: ClientIPResolver(trustedProxies: c.trustedProxies))
        dependencies.gatewayReadiness = {
            // Not ready when SMS can send nothing. A WhatsApp or voice vendor's outage is not a
            // reason to take the replica (and its SMS) out of the load balancer: the metrics and
            // alerts report it, and `auto` falls back to SMS.
            let sms = gateway.circuitStates().filter { $0.channel == .sms }
            if !sms.isEmpty && sms.allSatisfy({ $0.state == .open }) {
                throw VerifyError(.unavailable, "every SMS gateway's circuit breaker is open")
            }
        }
        dependencies.fraudAdmin = FraudAdmin(store: store, clock: clock, policy: c.fraud)
        dependencies.authThrottle = AuthThrottle(store: store, clock: clock)
        dependencies.verificationAdmin = (store as? any VerificationAdminStore).map { VerificationAdmin(store: $0, clock: clock) }
        dependencies.lockoutAdmin = (store as? any LimitLogAdminStore).map { LockoutAdmin(store: $0, clock: clock, limits: c.limits) }
        dependencies.limitsAdmin = (store as? any LimitLogAdminStore).map { LimitsAdmin(store: $0) }
        if !c.corsOrigins.isEmpty { dependencies.cors = CORSPolicy(origins: Set(c.corsOrigins)) }
        dependencies.metrics = delivery.metrics.registry
        dependencies.mfa = MFAService(
            verifications: service, store: store, clock: clock, random: random, issuer: credentials, policy: c.mfa)
        dependencies.sessions = try SessionWiring.verifier(c, issuer: issuer, keys: keyRing, clock: clock, logger: logger)
        dependencies.introspection = SessionWiring.introspector(c, issuer: issuer, keys: keyRing, store: store, clock: clock, random: random)
        let receipts = DeliveryReceipts(outbox: store, clock: clock, eventRecorder: delivery.eventRecorder, sink: delivery.metrics)
        dependencies.features.append(
            APIFeature(routes: GatewayFactory.callbackRoutes(c, receipts: receipts, publicURL: listener.publicURL, clock: clock)))
        if let compat = twilioCompat(c, store: opened, service: service, baseURL: listener.publicURL, logger: logger) {
            dependencies.features.append(compat)
        }
        if let inbox = delivery.devInbox {
            dependencies.features.append(
                DevInboxFeature(messages: inbox, service: service, random: random, access: DevAccess(exposed: c.devExpose)).api)
        }
        dependencies.appAttest = ChallengeFactory.appAttestRegistry(service.challenges)
        dependencies.apiKeys = c.apiKeys
        if c.console {
            ConsoleWiring.add(
                to: &dependencies, c, store: store, secrets: secrets, delivery: delivery, issuer: issuer, clock: clock, random: random, logger: logger)
        }
        dependencies.observabilityNeedsKey = c.mode == .production
        return dependencies
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
        _ c: Configuration, store opened: StoreService, service: VerificationService, baseURL: String, logger: Logger
    ) -> APIFeature? {
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
        return TwilioCompatFeature(compat, logger: logger).api
    }
}
