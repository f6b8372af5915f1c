import Foundation
import Testing
@testable import VerifyCore
import VerifyTesting

/// A Twilio-compatible account is one client of the fraud guard, and its traffic pauses only its
/// own sends (docs/ABUSE.md, "A tenant is one client").
@Suite struct TenantFraudTests {
    func service() throws -> TestService {
        let limits = try RateLimits.defaults.overridden(by: "prefix_send=off;phone_send=off;ip_send=off;global_send=off")
        return TestService(protection: AbuseProtection(limits: limits))
    }

    /// A start as the Twilio-compatible API makes it for `account`, naming a made-up `DeviceIp`.
    func tenantStart(_ t: TestService, _ phone: String, account: String, device: String) throws -> Verification {
        try t.service.start(StartRequest(
            phoneNumber: phone, purpose: .delegated, clientIP: account + "/" + device,
            requester: AbuseProtection.serverCaller(account: account))).verification
    }

    func refusal(_ body: () throws -> Void) -> VerifyError? {
        do { try body() } catch let error as VerifyError { return error } catch {}
        return nil
    }

    @Test func aTenantsPumpingPausesOnlyItsOwnSends() throws {
        let t = try service()
        var refused = 0
        for i in 0..<10 {
            let phone = "+1666555" + String(format: "%04d", i)
            if refusal({ _ = try tenantStart(t, phone, account: "AC1", device: "198.18.\(i).7") }) != nil { refused += 1 }
        }
        #expect(refused == 4)  // its block admits 3 + the floor of 3 of its unconfirmed codes
        // Native users and other tenants meet the block as it is for them: untouched.
        _ = try t.service.start(StartRequest(phoneNumber: "+16665559990", clientIP: "198.51.100.1"))
        _ = try tenantStart(t, "+16665559991", account: "AC2", device: "198.51.100.2")
        let keys = Set(try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).stats().map(\.key))
        #expect(keys.isSuperset(of: ["prefix:+1666555~AC1", "country:US~AC1", "prefix:+1666555~AC2", "prefix:+1666555", "country:US"]))
        // Its approvals count for its own keys.
        let v = try tenantStart(t, "+14155550100", account: "AC1", device: "198.18.0.1")
        _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id), purposes: [.delegated], requester: AbuseProtection.serverCaller(account: "AC1"))
        let stats = try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).stats()
        #expect(stats.first { $0.key == "prefix:+1415555~AC1" }?.approved == 1)
        #expect(stats.first { $0.key == "prefix:+1415555" } == nil)
    }

    /// Made-up `DeviceIp` values are one client network: a tenant never reaches the many
    /// networks a country's pause needs, whatever it names.
    @Test func aTenantsDevicesAreOneNetwork() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 5
        fraud.countryMinSends = 10
        fraud.countryBlocks = 1
        fraud.countryClients = 2
        let limits = try RateLimits.defaults.overridden(by: "prefix_send=off;phone_send=off;ip_send=off;global_send=off")
        let t = TestService(protection: AbuseProtection(limits: limits, fraud: fraud))
        for block in 0..<30 {
            _ = refusal { _ = try tenantStart(t, "+1415\(100 + block)0000", account: "AC1", device: "198.18.\(block).1") }
        }
        let verdicts = try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).verdicts()
        let country = verdicts.first { $0.stat.key == "country:US~AC1" }?.verdict
        #expect(country?.state != .paused)
        #expect(country?.reason.contains("1 client networks") == true)
    }

    /// An operator's decision on a destination holds for every tenant's traffic to it.
    @Test func anOperatorsBlockHoldsForTenants() throws {
        let t = try service()
        try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).setOverride(key: "prefix:+1666555", action: .block)
        #expect(refusal { _ = try tenantStart(t, "+16665550001", account: "AC1", device: "198.18.0.1") }?.code == .suspectedFraud)
        #expect(FraudAdmin.isValidKey("prefix:+1666555~AC1") && FraudAdmin.isValidKey("country:FR@whatsapp~ACabc"))
        #expect(!FraudAdmin.isValidKey("prefix:+1666555~") && !FraudAdmin.isValidKey("prefix:+1666555~A-1"))
    }
}
