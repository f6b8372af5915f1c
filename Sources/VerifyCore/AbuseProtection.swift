/// Everything that stands between an attacker and the SMS bill: rate limits, the adaptive fraud
/// guard and test numbers.
public struct AbuseProtection: Sendable {
    public var limiter: RateLimiter
    public var fraud: FraudGuard
    public var testNumbers: TestNumbers

    public init(limits: RateLimits = .defaults, fraud: FraudPolicy = FraudPolicy(), testNumbers: TestNumbers = TestNumbers()) {
        self.limiter = RateLimiter(limits: limits)
        self.fraud = FraudGuard(policy: fraud)
        self.testNumbers = testNumbers
    }

    /// No limits, no fraud guard (tests of other behaviour, benchmarks of the bare flow).
    public static var off: AbuseProtection {
        var fraud = FraudPolicy()
        fraud.enabled = false
        return AbuseProtection(limits: .none, fraud: fraud)
    }

    /// The client identity of calls a trusted server makes for a device it does not name (the
    /// Twilio-compatible API without `DeviceIp`): per-client-IP limits do not apply to it.
    public static let serverCaller = "server-caller"

    /// The send subjects of one send to `phone` from `client`.
    func sendSubjects(phone: String, client: String) -> [RateLimiter.Subject] {
        var subjects: [RateLimiter.Subject] = [.init(.phoneSend, phone)]
        if client != Self.serverCaller { subjects.append(.init(.ipSend, client.isEmpty ? "unknown" : client)) }
        subjects += [.init(.prefixSend, limiter.limits.prefix(of: phone)), .init(.globalSend, "all")]
        return subjects
    }

    /// The check subjects of one check from `client`.
    func checkSubjects(client: String) -> [RateLimiter.Subject] {
        client == Self.serverCaller ? [] : [.init(.ipCheck, client.isEmpty ? "unknown" : client)]
    }

    /// Rate-limit log keys a send to `phone` from `client` reads (lockout included).
    func sendLimitKeys(phone: String, client: String) -> [String] {
        limiter.keys(sendSubjects(phone: phone, client: client) + [RateLimiter.Subject(.phoneFailedCheck, phone)])
    }

    func fraudKeys(phone: String, region: String) -> [String] {
        FraudGuard.keys(prefix: limiter.limits.prefix(of: phone), region: region)
    }
}
