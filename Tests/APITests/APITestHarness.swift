import API
import Console
import DevInbox
import Foundation
import HTTPMessages
import Telemetry
import VerifyCore
import VerifyTesting

/// The API on fakes, called in-process: no sockets.
struct APITestHarness {
    let t: TestService
    let api: APIResponder
    let logs = CapturingLogHandler()
    let inbox = MemoryDevLog()

    init(
        policy: VerificationPolicy = VerificationPolicy(), protection: AbuseProtection = AbuseProtection(), dev: Bool = true,
        trustedProxies: [CIDR] = [], ready: Bool = true, adminKey: String? = nil,
        redemptions: (any CredentialRedemptionStore)? = nil, cors: CORSPolicy? = nil, gatewaysUp: Bool = true,
        apiKeys: APIKeyring? = nil, production: Bool = false, appAttest: (any AppAttestRegistry)? = nil,
        console: Bool = false, consoleIdleTimeout: Int = 900, consoleSecureCookie: Bool = false, authThrottle: Bool = false,
        consoleRegion: String? = nil, consoleCalls: [(gateway: String, outcome: String, count: Int)] = []
    ) {
        t = TestService(policy: policy, protection: protection)
        let logger = Logger(handler: logs, minimumLevel: .debug)
        let verificationAdmin = VerificationAdmin(store: t.store, clock: t.clock)
        let lockoutAdmin = LockoutAdmin(store: t.store, clock: t.clock, limits: protection.limiter.limits)
        var keys = apiKeys ?? APIKeyring(admin: adminKey.map { [$0] } ?? [])
        let console = console ? Self.console(t, keys: keys, verifications: verificationAdmin, lockouts: lockoutAdmin, logger: logger,
            idleTimeout: consoleIdleTimeout, secureCookie: consoleSecureCookie, region: consoleRegion, calls: consoleCalls, limits: protection.limiter.limits) : nil
        keys.sessions = console?.sessions
        let mfa = MFAService(
            verifications: t.service, store: t.store, clock: t.clock, random: t.random,
            issuer: CredentialIssuer(issuer: "http://issuer.test", audience: "main-auth", keys: FakeSigner(), random: t.random))
        let introspector = CredentialIntrospector(
            verifier: FakeCredentialVerifier(clock: t.clock), redemptions: redemptions ?? t.store, random: t.random)
        var groups: [RouteGroup] = [
            .verifications(t.service, clock: t.clock), .discovery(keys: FakeSigner(), issuer: "http://issuer.test", introspection: true),
        ]
        if let appAttest { groups.append(.appAttest(appAttest, clock: t.clock)) }
        groups += [
            .introspection(introspector, keys: keys),
            .health(
                readiness: { if !ready { throw VerifyError(.unavailable, "store down") } },
                gatewayReadiness: { if !gatewaysUp { throw VerifyError(.unavailable, "every SMS gateway's circuit breaker is open") } },
                keys: keys, reasonsNeedKey: production),
            .fraudAdmin(FraudAdmin(store: t.store, clock: t.clock, policy: protection.fraud.policy), keys: keys), .factorAdmin(mfa, keys: keys),
            .lockoutAdmin(lockoutAdmin, keys: keys), .limitsAdmin(LimitsAdmin(store: t.store), keys: keys),
            .verificationAdmin(verificationAdmin, keys: keys), .signingKeys(FakeSigningKeys(now: t.clock.now()), keys: keys, clock: t.clock),
            .mfa(mfa, sessions: TokenTable(clock: t.clock), clock: t.clock),
        ]
        let metrics = MetricsRegistry()
        groups += [.openAPI(), .metrics(metrics, keys: keys, needsKey: production)]
        if let cors { groups += RouteGroup.cors(cors, logger: logger) }
        let throttle = authThrottle ? AuthThrottle(store: t.store, clock: t.clock) : nil
        if let throttle { groups += RouteGroup.keyThrottle(throttle, logger: logger) }
        if dev { groups.append(DevInboxFeature(messages: inbox, service: t.service, random: t.random).group) }
        if let console { groups += console.groups(keys: keys, throttle: throttle) }
        api = APIResponder(
            APIDependencies(
                random: t.random, logger: logger, clientIP: ClientIPResolver(trustedProxies: trustedProxies), metrics: metrics, groups: groups))
    }

