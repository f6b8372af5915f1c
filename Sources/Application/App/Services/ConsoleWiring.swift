import API
import Adapters
import Console
import Telemetry
import VerifyCore

/// Plugs the operator console (docs/OPERATIONS.md, "Console") into the API: its feature, and its
/// sessions into the keyring so every admin route accepts them. Skipped with
/// `PHONE_VERIFY_CONSOLE=false`.
enum ConsoleWiring {
    static func add(
        to dependencies: inout APIDependencies, _ c: Configuration, store: any AppStore, secrets: SecretsService,
        delivery: DeliveryService, clock: any Clock, random: any RandomSource, logger: Logger
    ) {
        let gateway = delivery.gateway!, metrics = delivery.metrics
        let crypto = LibCryptoConsoleCrypto(key: secrets.keys.consoleSessionKey)
        let console = ConsoleFeature(
            sessions: ConsoleSessions(
                keyring: c.apiKeys, crypto: crypto, clock: clock, random: random, idleTimeout: c.consoleIdleTimeout,
                secureCookie: c.consoleSecureCookie, revocations: SessionRevocations(store: store, clock: clock)),
            crypto: crypto, parser: DeclaredRangesParser(inner: LibPhoneNumberParser(), ranges: c.numberRanges),
            verifications: dependencies.verificationAdmin, lockouts: dependencies.lockoutAdmin, factors: store as? any FactorAdminStore,
            operations: ConsoleOperations(
                circuits: { gateway.circuitStates().map { ($0.channel == .sms ? $0.gateway : "\($0.gateway) (\($0.channel.rawValue))", $0.state.rawValue) } }, queue: { try store.queueDepth() },
                deliveryCounts: store as? any DeliveryStatsStore, signingKeys: store, settings: c.maskedSettings,
                fraudHistory: store as? any FraudHistoryStore, challenges: { metrics.challengeCounts() },
                limitLogs: store as? any LimitLogAdminStore, limits: c.limits),
            clock: clock, logger: logger)
        dependencies.apiKeys.sessions = console.sessions
        dependencies.features.append(console.api(keys: dependencies.apiKeys))
    }
}
