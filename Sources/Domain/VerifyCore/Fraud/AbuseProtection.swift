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

    /// A trusted server caller acting for `account` (a Twilio-compatible account SID): still no
    /// per-IP limits, but its wrong codes lock only that account's checks of a number, never
    /// another tenant's (docs/ABUSE.md, "Failed checks").
    public static func serverCaller(account: String) -> String { serverCaller + ":" + account }

    package static func isServerCaller(_ client: String) -> Bool {
        client == serverCaller || client.hasPrefix(serverCaller + ":")
    }

    /// The Twilio-compatible account a requester (`server-caller:ACCOUNT`) acts for: a tenant,
    /// whose traffic the fraud guard judges on keys of its own (docs/ABUSE.md, "A tenant is one
    /// client").
    static func tenant(ofRequester requester: String?) -> String? {
        guard let requester, requester.hasPrefix(serverCaller + ":") else { return nil }
        let account = requester.dropFirst(serverCaller.count + 1)
        return account.isEmpty ? nil : String(account)
    }

    /// The tenant of a client identity: a server caller's account, or the account of a device it
    /// names (`ACCOUNT/ip`, as the Twilio-compatible API namespaces `DeviceIp`).
    static func tenant(ofClient client: String) -> String? {
        if let account = tenant(ofRequester: client) { return account }
        guard client.hasPrefix("AC"), let slash = client.firstIndex(of: "/") else { return nil }
        return String(client[..<slash])
    }

    /// Who asks, for the failed-check lockout: the signed-in user for MFA (`user`), else the
    /// client (its IP or /64; a trusted server caller counts as one requester).
    static func requester(client: String, user: String?) -> String {
        if let user { return "user:" + user }
        return client.isEmpty ? "unknown" : client
    }

    /// The lockout key of a requester's failed checks on `phone`: `requester` when the caller
    /// names one (a Twilio-compatible account, whatever device it names), else the one `client`
    /// and `user` make.
    func lockoutKey(phone: String, client: String, user: String?, requester: String? = nil) -> String {
        LockoutPolicy.key(phone: phone, requester: requester ?? Self.requester(client: client, user: user))
    }

    /// The send subjects of one send to `phone` from `client` (and signed-in `user`, for MFA).
    /// A step-up challenge to a user's own enrolled factor counts against that user's quota
    /// instead of the number's and its block's: strangers using up the number's quota must not
    /// block the owner's second factor (docs/ABUSE.md). A test number counts only against the
    /// number's (or user's) quota: no SMS is sent, but each verification allows more guesses.
    /// `shareOf`: the requester of a start with a passed challenge, whose sends past the number's
    /// own quota count against its share of the lifted one (`phone_requester_send`), so
    /// strangers cannot spend what lets the owner in (docs/ABUSE.md).
    func sendSubjects(
        phone: String, client: String, user: String? = nil, stepUp: Bool = false, testNumber: Bool = false, channels: [Channel] = [.sms],
        shareOf requester: String? = nil
    ) -> [RateLimiter.Subject] {
        var subjects: [RateLimiter.Subject] = []
        if !stepUp { subjects.append(.init(.phoneSend, phone)) }
        // Every channel of the plan counts, fallbacks included: `auto` never widens a quota.
        if !testNumber {
            if channels.contains(.whatsapp) { subjects.append(.init(.whatsappSend, phone)) }
            if channels.contains(.call) { subjects.append(.init(.callSend, phone)) }
        }
        if let requester, !stepUp, !testNumber { subjects.append(.init(.phoneRequesterSend, phone + "|" + requester, whenLifted: true)) }
        if let user { subjects.append(.init(.userSend, user)) }
        if testNumber { return subjects }
        // The spend caps count messages: an `auto` start may cost one per channel of its plan.
        let messages = channels.count
        if !Self.isServerCaller(client) { subjects.append(.init(.ipSend, client.isEmpty ? "unknown" : client, cost: messages)) }
        if !stepUp { subjects.append(.init(.prefixSend, limiter.limits.prefix(of: phone), cost: messages)) }
        subjects.append(.init(.globalSend, "all", cost: messages))
        return subjects
    }

    /// The check subjects of one check from `client`.
    func checkSubjects(client: String) -> [RateLimiter.Subject] {
        Self.isServerCaller(client) ? [] : [.init(.ipCheck, client.isEmpty ? "unknown" : client)]
    }

    /// The destination's block and country keys for each channel of a plan, in pairs (SMS's
    /// keys have no suffix; WhatsApp's and voice's end in `@whatsapp`, `@call`: pumping one
    /// channel never pauses another).
    /// A tenant's traffic (`requester` names a Twilio-compatible account) has keys of its own.
    func fraudKeys(phone: String, region: String, channels: [Channel] = [.sms], requester: String? = nil) -> [String] {
        let prefix = limiter.limits.prefix(of: phone)
        let tenant = Self.tenant(ofRequester: requester)
        return channels.flatMap { FraudGuard.keys(prefix: prefix, region: region, channel: $0, tenant: tenant) }
    }
}
