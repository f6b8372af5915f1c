import Foundation
import Testing
import VerifyCore
import VerifyTesting

/// Channels on start and resend: which are accepted, the line types each reaches, the plan of
/// `auto` with its fallbacks, and the limits and fraud keys of each channel (docs/GATEWAYS.md).
@Suite struct ChannelTests {
    static let mobile = "+15555550123"
    static let landline = "+442071234567"

    static func policy(_ enabled: Set<Channel> = [.sms, .whatsapp, .call], auto: Bool = true) -> VerificationPolicy {
        var policy = VerificationPolicy()
        policy.channels.enabled = enabled
        policy.channels.autoEnabled = auto
        policy.resendCooldown = 0
        return policy
    }

    @Test func smsIsTheDefaultAndTheOnlyChannelByDefault() throws {
        let t = TestService()
        let v = try t.service.start(StartRequest(phoneNumber: Self.mobile)).verification
        #expect(v.channel == "sms")
        #expect(t.store.messages.map(\.channel) == [.sms])
        for name in ["whatsapp", "call", "auto"] {
            let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: name)) }
            #expect(error?.code == .channelNotEnabled)
            #expect(error?.details["allowed"] == .array([.string("sms")]))
        }
        #expect(t.store.messages.count == 1)
    }

    @Test func anUnknownChannelIsABadRequestListingTheEnabledOnes() throws {
        let t = TestService(policy: Self.policy())
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "email")) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.details["allowed"] == .array(["sms", "whatsapp", "call", "auto"].map { .string($0) }))
        #expect(t.store.messages.isEmpty)
    }

    @Test func aLandlineGetsACallButNotAnSMSOrAWhatsAppMessage() throws {
        let t = TestService(policy: Self.policy())
        for name in ["sms", "whatsapp"] {
            let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.landline, channel: name)) }
            #expect(error?.code == .unsupportedLineType)
            #expect(error?.details["channels"] == .array([.string("call")]))
        }
        #expect(t.store.messages.isEmpty)
        let v = try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call")).verification
        #expect(v.channel == "call")
        #expect(t.store.messages.map(\.channel) == [.call])
    }

    @Test func aLandlineRefusedEverywhereNamesNoChannel() throws {
        let t = TestService(policy: Self.policy([.sms, .whatsapp]))
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "sms")) }
        #expect(error?.code == .unsupportedLineType)
        #expect(error?.details["channels"] == .array([]))
    }

    @Test func autoQueuesTheFirstChannelNowAndAFallbackWithTheSameCodeLater() throws {
        let t = TestService(policy: Self.policy())
        let v = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")).verification
        #expect(v.channel == "whatsapp")
        #expect(v.sends == 2)
        let messages = t.store.messages
        #expect(messages.map(\.channel) == [.whatsapp, .sms])
        #expect(messages[1].fallbackOf == messages[0].id)
        #expect(messages[0].nextAttemptAt == t.clock.now())
        #expect(messages[1].nextAttemptAt == t.clock.now().addingTimeInterval(60))
        #expect(messages[0].sealedPayload == messages[1].sealedPayload)
        // The pending fallback is not the delivery.
        #expect(try t.service.get(id: v.id).delivery?.channel == .whatsapp)
    }

    @Test func autoOnALandlineSkipsTheChannelsThatCannotReachIt() throws {
        var policy = Self.policy()
        policy.channels.autoOrder = [.whatsapp, .sms, .call]
        let t = TestService(policy: policy)
        let v = try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "auto")).verification
        #expect(v.channel == "call")
        #expect(t.store.messages.map(\.channel) == [.call])
    }

    @Test func aFallbackNeverPassesTheSendCap() throws {
        var policy = Self.policy()
        policy.maxSends = 1
        let t = TestService(policy: policy)
        let v = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")).verification
        #expect(v.sends == 1)
        #expect(t.store.messages.map(\.channel) == [.whatsapp])

        var two = Self.policy()
        two.maxSends = 2
        let u = TestService(policy: two)
        let w = try u.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")).verification
        #expect(w.sends == 2)
        let error = #expect(throws: VerifyError.self) { try u.service.resend(id: w.id) }
        #expect(error?.code == .maxSendsReached)
    }

    @Test func aFailedFirstMessageMakesTheFallbackDueAtOnce() throws {
        let t = TestService(policy: Self.policy())
        _ = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto"))
        let now = t.clock.now()
        let first = try t.store.claimDue(limit: 10, now: now, leaseUntil: now.addingTimeInterval(15), owner: "w")
        #expect(first.map(\.channel) == [.whatsapp])
        t.clock.advance(2)
        try t.store.complete([OutboxOutcome(
            messageID: first[0].id, status: .failed, gateway: "meta-whatsapp", providerMessageID: nil,
            lastError: "not on WhatsApp", nextAttemptAt: nil, attempts: 1, at: t.clock.now())], owner: "w")
        let due = try t.store.claimDue(limit: 10, now: t.clock.now(), leaseUntil: t.clock.now().addingTimeInterval(15), owner: "w")
        #expect(due.map(\.channel) == [.sms])
    }

    @Test func anUndeliveredReceiptMakesTheFallbackDueAndADeliveredOneDropsIt() throws {
        let t = TestService(policy: Self.policy())
        let a = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")).verification
        let b = try t.service.start(StartRequest(phoneNumber: "+15555550124", channel: "auto")).verification
        let now = t.clock.now()
        let sent = try t.store.claimDue(limit: 10, now: now, leaseUntil: now.addingTimeInterval(15), owner: "w")
        #expect(sent.count == 2)
        try t.store.complete(sent.map {
            OutboxOutcome(messageID: $0.id, status: .sent, gateway: "meta-whatsapp", providerMessageID: "wamid." + $0.verificationID,
                          lastError: nil, nextAttemptAt: nil, attempts: 1, at: now)
        }, owner: "w")
        t.clock.advance(5)
        #expect(try t.store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid." + a.id, status: .undelivered, error: "131026", at: t.clock.now()))
        #expect(try t.store.recordReceipt(gateway: "meta-whatsapp", providerMessageID: "wamid." + b.id, status: .delivered, error: nil, at: t.clock.now()))
        let due = try t.store.claimDue(limit: 10, now: t.clock.now(), leaseUntil: t.clock.now().addingTimeInterval(15), owner: "w")
        #expect(due.map(\.verificationID) == [a.id])
        #expect(due.map(\.channel) == [.sms])
        // b's fallback is gone: nothing more is ever sent for it.
        #expect(!t.store.messages.contains { $0.verificationID == b.id && $0.channel == .sms })
        #expect(try t.service.get(id: b.id).delivery?.status == .delivered)
    }

    @Test func aResendMaySwitchChannelAndIsCheckedLikeAStart() throws {
        let t = TestService(policy: Self.policy())
        let v = try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call")).verification
        let refused = #expect(throws: VerifyError.self) { try t.service.resend(id: v.id, channel: "sms") }
        #expect(refused?.code == .unsupportedLineType)
        let again = try t.service.resend(id: v.id).verification
        #expect(again.channel == "call")
        let m = try t.service.start(StartRequest(phoneNumber: Self.mobile)).verification
        let switched = try t.service.resend(id: m.id, channel: "whatsapp").verification
        #expect(switched.channel == "whatsapp")
        #expect(t.store.messages.last?.channel == .whatsapp)
        // The earlier SMS, still queued, is superseded.
        #expect(t.store.messages.filter { $0.verificationID == m.id && $0.status == .queued }.map(\.channel) == [.whatsapp])
    }

    @Test func callsHaveTheirOwnQuotaPerNumber() throws {
        var policy = Self.policy()
        policy.maxSends = 10
        var limits = RateLimits.defaults
        limits.rules[.callSend] = [LimitRule(quota: 2, window: 3600)]
        let t = TestService(policy: policy, protection: AbuseProtection(limits: limits))
        _ = try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call"))
        _ = try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call"))
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call")) }
        #expect(error?.code == .rateLimited)
        #expect(error?.details["scope"] == .string("phone"))
        // SMS to another number is untouched; the same number by SMS still has its phone quota.
        _ = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "sms"))
    }

    @Test func aPassedChallengeLiftsAChannelQuotaAsItLiftsTheNumbers() throws {
        var policy = Self.policy()
        policy.maxSends = 10
        let t = TestService(policy: policy, challenges: (.suspicious, [FakeChallengeVerifier()]))
        // A stranger who solves challenges too uses the number's three calls of the hour up.
        for i in 0..<3 {
            _ = try t.service.start(StartRequest(
                phoneNumber: Self.landline, channel: "call", clientIP: "203.0.113.9",
                challenge: ChallengeSubmission(provider: "fake", token: "pass-stranger-\(i)")))
        }
        // Its owner is asked for proof, not refused.
        let asked = #expect(throws: VerifyError.self) {
            try t.service.start(StartRequest(phoneNumber: Self.landline, channel: "call", clientIP: "198.51.100.1"))
        }
        #expect(asked?.code == .challengeRequired)
        let owner = try t.service.start(StartRequest(
            phoneNumber: Self.landline, channel: "call", clientIP: "198.51.100.1",
            challenge: ChallengeSubmission(provider: "fake", token: "pass-owner"))).verification
        #expect(owner.channel == "call")
    }

    @Test func aChannelQuotaNamesItsChannelAndAutoGoesByTheOthers() throws {
        var policy = Self.policy()
        policy.maxSends = 10
        let t = TestService(
            policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=50/1h")),
            eventTypes: Set(EventType.allCases))
        for _ in 0..<5 { _ = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "whatsapp")) }
        let error = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "whatsapp")) }
        #expect(error?.code == .rateLimited)
        #expect(error?.details["channel"] == .string("whatsapp"))
        #expect(error?.message.contains("another channel") == true)
        // `auto` drops the channel whose own quota is used up and goes by SMS, with no fallback.
        let before = t.store.messages.count
        let auto = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")).verification
        #expect(auto.channel == "sms" && auto.sends == 1)
        #expect(t.store.messages.dropFirst(before).map(\.channel) == [.sms])
        #expect(try t.service.get(id: auto.id).delivery?.channel == .sms)
        // A resend asking for `auto` does the same.
        let resent = try t.service.resend(id: auto.id, channel: "auto").verification
        #expect(resent.channel == "sms" && resent.sends == 2)
        #expect(t.store.messages.filter { $0.verificationID == auto.id && $0.status == .queued }.map(\.channel) == [.sms])
        // SMS alone left and its own quota gone too: the refusal stands.
        var smsOnly = Self.policy()
        smsOnly.maxSends = 10
        let u = TestService(policy: smsOnly, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "phone_send=5/1h")))
        for _ in 0..<5 { _ = try u.service.start(StartRequest(phoneNumber: Self.mobile, channel: "whatsapp")) }
        let refused = #expect(throws: VerifyError.self) { try u.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")) }
        #expect(refused?.details["scope"] == .string("phone"))
    }

    @Test func anAutoStartCountsEachOfItsMessagesAgainstTheSpendCaps() throws {
        var policy = Self.policy()
        policy.channels.autoOrder = [.whatsapp, .sms, .call]
        let limits = try RateLimits.defaults.overridden(by: "global_send=4/1m;ip_send=100/10m")
        let t = TestService(policy: policy, protection: AbuseProtection(limits: limits))
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550101", channel: "auto", clientIP: "198.51.100.1"))  // 3 messages
        let refused = #expect(throws: VerifyError.self) {
            try t.service.start(StartRequest(phoneNumber: "+15555550102", channel: "auto", clientIP: "198.51.100.1"))
        }
        #expect(refused?.details["scope"] == .string("global"))
        // One message still fits.
        _ = try t.service.start(StartRequest(phoneNumber: "+15555550103", channel: "sms", clientIP: "198.51.100.1"))
        #expect(t.store.messages.count == 4)

        let perClient = TestService(policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: "ip_send=5/10m")))
        _ = try perClient.service.start(StartRequest(phoneNumber: "+15555550101", channel: "auto", clientIP: "198.51.100.1"))
        let client = #expect(throws: VerifyError.self) {
            try perClient.service.start(StartRequest(phoneNumber: "+15555550102", channel: "auto", clientIP: "198.51.100.1"))
        }
        #expect(client?.details["scope"] == .string("ip"))
    }

    @Test func eachChannelHasItsOwnFraudKeys() {
        #expect(FraudGuard.keys(prefix: "+1555555", region: "US") == ["prefix:+1555555", "country:US"])
        #expect(FraudGuard.keys(prefix: "+1555555", region: "US", channel: .call) == ["prefix:+1555555@call", "country:US@call"])
        #expect(FraudAdmin.isValidKey("country:BJ@whatsapp"))
        #expect(FraudAdmin.isValidKey("prefix:+2290112@call"))
        #expect(!FraudAdmin.isValidKey("country:BJ@email"))
        #expect(!FraudAdmin.isValidKey("country:BJ@"))
    }

    @Test func anOperatorBlockOfSMSDoesNotStopWhatsAppButStopsAutoFallingBackToSMS() throws {
        let fraud = FraudPolicy()
        let t = TestService(policy: Self.policy(), protection: AbuseProtection(fraud: fraud))
        let admin = FraudAdmin(store: t.store, clock: t.clock, policy: fraud)
        try admin.setOverride(key: "country:US", action: .block)
        let sms = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "sms")) }
        #expect(sms?.code == .suspectedFraud)
        _ = try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "whatsapp"))
        // `auto` would fall back to SMS: refused as SMS would be.
        let auto = #expect(throws: VerifyError.self) { try t.service.start(StartRequest(phoneNumber: Self.mobile, channel: "auto")) }
        #expect(auto?.code == .suspectedFraud)
    }
}
