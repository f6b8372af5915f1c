import Telemetry
import VerifyCore

/// The core API's groups. The application includes the ones its configuration and store offer,
/// in this order (the router tries routes in the order they were added).
extension RouteGroup {
    /// Start, read, resend, check and cancel: the hot path. No middleware of its own, so its
    /// requests pass only the global chain (and CORS when origins are configured).
    public static func verifications(_ service: VerificationService, clock: any Clock) -> RouteGroup {
        RouteGroup("/v1/verifications", routes: [VerificationRoutes(service: service, clock: clock)])
    }

    /// JWKS and OpenID discovery; `introspection`: whether the introspection group is included.
    public static func discovery(keys: any KeyRing, issuer: String, introspection: Bool) -> RouteGroup {
        RouteGroup("/.well-known", routes: [DiscoveryRoutes(keys: keys, issuer: issuer, introspection: introspection)])
    }

    /// App Attest's nonces and key attestations, when the `app_attest` challenge provider is on.
    public static func appAttest(_ registry: any AppAttestRegistry, clock: any Clock) -> RouteGroup {
        RouteGroup("/v1/app-attest", routes: [AppAttestRoutes(registry: registry, clock: clock)])
    }

    /// RFC 7662 introspection of credentials, for keys of scope `introspect`.
    public static func introspection(_ introspector: CredentialIntrospector, keys: APIKeyring) -> RouteGroup {
        RouteGroup(
            IntrospectionRoutes.path, routeMiddleware: [ScopeMiddleware(keys, .introspect, readers: nil)],
            routes: [IntrospectionRoutes(introspector: introspector)])
    }

    /// `/healthz` and `/readyz`: two top-level paths, so the group has no prefix.
    public static func health(
        readiness: @escaping @Sendable () throws -> Void, gatewayReadiness: @escaping @Sendable () throws -> Void, keys: APIKeyring,
        reasonsNeedKey: Bool
    ) -> RouteGroup {
        RouteGroup(
            "", routes: [HealthRoutes(readiness: readiness, gatewayReadiness: gatewayReadiness, keys: keys, reasonsNeedKey: reasonsNeedKey)])
    }

    /// The fraud guard's verdicts and overrides: `fraud` to change, `fraud` or `read` to list.
    public static func fraudAdmin(_ admin: FraudAdmin, keys: APIKeyring) -> RouteGroup {
        RouteGroup("/v1/admin/fraud", routeMiddleware: [ScopeMiddleware(keys, .fraud)], routes: [FraudAdminRoutes(fraud: admin)])
    }

    /// Users' factors for support staff: `factors` to change, `factors` or `read` to list.
    public static func factorAdmin(_ mfa: MFAService, keys: APIKeyring) -> RouteGroup {
        RouteGroup("/v1/admin/users", routeMiddleware: [ScopeMiddleware(keys, .factors)], routes: [FactorAdminRoutes(mfa: mfa)])
    }

    /// Failed-check lockouts: `lockouts` to lift, `lockouts` or `read` to list.
    public static func lockoutAdmin(_ admin: LockoutAdmin, keys: APIKeyring) -> RouteGroup {
        RouteGroup("/v1/admin/lockouts", routeMiddleware: [ScopeMiddleware(keys, .lockouts)], routes: [LockoutRoutes(admin: admin)])
    }

    /// Lifting a number's send quota: scope `lockouts`.
    public static func limitsAdmin(_ admin: LimitsAdmin, keys: APIKeyring) -> RouteGroup {
        RouteGroup("/v1/admin/limits", routeMiddleware: [ScopeMiddleware(keys, .lockouts)], routes: [LimitsRoutes(admin: admin)])
    }

    /// A number's recent verifications for support: scope `read`.
    public static func verificationAdmin(_ admin: VerificationAdmin, keys: APIKeyring) -> RouteGroup {
        RouteGroup(
            "/v1/admin/verifications", routeMiddleware: [ScopeMiddleware(keys, .read)],
            routes: [VerificationAdminRoutes(admin: admin, keys: keys)])
    }

    /// The credential signing keys and their states, as `phone-verify keys list`: scope `read`.
    public static func signingKeys(_ store: any SigningKeyStore, keys: APIKeyring, clock: any Clock) -> RouteGroup {
        RouteGroup(
            "/v1/admin/signing-keys", routeMiddleware: [ScopeMiddleware(keys, .read)],
            routes: [SigningKeyRoutes(store: store, clock: clock)])
    }

    /// Enrolment, factors and challenges; they answer 503 until a session verifier is configured.
    public static func mfa(_ mfa: MFAService, sessions: (any SessionVerifier)?, clock: any Clock) -> RouteGroup {
        RouteGroup("/v1/mfa", routes: [MFARoutes(mfa: mfa, sessions: sessions ?? UnconfiguredSessions(), clock: clock)])
    }

    /// Vendors' delivery receipts and channel callbacks: each vendor's folder (Sources/Vendors)
    /// brings its routes, each checked by that vendor's signature.
    public static func webhooks(_ vendorRoutes: [any RouteCollection]) -> RouteGroup {
        RouteGroup("/v1/webhooks", routes: vendorRoutes)
    }

    /// The embedded docs/openapi.json.
    public static func openAPI() -> RouteGroup {
        RouteGroup("/openapi.json", routes: [OpenAPIRoutes()])
    }

    /// Prometheus metrics; `needsKey` (production): scope `metrics` only, `read` is not enough.
    public static func metrics(_ registry: MetricsRegistry, keys: APIKeyring, needsKey: Bool) -> RouteGroup {
        RouteGroup(
            "/metrics", routeMiddleware: needsKey ? [ScopeMiddleware(keys, .metrics, readers: nil)] : [],
            routes: [MetricsRoutes(metrics: registry)])
    }

    /// Cross-origin access to the endpoints a browser client calls (``CORSPolicy``): middleware
    /// only, for every path under them, routed or not.
    public static func cors(_ policy: CORSPolicy, logger: Logger) -> [RouteGroup] {
        let middleware = CORSMiddleware(policy: policy, errors: ErrorMiddleware(logger: logger))
        return ["/v1/verifications", "/v1/mfa", "/v1/app-attest"].map { RouteGroup($0, middleware: [middleware]) }
    }

    /// The throttle of failed API keys (``AuthThrottleMiddleware``) on every path that takes
    /// them, routed or not: list it before the groups under these prefixes whose middleware
    /// should run inside it (the console's audit).
    public static func keyThrottle(_ throttle: AuthThrottle, logger: Logger) -> [RouteGroup] {
        let middleware = AuthThrottleMiddleware(throttle, logger: logger)
        return ["/v1/admin", IntrospectionRoutes.path, "/metrics"].map { RouteGroup($0, middleware: [middleware]) }
    }
}
