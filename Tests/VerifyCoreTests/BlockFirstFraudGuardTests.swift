import Foundation
import Testing
@testable import VerifyCore
import VerifyTesting

/// The fraud guard judges blocks before countries (docs/ABUSE.md, "Fraud guard"): a country
/// pauses only with many anomalous blocks, many clients and a volume far above its baseline.
@Suite struct BlockFirstFraudGuardTests {
    func service(_ fraud: FraudPolicy = FraudPolicy()) throws -> TestService {
        let limits = try RateLimits.defaults.overridden(by: "prefix_send=off;phone_send=off;ip_send=off;global_send=off")
        return TestService(protection: AbuseProtection(limits: limits, fraud: fraud))
    }

    func refusal(_ t: TestService, _ phone: String, ip: String = "198.51.100.1") -> VerifyError? {
        do { _ = try t.service.start(StartRequest(phoneNumber: phone, clientIP: ip)) } catch let error as VerifyError { return error } catch {}
        return nil
    }

    /// The review's case: 60 starts to random GB mobiles from 6 IPs used to pause every GB
    /// number for everyone. Spread over many blocks, no block is anomalous: GB stays open.
    @Test func sprayingACountryFromAFewClientsDoesNotPauseIt() throws {
        let t = try service()
        var rng = SystemRandomNumberGenerator()
        for n in 0..<60 {
            let number = "+447" + String(format: "%09d", UInt64.random(in: 0..<1_000_000_000, using: &rng))
            _ = try t.service.start(StartRequest(phoneNumber: number, clientIP: "203.0.113.\(n % 6)"))
        }
        #expect(refusal(t, "+447700900123") == nil)
        let verdict = try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).verdicts().first { $0.stat.key == "country:GB" }?.verdict
        #expect(verdict?.state == .watched)
        #expect(verdict?.reason.contains("0 anomalous blocks") == true)
    }

    /// Anomalous blocks answer for their own sends (each is held to its usual volume): the country
    /// pauses only when many clients' sends outside them, with no history, add a surge the blocks
    /// cannot explain. And it says why.
    @Test func aCountryPausesOnlyForASurgeItsBlocksCannotExplain() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 20
        fraud.countryMinSends = 40
        let t = try service(fraud)
        var n = 0
        for block in 0..<6 {
            for i in 0..<8 {
                n += 1
                _ = refusal(t, "+4477009\(block)\(String(format: "%04d", i))", ip: "203.0.\(n).1")
            }
        }
        // 36 sends, all to the six anomalous blocks: the country stays open.
        #expect(refusal(t, "+447912345670", ip: "198.51.100.7") == nil)
        let country = { try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).verdicts().first { $0.stat.key == "country:GB" }?.verdict }
        #expect(try country()?.reason.contains("6 anomalous blocks, 36 sends to them") == true)
        // 40 more, one to each of 40 other blocks: a surge no anomalous block explains.
        for i in 0..<40 { _ = refusal(t, "+44780\(String(format: "%02d", i))123456", ip: "198.18.\(i).1") }
        #expect(try country()?.state == .paused)
        let error = refusal(t, "+447912345678", ip: "198.51.100.7")
        #expect(error?.code == .suspectedFraud)
        #expect(error?.details["scope"] == "country")
        #expect(error?.details["reason"]?.stringValue?.contains("too few codes to this country are confirmed") == true)
    }

    /// A block whose usual volume is high is not paused by a low conversion at that volume: it
    /// is watched; the same volume with no history pauses.
    @Test func aBlockIsJudgedAgainstItsOwnBaseline() throws {
        var fraud = FraudPolicy()
        fraud.minSends = 10
        let t = try service(fraud)
        // A day of steady traffic: 12 sends an hour, each confirmed... except the last hour's.
        for hour in 0..<23 {
            for i in 0..<12 {
                let v = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%02d%02d", hour, i))", clientIP: "198.51.100.\(i)")).verification
                _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id), clientIP: "198.51.100.\(i)")
            }
            t.clock.advance(3600)
        }
        for i in 0..<12 { _ = refusal(t, "+1666555\(String(format: "99%02d", i))", ip: "198.51.100.\(i)") }
        #expect(refusal(t, "+16665559999") == nil)
        let stats = try FraudAdmin(store: t.store, clock: t.clock, policy: fraud).verdicts()
        #expect(stats.first { $0.stat.key == "prefix:+1666555" }?.verdict.state == .watched)
    }

    /// Legitimate confirmations in a block do not hide an attacker's unconfirmed codes: the block
    /// is watched on the unconfirmed count, whatever its conversion.
    @Test func confirmationsDoNotHideUnconfirmedCodes() throws {
        let t = try service()
        for i in 0..<6 {
            let v = try t.service.start(StartRequest(phoneNumber: "+1666555\(String(format: "%04d", i))", clientIP: "198.51.100.\(i)")).verification
            _ = try t.service.check(id: v.id, code: try t.lastCode(for: v.id), clientIP: "198.51.100.\(i)")
        }
        for i in 0..<3 { _ = refusal(t, "+1666555\(String(format: "9%03d", i))", ip: "203.0.113.\(i)") }
        let verdict = try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).verdicts().first { $0.stat.key == "prefix:+1666555" }?.verdict
        #expect(verdict?.state == .watched)
        #expect(verdict?.reason.hasPrefix("3 of 9 codes") == true)
    }

    /// The review's attack: 50 starts over 5 blocks from 10 IPv6 /64s of one /56 paused a whole
    /// country. Clients count by network (/48) and a country needs 200 sends: it stays open.
    @Test func oneHomeNetworkCannotPauseACountry() throws {
        let t = try service()
        for block in 0..<5 {
            for i in 0..<10 {
                _ = refusal(t, "+1415\(300 + block)\(1000 + i)", ip: "2001:db8:aa:\((block * 10 + i) % 10)::/64")
            }
        }
        #expect(refusal(t, "+12125550123", ip: "198.51.100.7") == nil)
        let verdicts = try FraudAdmin(store: t.store, clock: t.clock, policy: FraudPolicy()).verdicts()
        #expect(verdicts.first { $0.stat.key == "country:US" }?.verdict.state == .normal)
        // Each block admitted the 3 codes that made it watched and its floor of 3 more.
        #expect(verdicts.filter { $0.stat.key.hasPrefix("prefix:+1415") }.map(\.stat.sent) == [6, 6, 6, 6, 6])
    }

    @Test func clientsCountByNetwork() {
        #expect(FraudGuard.network(of: "2001:db8:aa:7::/64") == "2001:db8:aa::/48")
        #expect(FraudGuard.network(of: "203.0.113.9") == "203.0.113.0/24")
        // A Twilio-compatible account is one client, whatever devices it names.
        #expect(FraudGuard.network(of: "server-caller:AC1") == "tenant:AC1")
        #expect(FraudGuard.network(of: "AC1/203.0.113.9") == "tenant:AC1")
        #expect(FraudGuard.network(of: "AC1/2001:db8:aa:7::/64") == "tenant:AC1")
        #expect(FraudGuard.network(of: "") == "unknown")
    }
}
