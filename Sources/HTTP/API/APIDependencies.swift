import Telemetry
import VerifyCore

/// Everything the API needs, passed in by the application.
public struct APIDependencies: Sendable {
    public var service: VerificationService
    public var keys: any KeyRing
    public var issuer: String
    public var clock: any Clock
    public var random: any RandomSource
    public var logger: Logger
    /// Readiness probe: throws with a reason when the service should not get traffic.
    public var readiness: @Sendable () throws -> Void
    /// The gateways' part of readiness (`/readyz`, unless asked with `gateways=false`).
    public var gatewayReadiness: @Sendable () throws -> Void = {}
    public var clientIP: ClientIPResolver
    /// Operators' fraud controls; admin routes exist only when set.
    public var fraudAdmin: FraudAdmin?
    /// Operators' failed-check lockouts (`/v1/admin/lockouts`); no routes when nil.
    public var lockoutAdmin: LockoutAdmin?
    /// Operators lift a number's send quota (`/v1/admin/limits`); no route when nil.
    public var limitsAdmin: LimitsAdmin?
    /// Operators' view of a number's verifications (`/v1/admin/verifications`); no route when nil.
    public var verificationAdmin: VerificationAdmin?
    /// The server-to-server API keys and their scopes (admin, introspection, metrics routes).
    public var apiKeys = APIKeyring()
    /// Per-IP backoff after failed console sign-ins and unknown bearer keys; nil: none.
    public var authThrottle: AuthThrottle?
    /// Production: `/metrics` needs a key of scope `metrics`, and `/readyz` gives its reasons
    /// only to a key of scope `metrics` or `read` (per-country counts and store errors are not
    /// for anyone who can reach the port). Development leaves both open.
    public var observabilityNeedsKey = false
    /// Metrics registry; `/metrics` serves it and the chain counts requests when set.
    public var metrics: MetricsRegistry?
    /// MFA; its routes answer 503 until a session verifier is configured.
    public var mfa: MFAService?
    public var sessions: (any SessionVerifier)?
    /// RFC 7662 introspection of credentials (admin API key); no route when nil.
    public var introspection: CredentialIntrospector?
    /// App Attest nonces and key attestation (`/v1/app-attest/…`); no routes when nil (the
    /// `app_attest` challenge provider is off).
    public var appAttest: (any AppAttestRegistry)?
    /// Browser origins allowed to call the client endpoints directly; none when nil.
    public var cors: CORSPolicy?
    /// Feature modules (the Twilio-compatible `/v2`, the dev inbox): their routes and middleware.
    public var features: [APIFeature] = []

    public init(
        service: VerificationService, keys: any KeyRing, issuer: String, clock: any Clock, random: any RandomSource,
        logger: Logger, readiness: @escaping @Sendable () throws -> Void, clientIP: ClientIPResolver = ClientIPResolver()
    ) {
        self.service = service
        self.keys = keys
        self.issuer = issuer
        self.clock = clock
        self.random = random
        self.logger = logger
        self.readiness = readiness
        self.clientIP = clientIP
    }
}
