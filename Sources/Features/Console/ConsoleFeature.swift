import API
import Telemetry
import VerifyCore

/// The operator console (`/console`, docs/OPERATIONS.md "Console") as route groups: its pages,
/// the admin JSON routes only it needs (``ConsoleNumberRoutes``, ``ConsoleOperationsRoutes``,
/// ``ConsoleFraudRoutes``, ``ConsoleLogRoutes``), and the middleware that sets its headers, renews
/// its sessions and audits admin actions. The application also hands
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

    /// The console's groups for ``APIDependencies/groups``. `keys` is the API's keyring with
    /// ``sessions`` plugged in; `throttle`: the sign-in's (docs/OPERATIONS.md, "Sign-in
    /// throttle"). The `/v1/admin` group's middleware audits every admin route, the core API's
    /// too: list these groups after the core API's.
    public func groups(keys: APIKeyring, throttle: AuthThrottle?) -> [RouteGroup] {
        let pages = ConsoleMiddleware(area: .pages, sessions: sessions, crypto: crypto, logger: logger)
        let admin = ConsoleMiddleware(area: .admin, sessions: sessions, crypto: crypto, logger: logger)
        var groups = [
            RouteGroup(
                "/console", middleware: [pages],
                routes: [ConsoleRoutes(sessions: sessions, parser: parser, defaultRegion: operations.defaultRegion, logger: logger)]),
            // The console's own admin JSON: reads, scope `read`.
            RouteGroup(
                "/v1/admin", middleware: [admin], routeMiddleware: [ScopeMiddleware(keys, .read)],
                routes: [
                    ConsoleNumberRoutes(
                        keys: keys, parser: parser, defaultRegion: operations.defaultRegion, verifications: verifications,
                        lockouts: lockouts, factors: factors,
                        quota: operations.limitLogs.map { ConsoleSendQuota(store: $0, limits: operations.limits, clock: clock) }),
                    ConsoleOperationsRoutes(operations: operations, clock: clock),
                    ConsoleLogRoutes(keys: keys, operations: operations, parser: parser, clock: clock),
                ]),
            RouteGroup(
                "/v1/admin/fraud-history", routeMiddleware: [ScopeMiddleware(keys, .fraud)],
                routes: [ConsoleFraudRoutes(operations: operations, clock: clock)]),
        ]
        if let throttle {
            groups.append(RouteGroup("/console/session", middleware: [AuthThrottleMiddleware(throttle, logger: logger, counting: .signIn)]))
        }
        return groups
    }
}
