import API
import PhoneParsing
import Console
import SettingsTable
import Telemetry
import VerifyCore

/// Builds the operator console (docs/OPERATIONS.md, "Console") when `PHONE_VERIFY_CONSOLE` is
/// on: its groups go into the API, its sessions into the keyring so every admin route accepts
/// them (``APIWiring``).
enum ConsoleWiring {
    static func feature(
        _ c: Configuration, store: any AppStore, secrets: Secrets, delivery: DeliveryService, issuer: String,
        verifications: VerificationAdmin?, lockouts: LockoutAdmin?, clock: any Clock, random: any RandomSource, logger: Logger
    ) -> ConsoleFeature {
        let crypto = LibCryptoConsoleCrypto(key: secrets.keys.consoleSessionKey)
        return ConsoleFeature(
            sessions: ConsoleSessions(
                keyring: c.apiKeys, crypto: crypto, clock: clock, random: random, idleTimeout: c.consoleIdleTimeout,
                secureCookie: c.consoleSecureCookie, revocations: SessionRevocations(store: store, clock: clock)),
            crypto: crypto, parser: DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: c.numberRanges),
            verifications: verifications, lockouts: lockouts, factors: store as? any FactorAdminStore,
            operations: operations(c, store: store, delivery: delivery, issuer: issuer), clock: clock, logger: logger)
    }

    static func operations(_ c: Configuration, store: any AppStore, delivery: DeliveryService, issuer: String) -> ConsoleOperations {
        let gateway = delivery.gateway, metrics = delivery.metrics
        let states = gateway.circuitStates()
        var operations = ConsoleOperations(
            circuits: { gateway.circuitStates().map { ($0.gateway, $0.state.rawValue) } }, queue: { try store.queueDepth() },
            deliveryCounts: store as? any DeliveryStatsStore, signingKeys: store,
            // The issuer's default is computed from the listener: show the one in use.
            settings: c.maskedSettings.map { s in
                s.name == Settings.issuer.name && s.value.hasPrefix("default: ") ? (s.name, "default: " + issuer) : s
            },
            fraudHistory: store as? any FraudHistoryStore, challenges: { metrics.challengeCounts() },
            limitLogs: store as? any LimitLogAdminStore, limits: c.limits)
        operations.calls = { seconds in metrics.calls.counts(lastSeconds: seconds).map { ($0.labels.first ?? "", $0.labels.last ?? "", $0.count) } }
        operations.gatewayChannels = Dictionary(states.map { ($0.gateway, $0.channel.rawValue) }, uniquingKeysWith: { a, _ in a })
        operations.log = store as? any VerificationLogStore
        operations.stats = store as? any ConsoleStatsStore
        operations.verification = { id in try store.read { try $0.verification(id: id) } }
        operations.defaultRegion = c.defaultRegion
        return operations
    }
}
