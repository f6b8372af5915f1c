import API
import Telemetry
import VerifyCore

/// The operator console (`/console`, docs/OPERATIONS.md "Console") as one feature: its pages,
/// the admin JSON routes only it needs (``ConsoleNumberRoutes``, ``ConsoleOperationsRoutes``, ``ConsoleFraudRoutes``), and the middleware that sets
/// its headers, renews its sessions and audits admin actions. The application also hands
/// ``sessions`` to the API's keyring, so every admin route accepts the console's session
/// (with its CSRF token for changes) as well as a bearer key.
public struct ConsoleFeature: Sendable {
    public let sessions: ConsoleSessions
    let crypto: any ConsoleCrypto
    let parser: DeclaredRangesParser
    let verifications: VerificationAdmin?
    let lockouts: LockoutAdmin?
    let factors: (any FactorAdminStore)?
    let operations: ConsoleOperations
    let clock: any Clock
    let logger: Logger

    public init(
        sessions: ConsoleSessions, crypto: any ConsoleCrypto, parser: DeclaredRangesParser, verifications: VerificationAdmin?,
        lockouts: LockoutAdmin?, factors: (any FactorAdminStore)?, operations: ConsoleOperations = ConsoleOperations(),
        clock: any Clock, logger: Logger
    ) {
        self.operations = operations
        self.clock = clock
        self.sessions = sessions
        self.crypto = crypto
        self.parser = parser
        self.verifications = verifications
        self.lockouts = lockouts
        self.factors = factors
        self.logger = logger
    }

    /// The routes and middleware for ``APIDependencies/features``. `keys` is the API's keyring
    /// with ``sessions`` plugged in.
    public func api(keys: APIKeyring) -> APIFeature {
        APIFeature(
            routes: [
                ConsoleRoutes(sessions: sessions, parser: parser, defaultRegion: operations.defaultRegion, logger: logger),
                ConsoleNumberRoutes(
                    keys: keys, parser: parser, defaultRegion: operations.defaultRegion, verifications: verifications, lockouts: lockouts, factors: factors,
                    quota: operations.limitLogs.map { ConsoleSendQuota(store: $0, limits: operations.limits, clock: clock) }),
                ConsoleOperationsRoutes(keys: keys, operations: operations, clock: clock),
                ConsoleFraudRoutes(keys: keys, operations: operations, clock: clock),
                ConsoleLogRoutes(keys: keys, operations: operations, parser: parser, clock: clock),
            ],
            middleware: [ConsoleMiddleware(sessions: sessions, crypto: crypto, logger: logger)])
    }
}
