import Foundation
import Testing
@testable import VerifyCore
import VerifyTesting

/// A watched or paused destination admits at most its usual volume, whatever captcha a start
/// carries; device-bound proof or a grant passes above it at the proof rate; a start whose SMS
/// destination is refused goes over WhatsApp instead (docs/ABUSE.md).
@Suite struct FraudVolumeCapTests {
    static let limits = "prefix_send=off;phone_send=off;ip_send=off;global_send=off"

    func service(
        _ fraud: FraudPolicy = FraudPolicy(), providers: [String] = ["fake", "app_attest", "grant"], channels: Set<Channel> = [.sms]
    ) throws -> TestService {
        var policy = VerificationPolicy()
        policy.channels.enabled = channels
        policy.channels.autoEnabled = channels.count > 1
        return TestService(
            policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: Self.limits), fraud: fraud),
            challenges: providers.isEmpty ? nil : (.suspicious, providers.map { FakeChallengeVerifier(provider: $0) }))
    }

    func start(_ t: TestService, _ n: Int, _ token: String? = nil, provider: String = "fake", channel: String = "sms") throws -> StartOutcome {
        let phone = "+1666555" + String(format: "%04d", n)
        return try t.service.start(StartRequest(
            phoneNumber: phone, channel: channel, clientIP: "203.0.113.\(n % 250)",
            challenge: token.map { ChallengeSubmission(provider: provider, token: $0 == "bound" ? "pass-\(phone)" : $0) }))
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch {}
        return nil
    }

    /// The farm's case: every start solves a captcha, yet the block admits only the codes that
    /// made it watched and its floor; then only device-bound proof passes, at the proof rate, and a
    /// grant, which the customer's backend vouches for, without spending that rate.
    @Test func aWatchedBlockAdmitsItsUsualVolumeWhateverCaptcha() throws {
        var fraud = FraudPolicy()
        fraud.proofRate = 1
        let t = try service(fraud)
        for n in 0..<3 { _ = try start(t, n) }
        #expect(refusal { _ = try start(t, 3) }?.reasons == ["block_watched"])
        for n in 3..<6 { _ = try start(t, n, "pass-\(n)") }
        // Six unconfirmed codes: 3 that made it watched + the floor of 3. A captcha is not enough.
        let asked = refusal { _ = try start(t, 6, "pass-6") }
        #expect(asked?.code == .challengeRequired)
        #expect(asked?.reasons == ["block_full"])
        #expect(asked?.details["providers"] == [["name": "app_attest", "site_key": "site-app_attest"], ["name": "grant", "site_key": "site-grant"]])
        _ = try start(t, 6, "bound", provider: "app_attest")
        let full = refusal { _ = try start(t, 7, "bound", provider: "app_attest") }
        #expect(full?.code == .suspectedFraud)
        #expect(full?.details["scope"] == "prefix")
        #expect(full?.retryAfter == 3601)
        #expect(full?.rateLimit?.status.rule == LimitRule(quota: 6, window: 3600))
        for n in 8..<10 { _ = try start(t, n, "bound", provider: "grant") }
        #expect(t.store.messages.count == 9)
        // Confirmed codes free the volume again: the block's own users keep it open (9 sent, so
        // four confirmations leave 5 unconfirmed).
        for n in 3..<7 {
            let v = t.store.messages[n].verificationID
            _ = try t.service.check(id: v, code: try t.lastCode(for: v), clientIP: "203.0.113.\(n)")
        }
        _ = try start(t, 10, "pass-10")
    }

    /// Without a provider the same volume is admitted first come, then refused, and a pause
    /// refuses outright.
    @Test func withoutAProviderTheVolumeIsTheBound() throws {
        let t = try service(providers: [])
        for n in 0..<6 { _ = try start(t, n) }
        let full = refusal { _ = try start(t, 6) }
        #expect(full?.code == .suspectedFraud)
        #expect(full?.details["reason"]?.stringValue?.contains("admits its usual volume, 6 unconfirmed codes in 60 min") == true)
        #expect(t.store.messages.count == 6)
    }

    /// A stranger who spends a number's quota narrows its block for other numbers, never for the
    /// number's owner: the number's own codes do not count against it.
    @Test func aNumbersOwnCodesNeverCountAgainstItsOwner() throws {
        var fraud = FraudPolicy()
        fraud.floor = 1
        let limits = "prefix_send=off;ip_send=off;global_send=off;phone_send=5/1h"
        let t = TestService(protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: limits), fraud: fraud))
        for ip in 0..<4 { _ = try t.service.start(StartRequest(phoneNumber: "+16665550001", clientIP: "203.0.113.\(ip)")) }
        #expect(refusal { _ = try t.service.start(StartRequest(phoneNumber: "+16665550002", clientIP: "198.51.100.2")) }?.code == .suspectedFraud)
        _ = try t.service.start(StartRequest(phoneNumber: "+16665550001", clientIP: "198.51.100.1"))
    }

    /// A plain SMS start to a refused block goes over WhatsApp only; `auto` drops its SMS fallback;
    /// with steering off, SMS is refused.
    @Test func aRefusedSMSDestinationIsSteeredToWhatsApp() throws {
        let t = try service(providers: [], channels: [.sms, .whatsapp])
        for n in 0..<6 { _ = try start(t, n) }
        let steered = try start(t, 6)
        #expect(steered.steered && steered.verification.channel == "whatsapp")
        #expect(t.store.messages.last?.channel == .whatsapp)
        #expect(t.events.events.contains(.steered))
        let auto = try start(t, 7, channel: "auto")
        #expect(auto.verification.channel == "whatsapp" && auto.verification.sends == 1)
        #expect(t.store.messages.filter { $0.verificationID == auto.verification.id }.map(\.channel) == [.whatsapp])
        // An ordinary block's `auto` keeps its SMS fallback.
        let other = try t.service.start(StartRequest(phoneNumber: "+14155550100", channel: "auto", clientIP: "198.51.100.1"))
        #expect(t.store.messages.filter { $0.verificationID == other.verification.id }.map(\.channel) == [.whatsapp, .sms])

        var off = FraudPolicy()
        off.steerToWhatsApp = false
        let u = try service(off, providers: [], channels: [.sms, .whatsapp])
        for n in 0..<6 { _ = try start(u, n) }
        #expect(refusal { _ = try start(u, 6) }?.code == .suspectedFraud)
        #expect(try start(u, 7, channel: "auto").verification.channel == "whatsapp")
    }

    /// A resend to a block that filled up since its start is steered as a start is.
    @Test func aResendIsSteeredToo() throws {
        let t = try service(providers: [], channels: [.sms, .whatsapp])
        let first = try start(t, 0).verification
        for n in 1..<6 { _ = try start(t, n) }
        t.clock.advance(31)
        let resent = try t.service.resend(id: first.id, clientIP: "203.0.113.0")
        #expect(resent.steered && resent.verification.channel == "whatsapp")
        #expect(t.store.messages.last?.channel == .whatsapp)
    }

    /// A paused SMS destination is steered too, even within its volume.
    @Test func aPausedBlockIsSteered() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 3
        fraud.watchSends = 100
        let t = try service(fraud, providers: [], channels: [.sms, .whatsapp])
        for n in 0..<3 { _ = try start(t, n) }
        #expect(try start(t, 3).verification.channel == "whatsapp")
        try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).setOverride(key: "prefix:+1666555", action: .block)
        // An operator's block is never steered around.
        #expect(refusal { _ = try start(t, 4) }?.code == .suspectedFraud)
    }

    /// The WhatsApp a refused SMS destination is steered to is never refused by the guard's own
    /// verdict (nobody earns from pumping it); WhatsApp asked for directly is judged as before, and
    /// an operator's block refuses both.
    @Test func steeredWhatsAppIsNeverRefusedByTheGuardsOwnVerdict() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 3
        fraud.watchSends = 100
        let t = try service(fraud, providers: [], channels: [.sms, .whatsapp])
        for n in 0..<3 { _ = try start(t, n, channel: "whatsapp") }
        #expect(refusal { _ = try start(t, 3, channel: "whatsapp") }?.code == .suspectedFraud)
        for n in 4..<7 { _ = try start(t, n) }
        // The SMS block is paused too: steered to the paused WhatsApp key, and admitted.
        #expect(try start(t, 7).verification.channel == "whatsapp")
        try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).setOverride(key: "prefix:+1666555@whatsapp", action: .block)
        #expect(refusal { _ = try start(t, 8) }?.code == .suspectedFraud)
    }

    /// A call key past its volume cuts the call from an `auto` plan, never SMS with it; a risky
    /// destination's `auto` plan keeps no SMS or call fallback.
    @Test func aCappedCallKeyCutsOnlyTheCall() throws {
        var policy = VerificationPolicy()
        policy.channels.enabled = [.sms, .whatsapp, .call]
        policy.channels.autoEnabled = true
        policy.channels.autoOrder = [.sms, .call]
        let limits = try RateLimits.defaults.overridden(by: Self.limits + ";call_send=off")
        let t = TestService(policy: policy, protection: AbuseProtection(limits: limits))
        for n in 0..<6 { _ = try start(t, n, channel: "call") }
        let auto = try start(t, 6, channel: "auto")
        #expect(auto.verification.channel == "sms" && auto.verification.sends == 1)
        policy.channels.autoOrder = [.whatsapp, .sms]
        let u = TestService(policy: policy, protection: AbuseProtection(limits: try RateLimits.defaults.overridden(by: Self.limits)))
        for n in 0..<3 { _ = try start(u, n, channel: "whatsapp") }
        let risky = try start(u, 3, channel: "auto")
        #expect(u.store.messages.filter { $0.verificationID == risky.verification.id }.map(\.channel) == [.whatsapp])
    }

    /// A block with a usual volume admits that volume while watched.
    @Test func theUsualVolumeIsTheBlocksBaseline() throws {
        var fraud = FraudPolicy()
        fraud.baseline = 3600
        let t = try service(fraud, providers: [])
        // Its usual hour: 10 codes, all confirmed.
        for n in 0..<10 {
            let v = try start(t, n).verification
            _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id), clientIP: "203.0.113.\(n)")
        }
        t.clock.advance(3900)  // past the window's last bucket
        // This hour: 3 that make it watched + its usual 10.
        for n in 10..<23 { _ = try start(t, n) }
        #expect(refusal { _ = try start(t, 23) }?.rateLimit?.status.rule == LimitRule(quota: 13, window: 3600))
    }
}