    static func console(
        _ t: TestService, keys: APIKeyring, verifications: VerificationAdmin, lockouts: LockoutAdmin, logger: Logger, idleTimeout: Int,
        secureCookie: Bool, region: String?, calls: [(gateway: String, outcome: String, count: Int)], limits: RateLimits
    ) -> ConsoleFeature {
        ConsoleFeature(
            sessions: ConsoleSessions(
                keyring: keys, crypto: FakeConsoleCrypto(), clock: t.clock, random: t.random, idleTimeout: idleTimeout,
                secureCookie: secureCookie, revocations: SessionRevocations(store: t.store, clock: t.clock)),
            crypto: FakeConsoleCrypto(), parser: DeclaredRangesParser(inner: FakePhoneParser(), ranges: []),
            verifications: verifications, lockouts: lockouts, factors: t.store,
            operations: ConsoleOperations(
                circuits: { [("twilio", "closed")] }, queue: { (0, nil) }, deliveryCounts: t.store, signingKeys: nil,
                settings: [("PHONE_VERIFY_CODE_SECRET", "(set, 64 characters)")], fraudHistory: t.store,
                challenges: { [("turnstile", "asked", 3), ("turnstile", "passed", 2)] },
                limitLogs: t.store, limits: limits, log: t.store, stats: t.store, defaultRegion: region,
                verification: { [store = t.store] id in try store.read { try $0.verification(id: id) } },
                calls: { _ in calls }),
            clock: t.clock, logger: logger)
    }

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let json: JSONValue
        var errorCode: String? { json["error"]?["code"]?.stringValue }
    }

    @discardableResult
    func call(
        _ method: String, _ path: String, json: String? = nil, form: String? = nil, headers: [(String, String)] = [],
        query: [String: String] = [:], peer: String = "127.0.0.1"
    ) -> Reply {
        var h = HTTPHeaders(headers)
        if json != nil && !h.contains("Content-Type") { h.add("Content-Type", "application/json") }
        if form != nil && !h.contains("Content-Type") { h.add("Content-Type", "application/x-www-form-urlencoded") }
        let response = api.respond(to: HTTPRequest(
            method: method, path: path, query: query, headers: h, body: Array((json ?? form ?? "").utf8), remoteAddress: peer))
        let body = response.bodyBytes
        let parsed = body.isEmpty ? JSONValue.null : ((try? JSONValue.parse(body)) ?? .string(String(decoding: body, as: UTF8.self)))
        return Reply(status: response.status, headers: response.headers, json: parsed)
    }

    func start(_ phone: String = "+15555550123") -> Reply {
        call("POST", "/v1/verifications", json: #"{"phone_number":"\#(phone)"}"#)
    }
}

/// Session tokens for API tests: "alice", "bob", "alice-stepped" (fresh aal2), "expired" (refused).
struct TokenTable: SessionVerifier {
    let clock: any Clock
    func verify(_ token: String) throws -> Principal {
        switch token {
        case "alice": return Principal(subject: "user-alice", sessionID: "s1", authenticationMethods: ["pwd"], authTime: clock.now())
        case "bob": return Principal(subject: "user-bob", sessionID: "s2", authenticationMethods: ["pwd"], authTime: clock.now())
        case "alice-stepped":
            return Principal(subject: "user-alice", sessionID: "s1", authenticationMethods: ["pwd", "sms", "mfa"], authTime: clock.now(), acr: "aal2", isStepUpCredential: true)
        default: throw VerifyError(.unauthenticated, "invalid token")
        }
    }
}

/// A DevMessageLog for API tests.
final class MemoryDevLog: DevMessageLog, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [DevMessage] = []
    func record(_ message: DevMessage) { lock.lock(); items.append(message); lock.unlock() }
    func messages(to phoneNumber: String?, limit: Int) -> [DevMessage] {
        lock.lock()
        defer { lock.unlock() }
        return Array(items.reversed().filter { phoneNumber == nil || $0.to == phoneNumber }.prefix(limit))
    }
}
